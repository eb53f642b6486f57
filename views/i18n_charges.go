package views

// chargeMessages are the texts of charges with due dates ("cobranças").
var chargeMessages = map[string][2]string{
	"audit_action.charge.created":  {"Criou uma cobrança", "Created a charge"},
	"audit_action.charge.canceled": {"Cancelou uma cobrança", "Canceled a charge"},
	"audit_action.charge.paid":     {"Cobrança paga", "Charge paid"},
	"audit_action.charge.overdue":  {"Cobrança vencida", "Charge overdue"},
}
