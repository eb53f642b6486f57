package storetest

import (
	"fmt"
	"strings"
	"time"
)

// SeedBatch is the number of orders one statement of SeedOrders writes.
const SeedBatch = 100_000

// firstNames and lastNames make the customers' names: 40 × 43 of them, each on 1 order in
// 1,720, as a shop's customers share first names and surnames.
var (
	firstNames = []string{"Ana", "Maria", "João", "José", "Pedro", "Lucas", "Gabriel", "Rafael", "Bruno", "Carla",
		"Juliana", "Fernanda", "Patrícia", "Aline", "Camila", "Beatriz", "Larissa", "Mariana", "Letícia", "Amanda",
		"Felipe", "Gustavo", "Rodrigo", "Thiago", "Marcelo", "Eduardo", "Ricardo", "Paulo", "André", "Diego",
		"Vanessa", "Renata", "Simone", "Cristina", "Luciana", "Tatiane", "Priscila", "Daniela", "Sandra", "Helena"}
	lastNames = []string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima",
		"Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira",
		"Barbosa", "Rocha", "Dias", "Nascimento", "Andrade", "Moreira", "Nunes", "Marques", "Machado", "Mendes",
		"Freitas", "Cardoso", "Ramos", "Gonçalves", "Santana", "Teixeira", "Araújo", "Pinto", "Correia", "Cavalcanti",
		"Nogueira", "Batista", "Monteiro", "Campos"}
)

// sqlCase is a CASE choosing, by expr modulo len(values), one of values.
func sqlCase(expr string, values []string) string {
	var b strings.Builder
	b.WriteString("CASE " + expr + " % " + fmt.Sprint(len(values)))
	for i, v := range values {
		fmt.Fprintf(&b, " WHEN %d THEN '%s'", i, v)
	}
	return b.String() + " END"
}

// seedSelect is the SELECT of the seeded orders numbered from the column i, n in all, the last
// placed at now and one every step milliseconds before it: 59% paid a minute after they were
// placed, 36% expired, 3% failed, 1% refunded, 1% under review, and the last 50 awaiting
// payment; amounts from R$ 10 to R$ 510; one customer e-mail each, names from firstNames and
// lastNames.
//
// pad8 is the dialect's expression of i as 8 digits, for order numbers like the shop's
// ("PX-00000042").
func seedSelect(n int, now int64, step int64, pad8 string) string {
	status := fmt.Sprintf(`CASE WHEN i >= %[1]d THEN 'awaiting_payment' WHEN i %% 100 < 59 THEN 'paid'
		WHEN i %% 100 < 95 THEN 'expired' WHEN i %% 100 < 98 THEN 'failed' WHEN i %% 100 < 99 THEN 'refunded'
		ELSE 'under_review' END`, n-50)
	created := fmt.Sprintf(`(%d - (%d - 1 - i) * %d)`, now, n, step)
	return fmt.Sprintf(`SELECT 'ord-' || i, 'PX-' || %[5]s, 'ext-' || i, 'req-' || i, %[1]s, 1000 + (i * 7919) %% 50000,
			%[3]s || ' ' || %[4]s, '52998224725', 'cliente' || i || '@example.com', %[2]s, %[2]s,
			CASE WHEN (%[1]s) IN ('paid', 'refunded') THEN %[2]s + 60000 ELSE 0 END`, status, created,
		sqlCase("i", firstNames), sqlCase("(i * 7)", lastNames), pad8)
}

const seedColumns = `(id, number, external_code, request_key, status, amount, customer_name, customer_document,
	customer_email, created_at, updated_at, paid_at)`

// SeedOrders returns the statements that write n synthetic orders shaped like a shop's (a
// year of them up to now; see seedSelect) into a store of that dialect ("sqlite" or
// "postgres"), one INSERT … SELECT per SeedBatch orders. They hold no lines, history or
// attempts: the lists and the overview read none. The store's triggers keep its daily totals
// as they insert.
func SeedOrders(dialect string, n int, now time.Time) []string {
	step := int64(365*24*time.Hour/time.Millisecond) / int64(n)
	var out []string
	for from := 0; from < n; from += SeedBatch {
		to := min(from+SeedBatch, n) - 1
		if dialect == "postgres" {
			out = append(out, fmt.Sprintf(`INSERT INTO orders %s %s FROM generate_series(%d::bigint, %d::bigint) AS s(i)`,
				seedColumns, seedSelect(n, now.UnixMilli(), step, "lpad(i::text, 8, '0')"), from, to))
			continue
		}
		out = append(out, fmt.Sprintf(`WITH RECURSIVE s(i) AS (SELECT %d UNION ALL SELECT i + 1 FROM s WHERE i < %d)
			INSERT INTO orders %s %s FROM s`, from, to, seedColumns, seedSelect(n, now.UnixMilli(), step, "printf('%08d', i)")))
	}
	return out
}
