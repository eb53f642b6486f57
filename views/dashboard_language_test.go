package views

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"golang.org/x/net/html"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The dashboard's pages, rendered with data of every kind (orders in every state with every
// reason in their history, attempts failed in every way, deposits and withdrawals in every
// state, holders of every account type, PIX keys of every kind, notifications in every state),
// speak the reader's language alone: no English sentence in pt-BR, no code of the gateway or of
// the store in either language, and CPF, CNPJ, phones and PIX keys written as people write them.

// Sample values, bare as the store and the gateway keep them.
const (
	sampleCPF   = "52998224725"
	sampleCNPJ  = "11222333000181"
	samplePhone = "+5511987654321"
	sampleEVP   = "3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"
)

// sampleReasons has one reason of every code, the gateway's message in some.
func sampleReasons() []checkout.Reason {
	return []checkout.Reason{
		{Code: checkout.ReasonOrderPlaced},
		{Code: checkout.ReasonQRGenerated},
		{Code: checkout.ReasonQRRenewed, Attempt: 2},
		{Code: checkout.ReasonDeposit, DepositStatus: gatewayclient.DepositPaid},
		{Code: checkout.ReasonDeposit, DepositStatus: gatewayclient.DepositPaid, Paid: 3500, Amount: 2990},
		{Code: checkout.ReasonDeposit, DepositStatus: gatewayclient.DepositFailed, Detail: "limite excedido"},
		{Code: checkout.ReasonLatePayment},
		{Code: checkout.ReasonLatePayment, Paid: 5000, Amount: 2990},
		{Code: checkout.ReasonUnderpaid, Paid: 1000, Amount: 2990},
		{Code: checkout.ReasonPaidTwice, Paid: 2990, DepositID: sampleEVP},
		{Code: checkout.ReasonQRExpired},
		{Code: checkout.ReasonQRExpired, DepositStatus: gatewayclient.DepositFailed, Detail: "expirado"},
		{Code: checkout.ReasonGatewayRefused, Detail: "422"},
		{Code: checkout.ReasonNoTransaction},
		{Code: checkout.ReasonNoPixCode},
		{Code: checkout.ReasonAmountMismatch, Asked: 100, Amount: 2990},
		{Code: checkout.ReasonBRCodeInvalid, Detail: "CRC"},
		{Code: checkout.ReasonBRCodeAmount, Asked: 100, Amount: 2990},
		{Code: checkout.ReasonLinkBeyondCap, Paid: 2990},
	}
}

func dashSample(lang Lang, section string) DashPage {
	return DashPage{Page: page(lang, "/dashboard/"+section), User: "dona@loja.example", CSRF: "tok", Section: section,
		Nav: []NavItem{{Key: "overview", URL: "/dashboard"}, {Key: "orders", URL: "/dashboard/orders"},
			{Key: "deposits", URL: "/dashboard/deposits"}, {Key: "withdrawals", URL: "/dashboard/withdrawals"},
			{Key: "settings", URL: "/dashboard/settings"}}, LogoutURL: "/dashboard/logout"}
}

// holders has a holder of each account type and kind, with a PIX key of each kind.
func sampleHolders() []*gatewayclient.AccountHolder {
	keys := []gatewayclient.PixKey{{Key: sampleCPF, Type: gatewayclient.PixKeyCPF}, {Key: sampleCNPJ, Type: gatewayclient.PixKeyCNPJ},
		{Key: samplePhone, Type: gatewayclient.PixKeyPhone}, {Key: "ana@loja.example", Type: gatewayclient.PixKeyEmail},
		{Key: sampleEVP, Type: gatewayclient.PixKeyEVP}}
	var hs []*gatewayclient.AccountHolder
	for i, k := range keys {
		h := &gatewayclient.AccountHolder{Type: gatewayclient.HolderPF, Name: "Ana Souza", Document: sampleCPF, Pix: k,
			BankAccount: gatewayclient.BankAccount{Type: []string{"CHECKING", "SAVINGS", "PAYMENT"}[i%3], Digit: "7", ISPB: "00000000"}}
		if i%2 == 1 {
			h.Type, h.Name, h.Document = gatewayclient.HolderPJ, "Loja Exemplo Ltda", sampleCNPJ
		}
		hs = append(hs, h)
	}
	return hs
}

// dashboardSamples renders every dashboard page with the sample data in lang.
func dashboardSamples(lang Lang) map[string]templ.Component {
	at := time.Date(2026, 3, 1, 15, 4, 5, 0, time.UTC)
	pages := map[string]templ.Component{}
	for _, st := range checkout.OrderStatuses() {
		v := OrderView{DashPage: dashSample(lang, "orders"), BackURL: "/dashboard/orders"}
		v.Order = OrderDetail{ID: "ord-1", Number: "PX-7K3M9QZ2", Status: string(st), StatusText: StatusText(lang, st), Amount: 2990,
			CreatedAt: at, UpdatedAt: at, Lang: "en", ShopperIP: "203.0.113.9", CustomerName: "Ana Souza",
			CustomerDocument: sampleCPF, CustomerEmail: "ana@loja.example", CustomerPhone: samplePhone}
		prev := checkout.OrderStatus("")
		for _, r := range sampleReasons() {
			v.History = append(v.History, HistoryView{From: string(prev), To: string(st), FromText: StatusText(lang, prev),
				ToText: StatusText(lang, st), At: at, Reason: r})
			prev = st
		}
		for i, r := range append([]checkout.Reason{{}}, sampleReasons()[12:]...) {
			state := []string{"pending", "active", "failed", "expired", "paid", "superseded"}[i%6]
			v.Attempts = append(v.Attempts, AttemptView{N: i + 1, IdempotencyKey: "idem", DepositID: sampleEVP,
				DepositURL: "/dashboard/deposits/" + sampleEVP, State: state, DepositStatus: "PIX_QRCODE_GENERATED", Error: r})
		}
		if st == checkout.StatusPaid {
			v.PersonalShown = true // an owner's deliberate show
		} else {
			v.PersonalAction = "/dashboard/orders/ord-1/personal-data"
		}
		pages["order "+string(st)] = OrderPage(v)
	}
	deposits := DepositsView{DashPage: dashSample(lang, "deposits"), Listed: true, Pager: Pager{Total: 1, TotalPages: 1, Page: 1, PerPage: 25},
		CSVURL: "/dashboard/deposits.csv", CSVFullURL: "/dashboard/deposits.csv?personalData=full"}
	for i, s := range gatewayclient.DepositStatuses() {
		deposits.Rows = append(deposits.Rows, DepositRow{ID: sampleEVP, URL: "/d", CreatedAt: at, Amount: 2990, Status: s,
			Origin: []gatewayclient.DepositOrigin{gatewayclient.OriginQRCode, gatewayclient.OriginPixKey}[i%2],
			Payer:  HolderLine(sampleHolders()[i%5])})
	}
	pages["deposits"] = DepositsPage(deposits)
	withdrawals := WithdrawalsView{DashPage: dashSample(lang, "withdrawals"), Listed: true, Pager: Pager{Total: 1, TotalPages: 1, Page: 1, PerPage: 25}}
	for i, s := range gatewayclient.WithdrawalStatuses() {
		h := sampleHolders()[i%5]
		withdrawals.Rows = append(withdrawals.Rows, WithdrawalRow{ID: sampleEVP, URL: "/w", CreatedAt: at, Amount: 12345, Status: s,
			PixKey: h.Pix, Receiver: HolderLine(h)})
	}
	pages["withdrawals"] = WithdrawalsPage(withdrawals)
	hs := sampleHolders()
	for i := range hs {
		d := &gatewayclient.Deposit{ID: sampleEVP, Amount: 2990, Status: gatewayclient.DepositPaid, DepositOrigin: gatewayclient.OriginQRCode,
			PaymentMethod: gatewayclient.PaymentMethodPIX, Acquirer: "PIX_SANDBOX", CreatedAt: at, Payer: hs[i], Receiver: hs[(i+1)%5]}
		pages["deposit "+hs[i].Pix.Key] = DepositPage(DepositView{DashPage: dashSample(lang, "deposits"), D: d,
			Timeline: []TimelineEntry{{Status: "PAID", Label: DepositStatusText(lang, d.Status), Tone: "ok", At: at, Current: true}}})
		pix := hs[i].Pix
		w := &gatewayclient.Withdrawal{ID: sampleEVP, Amount: 12345, Status: gatewayclient.WithdrawalProcessed,
			Method: gatewayclient.PaymentMethodPIX, Acquirer: "PIX_SANDBOX", PixKey: &pix, CreatedAt: at, Payer: hs[(i+2)%5], Receiver: hs[i]}
		pages["withdrawal "+hs[i].Pix.Key] = WithdrawalPage(WithdrawalView{DashPage: dashSample(lang, "withdrawals"), W: w})
	}
	pages["settings"] = SettingsPage(SettingsView{DashPage: dashSample(lang, "settings"), NotifyPersonalData: true,
		Deliveries: []DeliveryRow{
			{ID: "msg_1", Type: "order.paid", Status: "skipped", URL: "/o", CreatedAt: at, Attempts: 1,
				LastError: "no URL or secret was configured"},
			{ID: "msg_2", Type: "order.awaiting_payment", Status: "dead", CreatedAt: at, Attempts: 9, LastStatusCode: 500,
				LastError: "HTTP 500: erro interno"},
			{ID: "msg_3", Type: "order.expired", Status: "pending", CreatedAt: at, Attempts: 2, LastStatusCode: 302,
				LastError: "HTTP 302 (redirects are not followed)"},
			{ID: "msg_4", Type: "order.refunded", Status: "pending", CreatedAt: at, Attempts: 1, LastError: "dial tcp: i/o timeout"},
			{ID: "msg_5", Type: "order.failed", Status: "delivered", CreatedAt: at, Attempts: 1, LastStatusCode: 204},
		}})
	return pages
}

// englishInPtBR are the English words that were left on the pt-BR dashboard.
var englishInPtBR = []string{"order placed", "qr code generated", "new qr", "deposit ", "late payment", "underpaid",
	"overpaid", "paid twice", "qr expired", "refused the transaction", "the gateway answered", "the transaction amount",
	"the PIX code", "configured", "redirects are not", "HTTP 500:", "Order:", "Checking", "Savings", "English", "Portuguese", "mobile",
	"random key", "email)"}

// rawCode finds a code as the gateway or the store spells it: a capitalised word of four
// letters or more (CPF, CNPJ, ISPB, HTTP… are words of the language, allowed below).
var rawCode = regexp.MustCompile(`\b[A-Z][A-Z_]{3,}\b`)

var allowedCaps = map[string]bool{"CNPJ": true, "ISPB": true, "HTTP": true}

// bareValues are the samples as stored: none may be shown so.
var bareValues = []string{sampleCPF, sampleCNPJ, samplePhone, "5511987654321"}

// visibleText is what the reader sees of the page's main part, each element's text apart, the
// technical details (<code>, <textarea>) left out.
func visibleText(r rendered) string {
	main := r.doc.Find("main").Clone()
	main.Find("code, textarea").Remove()
	var words []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			words = append(words, strings.Fields(n.Data)...)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range main.Nodes {
		walk(n)
	}
	return strings.Join(words, " ")
}

func TestDashboardSpeaksOneLanguage(t *testing.T) {
	t.Parallel()
	for _, lang := range Langs() {
		for name, c := range dashboardSamples(lang) {
			r := render(t, c)
			text := visibleText(r)
			for _, m := range rawCode.FindAllString(text, -1) {
				if !allowedCaps[m] {
					t.Errorf("%s, %s: the code %q is shown as it is stored", lang, name, m)
				}
			}
			for _, v := range bareValues {
				if strings.Contains(text, v) {
					t.Errorf("%s, %s: %q is shown unformatted", lang, name, v)
				}
			}
			if lang == PtBR {
				lower := strings.ToLower(text)
				for _, w := range englishInPtBR {
					if strings.Contains(lower, strings.ToLower(w)) {
						t.Errorf("%s: English %q in the pt-BR page: …%s…", name, w, around(text, w))
					}
				}
			}
		}
	}
}

// around is the text near the first occurrence of w, for a failure's message.
func around(text, w string) string {
	i := strings.Index(strings.ToLower(text), strings.ToLower(w))
	if i < 0 {
		return ""
	}
	return text[max(0, i-40):min(len(text), i+len(w)+40)]
}

// TestDashboardWritesValuesAsPeopleDo: the order's customer, history and language; the
// deposit's holders, account types, method and acquirer; the withdrawal's PIX key; the
// notifications' events and last answers, each in both languages.
func TestDashboardWritesValuesAsPeopleDo(t *testing.T) {
	t.Parallel()
	want := map[Lang]map[string][]string{
		PtBR: {
			"order paid": {"529.982.247-25", "(11) 98765-4321", "Idioma do cliente Inglês", "Pedido feito pelo cliente",
				"QR Code gerado", "Novo QR Code gerado (tentativa 2)", "Depósito no gateway: Pago",
				"Depósito no gateway: Pago — pago a mais: R$ 35,00 por R$ 29,90, devolva R$ 5,10",
				"Depósito no gateway: Falhou — mensagem do gateway: limite excedido", "Pago depois do prazo do QR Code",
				"Pago a menos: R$ 10,00 de R$ 29,90", "Pago duas vezes: devolva R$ 29,90 (depósito " + sampleEVP + ")",
				"QR Code expirado (depósito: Falhou) — mensagem do gateway: expirado", "O gateway recusou a transação — mensagem do gateway: 422",
				"A transação do gateway é de R$ 1,00; o pedido, de R$ 29,90", "O código Pix do gateway é de R$ 1,00; o pedido, de R$ 29,90"},
			"withdrawals": {"529.982.247-25 (CPF)", "11.222.333/0001-81 (CNPJ)", "+55 (11) 98765-4321 (celular)",
				"ana@loja.example (e-mail)", sampleEVP + " (chave aleatória)", "Ana Souza · 529.982.247-25", "Loja Exemplo Ltda · 11.222.333/0001-81"},
			"deposit " + sampleCPF: {"Método Pix", "Adquirente Sandbox Pix (ambiente de testes)", "Tipo de conta Conta corrente",
				"Tipo de conta Conta poupança", "Chave Pix 529.982.247-25 (CPF)", "Documento 529.982.247-25", "Documento 11.222.333/0001-81",
				"Tipo Pessoa física"},
			"deposit " + samplePhone:    {"Tipo de conta Conta de pagamento", "Chave Pix +55 (11) 98765-4321 (celular)"},
			"withdrawal " + samplePhone: {"Chave Pix +55 (11) 98765-4321 (celular)", "Método Pix"},
			"settings": {"Pedido: Pagamento confirmado", "Não enviada: nenhuma URL ou segredo de notificação estava configurado.",
				"Resposta HTTP 500", "Resposta HTTP 302 (redirecionamentos não são seguidos)", "Sem resposta", "Resposta HTTP 204"},
		},
		En: {
			"order paid": {"529.982.247-25", "(11) 98765-4321", "Customer's language English", "Order placed by the customer",
				"New QR code generated (attempt 2)", "Gateway deposit: Paid — overpaid: R$35.00 for R$29.90, refund R$5.10",
				"Underpaid: R$10.00 of R$29.90", "Paid twice: refund R$29.90 (deposit " + sampleEVP + ")"},
			"withdrawals":            {"+55 (11) 98765-4321 (mobile phone)", "ana@loja.example (email)", sampleEVP + " (random key)"},
			"deposit " + sampleCPF:   {"Method PIX", "Acquirer PIX sandbox (test environment)", "Account type Checking account", "Type Individual"},
			"deposit " + samplePhone: {"Account type Payment account"},
			"settings":               {"Order: Payment confirmed", "Not sent: no notification URL or secret was configured.", "HTTP answer 500", "No answer"},
		},
	}
	for lang, pages := range want {
		samples := dashboardSamples(lang)
		for name, phrases := range pages {
			text := visibleText(render(t, samples[name]))
			for _, p := range phrases {
				if !strings.Contains(text, p) {
					t.Errorf("%s, %s: no %q in %s", lang, name, p, text)
				}
			}
		}
	}
	r := render(t, dashboardSamples(PtBR)["settings"])
	if got := r.doc.Find(`[data-testid="delivery-detail"]`).Map(func(_ int, s *goquery.Selection) string { return s.Text() }); strings.Join(got, "|") != "erro interno|dial tcp: i/o timeout" {
		t.Errorf("the answers' details: %q", got)
	}
}

// TestCatalogueNamesEveryCode: every value the gateway's spec and the store define has its
// words in the catalogue, so none reaches a page as it is spelled.
func TestCatalogueNamesEveryCode(t *testing.T) {
	t.Parallel()
	var keys []string
	for _, s := range gatewayclient.DepositStatuses() {
		keys = append(keys, "dstatus."+string(s))
	}
	for _, s := range gatewayclient.WithdrawalStatuses() {
		keys = append(keys, "wstatus."+string(s))
	}
	for _, k := range []gatewayclient.PixKeyType{gatewayclient.PixKeyCPF, gatewayclient.PixKeyCNPJ, gatewayclient.PixKeyEmail,
		gatewayclient.PixKeyPhone, gatewayclient.PixKeyEVP} {
		keys = append(keys, "pixkey."+string(k))
	}
	for _, c := range checkout.ReasonCodes() {
		keys = append(keys, "reason."+string(c))
	}
	for _, l := range Langs() {
		keys = append(keys, "langname."+string(l))
	}
	keys = append(keys, "origin."+string(gatewayclient.OriginQRCode), "origin."+string(gatewayclient.OriginPixKey),
		"holder."+string(gatewayclient.HolderPF), "holder."+string(gatewayclient.HolderPJ),
		"method."+string(gatewayclient.PaymentMethodPIX), "account.CHECKING", "account.SAVINGS", "account.PAYMENT")
	for _, k := range keys {
		if !HasKey(k) {
			t.Errorf("the catalogue has no %q", k)
		}
	}
}
