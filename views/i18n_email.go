package views

// emailMessages are the texts of the e-mails (views/email) and of the dashboard's e-mail log.
var emailMessages = map[string][2]string{
	"email.reply_reaches": {"Responda a este e-mail para falar com %s.", "Reply to this e-mail to reach %s."},
	"email.test.subject":  {"E-mail de teste de %s", "Test e-mail from %s"},
	"email.test.heading":  {"Tudo certo com o envio de e-mails", "E-mail sending works"},
	"email.test.body":     {"Este é um e-mail de teste do painel de %s. Se chegou, os recibos e avisos também chegam.", "This is a test e-mail from the %s dashboard. If it arrived, receipts and notices will arrive too."},
}

// mailLogMessages are the texts of the dashboard's e-mail log.
var mailLogMessages = map[string][2]string{
	"dash.mail":                      {"E-mails", "E-mails"},
	"mail.title":                     {"E-mails", "E-mails"},
	"mail.heading":                   {"E-mails enviados", "E-mails sent"},
	"mail.no_server":                 {"Nenhum servidor SMTP configurado: as mensagens são feitas e guardadas aqui, sem envio. Defina CHECKOUT_SMTP_URL e CHECKOUT_MAIL_FROM para enviá-las.", "No SMTP server is configured: messages are made and kept here, not sent. Set CHECKOUT_SMTP_URL and CHECKOUT_MAIL_FROM to send them."},
	"mail.not_sent_no_server":        {"não enviado: nenhum servidor SMTP configurado", "not sent: no SMTP server configured"},
	"mail.test":                      {"Enviar um e-mail de teste", "Send a test e-mail"},
	"mail.test_to":                   {"O e-mail de teste vai para %s.", "The test e-mail goes to %s."},
	"mail.test_sent":                 {"E-mail de teste na fila. Ele aparece abaixo.", "Test e-mail queued. It shows below."},
	"mail.state":                     {"Situação", "State"},
	"mail_state.queued":              {"Na fila", "Queued"},
	"mail_state.sent":                {"Enviado", "Sent"},
	"mail_state.failed":              {"Falhou", "Failed"},
	"mail_state.notsent":             {"Não enviado", "Not sent"},
	"mail.to":                        {"Destinatário", "Recipient"},
	"mail.subject":                   {"Assunto", "Subject"},
	"mail.when":                      {"Feito em", "Made at"},
	"mail.attempts":                  {"Tentativas", "Attempts"},
	"mail.empty":                     {"Nenhuma mensagem.", "No messages."},
	"mail.newer":                     {"Mais recentes", "Newer"},
	"mail.older":                     {"Mais antigas", "Older"},
	"mail.back":                      {"Voltar aos e-mails", "Back to the e-mails"},
	"mail.resend":                    {"Enviar de novo", "Send again"},
	"mail.resent":                    {"A mensagem volta para a fila, com o mesmo Message-ID.", "The message is queued again, with the same Message-ID."},
	"mail.text":                      {"Texto", "Text"},
	"mail.html":                      {"Ver a versão HTML", "View the HTML version"},
	"mail.secret_link":               {"Esta mensagem leva um link de redefinição de senha válido: ninguém além do destinatário o vê aqui.", "This message carries a live password-reset link: no one but its recipient sees it here."},
	"mail.masked":                    {"O conteúdo tem dados pessoais: só quem tem acesso a dados pessoais o vê.", "The content holds personal data: only users with access to personal data see it."},
	"mail.suppressed":                {"Endereços bloqueados", "Suppressed addresses"},
	"mail.suppressed_intro":          {"O servidor recusou estes endereços de vez (5xx): nada mais é enviado a eles até que alguém os libere.", "The server refused these addresses for good (5xx): nothing more is sent to them until someone clears them."},
	"mail.suppressed_none":           {"Nenhum endereço bloqueado.", "No suppressed address."},
	"mail.clear":                     {"Liberar", "Clear"},
	"mail.clear_of":                  {"Liberar %s", "Clear %s"},
	"mail.cleared":                   {"Endereço liberado.", "Address cleared."},
	"audit_action.mail.resent":       {"Reenviou um e-mail", "Resent an e-mail"},
	"audit_action.mail.test":         {"Enviou um e-mail de teste", "Sent a test e-mail"},
	"audit_action.mail.unsuppressed": {"Liberou um endereço de e-mail", "Cleared an e-mail address"},
}
