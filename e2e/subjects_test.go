package e2e

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// TestDataSubjectRequestPage: an owner answers a person's request under "Dados pessoais": a
// wrong CPF is refused beside the field; the CPF finds the person's two orders; the JSON
// export downloads and parses, the printable page shows them; anonymising without the
// confirmation says so beside it; with it, the paid order is anonymised and the order awaiting
// payment is refused in words. Every state accessible, and the page fits a phone.
func TestDataSubjectRequestPage(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{AcceptDownloads: playwright.Bool(true)})
	a.addMerchant(t)
	paid := a.placeOrder(t, true)
	awaiting := a.placeOrder(t, false)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard/personal-data")
	s.check(s.expect.Locator(s.page.Locator("h1")).ToHaveText("Pedidos de titulares de dados"), "the page's heading")
	s.a11y(s.page, "personal data")
	subject := d.testID("subjects-form").Locator(`[name="subject"]`)
	search := func(v string) {
		t.Helper()
		s.check(subject.Fill(v), "type the subject")
		_, err := s.page.ExpectNavigation(func() error { return d.testID("subjects-search").Click() })
		s.check(err, "search")
	}
	search("123.456.789-00")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="field-error"][data-field="subject"]`)).ToBeVisible(), "the error beside the field")
	s.check(s.expect.Locator(subject).ToHaveAttribute("aria-invalid", "true"), "the field marked invalid")
	s.a11y(s.page, "personal data with an error")

	search("529.982.247-25")
	s.check(s.expect.Locator(d.testID("subjects-order")).ToHaveCount(2), "the person's two orders")
	s.check(s.expect.Locator(d.testID("subjects-report")).ToContainText("Maria da Silva"), "the data held")
	s.a11y(s.page, "personal data found")
	s.shot("personal-data")

	dl, err := s.page.ExpectDownload(func() error { return d.testID("subjects-export-json").Click() })
	s.check(err, "download the JSON")
	path, err := dl.Path()
	s.check(err, "the JSON's path")
	b, err := os.ReadFile(path)
	s.check(err, "read the JSON")
	var rep apijson.SubjectReport
	if err := json.Unmarshal(b, &rep); err != nil || len(rep.Orders) != 2 || rep.Subject != "***.982.247-**" {
		t.Errorf("the JSON export: %v %s", err, b)
	}

	_, err = s.page.ExpectNavigation(func() error { return d.testID("subjects-export-html").Click() })
	s.check(err, "open the printable page")
	s.check(s.expect.Locator(s.page.Locator("h1")).ToHaveText(regexp.MustCompile(`\*\*\*\.982\.247-\*\*`)), "the printable page's heading")
	s.check(s.expect.Locator(d.testID("subjects-order")).ToHaveCount(2), "the orders on the printable page")
	s.a11y(s.page, "personal data printable")
	s.open(a.url + "/dashboard/personal-data")

	anonymise := func() {
		t.Helper()
		_, err := s.page.ExpectNavigation(func() error { return d.testID("subjects-anonymise").Click() })
		s.check(err, "anonymise")
	}
	search("529.982.247-25")
	anonymise()
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="field-error"][data-field="confirm"]`)).ToBeVisible(), "the confirmation asked for")
	s.a11y(s.page, "personal data without the confirmation")
	s.check(s.page.Locator("#s-confirm").Check(), "tick the confirmation")
	anonymise()
	s.check(s.expect.Locator(d.testID("subjects-notice")).ToContainText("1 pedido(s) e cobrança(s) anonimizado(s)"), "what was done")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="subjects-refused"][data-id="`+awaiting.ID+`"]`)).ToContainText("aguarda pagamento"),
		"the order awaiting payment refused in words")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="subjects-order"][data-id="`+paid.ID+`"]`)).ToHaveAttribute("data-anonymised", "true"),
		"the paid order anonymised")
	s.check(s.expect.Locator(s.page.Locator(`[data-testid="subjects-order"][data-id="`+paid.ID+`"]`)).Not().ToContainText("Maria"),
		"without its name")
	s.a11y(s.page, "personal data anonymised")
	s.shot("personal-data-anonymised")

	s.check(s.page.SetViewportSize(390, 844), "390 px")
	search("maria@example.com.br")
	s.check(s.expect.Locator(d.testID("subjects-order")).ToHaveCount(2), "the e-mail finds both, the anonymised one too")
	s.noHorizontalScroll(s.page, "personal data")
	s.a11y(s.page, "personal data at 390 px")
}
