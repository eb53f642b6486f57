package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// TestChargeImport: a merchant imports charges from Excel's CSV in a real browser: the list
// leads to the import, the report names the bad line's fields (nothing created), choosing the
// same file again confirms it, and the valid lines become charges, each page accessible.
func TestChargeImport(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	due := charges.AddDays(charges.Today(a.clock.Now()), 10)
	file := playwright.InputFile{Name: "cobrancas.csv", MimeType: "text/csv", Buffer: []byte(fmt.Sprintf(
		"\uFEFFNome;CPF;E-mail;Valor;Vencimento;Descrição;Código externo\r\n"+
			"Maria da Silva;529.982.247-25;maria@example.com;1.234,56;%02d/%02d/%d;Mensalidade;ALUNO-1\r\n"+
			"João;111.111.111-11;joao@example.com;doze;%s;Mensalidade;ALUNO-2\r\n",
		due.Day, int(due.Month), due.Year, due.String()))}

	s.open(a.url + "/dashboard/charges")
	s.check(d.testID("import-link").Click(), "to the import")
	s.a11y(s.page, "charge import")
	s.check(s.page.Locator("#import-file").SetInputFiles([]playwright.InputFile{file}), "choose the file")
	s.check(d.testID("import-check").Click(), "check it")
	s.check(s.expect.Locator(d.testID("import-report")).ToHaveAttribute("data-invalid", "1"), "the report")
	bad := s.page.Locator(`[data-testid="import-line"][data-line="3"] [data-testid="import-error"]`)
	s.check(s.expect.Locator(bad).ToHaveCount(2), "line 3's errors")
	s.check(s.expect.Locator(bad.First()).ToHaveAttribute("data-field", "amount"), "the amount named")
	s.a11y(s.page, "charge import report")
	s.shot("charge-import-report")
	if list, _, err := a.app.Charges().List(context.Background(), charges.Filter{Limit: 5}, 5); err != nil || len(list) != 0 {
		t.Fatalf("the report created %d charges (%v)", len(list), err)
	}
	s.check(s.page.Locator("#import-file").SetInputFiles([]playwright.InputFile{file}), "choose the same file again")
	s.check(d.testID("import-confirm").Click(), "confirm")
	s.check(s.expect.Locator(d.testID("import-result")).ToHaveAttribute("data-created", "1"), "one charge created")
	s.a11y(s.page, "charge import result")
	s.check(d.testID("import-list").Click(), "to the list")
	s.check(s.expect.Locator(d.testID("charge-row")).ToHaveCount(1), "the charge listed")
}
