package views

// chargeReminderMessages are the texts of a charge's e-mail reminders (checkout/mail/chargemail)
// and of their schedule on the settings page; the amounts' lines are the customer's page's
// (charge.*).
var chargeReminderMessages = map[string][2]string{
	"email.charge.subject.issued":  {"Cobrança de %s: %s, vence em %s", "Charge from %s: %s, due %s"},
	"email.charge.subject.before":  {"Lembrete: cobrança de %s vence em %s", "Reminder: charge from %s due %s"},
	"email.charge.subject.due":     {"Vence hoje: cobrança de %s, %s", "Due today: charge from %s, %s"},
	"email.charge.subject.overdue": {"Cobrança de %s vencida em %s", "Charge from %s overdue since %s"},
	"email.charge.heading.issued":  {"Você recebeu uma cobrança", "You have a new charge"},
	"email.charge.heading.before":  {"Sua cobrança vence em breve", "Your charge is due soon"},
	"email.charge.heading.due":     {"Sua cobrança vence hoje", "Your charge is due today"},
	"email.charge.heading.overdue": {"Sua cobrança está vencida", "Your charge is overdue"},
	"email.charge.body":            {"%s enviou uma cobrança: %s.", "%s sent you a charge: %s."},
	"email.charge.due_date":        {"Vencimento", "Due date"},
	"email.charge.total_on":        {"Total a pagar em %s", "Total due on %s"},
	"email.charge.discount_terms": {"Pagando até %s, o desconto é de %s.",
		"Paying by %s, the discount is %s."},
	"email.charge.late_terms": {"Depois do vencimento, há multa de %s e juros simples de %s ao mês, por dia de atraso.",
		"After the due date, there is a fine of %s and simple interest of %s a month, by day late."},
	"email.charge.fine_terms":     {"Depois do vencimento, há multa de %s.", "After the due date, there is a fine of %s."},
	"email.charge.interest_terms": {"Depois do vencimento, há juros simples de %s ao mês, por dia de atraso.", "After the due date, there is simple interest of %s a month, by day late."},
	"email.charge.page_hint": {"A página da cobrança mostra o valor do dia em que você pagar (e o que já foi pago); o código Pix dela vale até o fim desse dia.",
		"The charge's page shows the amount of the day you pay (and what was paid already); its PIX code is valid until the end of that day."},
	"email.charge.pay_link": {"Ver a cobrança e pagar com Pix", "See the charge and pay with PIX"},

	"settings.reminders":             {"Lembretes de cobranças por e-mail", "E-mail reminders of charges"},
	"settings.reminders_intro":       {"Cada cobrança criada a partir de agora recebe estes lembretes, às 9h (horário de Brasília) de cada dia, com o link da cobrança. Nenhum é enviado depois que a cobrança é paga ou cancelada.", "Each charge made from now on gets these reminders, at 9:00 (Brasília time) of each day, with the charge's link. None is sent once the charge is paid or canceled."},
	"settings.reminders_issued":      {"Ao emitir a cobrança", "When the charge is issued"},
	"settings.reminders_due":         {"No dia do vencimento", "On the due date"},
	"settings.reminders_before":      {"Dias antes do vencimento", "Days before the due date"},
	"settings.reminders_before_hint": {"Separados por vírgula, por exemplo 3 ou 7, 3. Vazio: nenhum.", "Separated by commas, e.g. 3 or 7, 3. Empty: none."},
	"settings.reminders_after":       {"Dias depois do vencimento (em atraso)", "Days after the due date (overdue)"},
	"settings.reminders_after_hint":  {"Separados por vírgula, por exemplo 1, 3, 7. Vazio: nenhum.", "Separated by commas, e.g. 1, 3, 7. Empty: none."},
	"settings.reminders_lang":        {"Idioma dos lembretes", "Language of the reminders"},
	"settings.reminders_err_format":  {"Use números inteiros de dias separados por vírgula, como 1, 3, 7.", "Use whole numbers of days separated by commas, like 1, 3, 7."},
	"settings.reminders_err_range":   {"Cada dia deve estar entre 1 e 60.", "Each day must be between 1 and 60."},
	"settings.reminders_err_many":    {"No máximo 5 dias.", "At most 5 days."},
	"settings.reminders_err_twice":   {"Um dia aparece duas vezes.", "A day is given twice."},
	"settings.reminders_saved":       {"Lembretes de cobranças salvos.", "Charge reminders saved."},
	"mail.not_sent_charge_final":     {"não enviado: a cobrança já estava paga ou cancelada", "not sent: the charge was already paid or canceled"},
}
