package views

// emailMessages are the texts of the e-mails (views/email) and of the dashboard's e-mail log.
var emailMessages = map[string][2]string{
	"email.reply_reaches": {"Responda a este e-mail para falar com %s.", "Reply to this e-mail to reach %s."},
	"email.test.subject":  {"E-mail de teste de %s", "Test e-mail from %s"},
	"email.test.heading":  {"Tudo certo com o envio de e-mails", "E-mail sending works"},
	"email.test.body":     {"Este é um e-mail de teste do painel de %s. Se chegou, os recibos e avisos também chegam.", "This is a test e-mail from the %s dashboard. If it arrived, receipts and notices will arrive too."},
}
