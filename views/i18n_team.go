package views

// teamMessages are the texts of the dashboard's team and access: roles, users, invitations,
// the own account, two-factor sign-in and the audit log.
var teamMessages = map[string][2]string{
	"forbidden.title": {"Acesso negado", "Access denied"},
	"forbidden.text":  {"O seu papel nesta loja não permite isso. Peça a quem é dono da loja, se precisar.", "Your role in this shop does not allow this. Ask an owner of the shop if you need it."},
	"dash.role":       {"Papel: %s", "Role: %s"},
	"role.owner":      {"Dono", "Owner"},
	"role.developer":  {"Desenvolvedor", "Developer"},
	"role.operator":   {"Operador", "Operator"},
	"role.viewer":     {"Leitor", "Viewer"},
}
