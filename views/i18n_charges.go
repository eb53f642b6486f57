package views

// chargeMessages are the texts of charges with due dates ("cobranças").
var chargeMessages = map[string][2]string{
	"audit_action.charge.created":  {"Criou uma cobrança", "Created a charge"},
	"audit_action.charge.canceled": {"Cancelou uma cobrança", "Canceled a charge"},
	"audit_action.charge.paid":     {"Cobrança paga", "Charge paid"},
	"audit_action.charge.overdue":  {"Cobrança vencida", "Charge overdue"},
	"event.charge_created":         {"Cobrança criada", "Charge created"},
	"event.charge_paid":            {"Cobrança paga", "Charge paid"},
	"event.charge_overdue":         {"Cobrança vencida", "Charge overdue"},
	"event.charge_canceled":        {"Cobrança cancelada", "Charge canceled"},

	"audit_action.subscription.created":  {"Criou uma assinatura", "Created a subscription"},
	"audit_action.subscription.paused":   {"Pausou uma assinatura", "Paused a subscription"},
	"audit_action.subscription.resumed":  {"Retomou uma assinatura", "Resumed a subscription"},
	"audit_action.subscription.canceled": {"Cancelou uma assinatura", "Canceled a subscription"},
	"audit_action.subscription.changed":  {"Mudou o valor de uma assinatura", "Changed a subscription's amount"},
}
