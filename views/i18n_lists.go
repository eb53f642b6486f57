package views

// listMessages are the texts of the dashboard's lists (filter bar, presets, sorts, rows) and of
// its compact header.
var listMessages = map[string][2]string{
	"bar.label":              {"Filtros da lista", "List filters"},
	"bar.filters":            {"Filtros", "Filters"},
	"bar.filters_n":          {"Filtros (%d)", "Filters (%d)"},
	"bar.presets":            {"Período", "Period"},
	"bar.preset.today":       {"Hoje", "Today"},
	"bar.preset.7d":          {"7 dias", "7 days"},
	"bar.preset.month":       {"Este mês", "This month"},
	"bar.preset.last_month":  {"Mês passado", "Last month"},
	"bar.min_amount":         {"Valor mínimo (R$)", "Minimum amount (R$)"},
	"bar.max_amount":         {"Valor máximo (R$)", "Maximum amount (R$)"},
	"bar.min_placeholder":    {"R$ mín.", "R$ min"},
	"bar.max_placeholder":    {"R$ máx.", "R$ max"},
	"bar.search_placeholder": {"Buscar pedido, cliente…", "Search order, customer…"},
	"bar.other_statuses":     {"Outras situações", "Other statuses"},
	"filter.identifiers":     {"Identificadores", "Identifiers"},
	"list.newest_first":      {"Mais recentes primeiro, como o gateway responde.", "Newest first, as the gateway answers."},
	"list.copy_id":           {"Copiar o id %s", "Copy the id %s"},
	"list.copy":              {"Copiar", "Copy"},
	"list.copied":            {"Id copiado.", "Id copied."},
	"orders.sort":            {"Ordenar por", "Sort by"},
	"sort.created_desc":      {"Mais recentes primeiro", "Newest first"},
	"sort.created_asc":       {"Mais antigos primeiro", "Oldest first"},
	"sort.amount_desc":       {"Maior valor primeiro", "Highest amount first"},
	"sort.amount_asc":        {"Menor valor primeiro", "Lowest amount first"},
	"sort.by_date":           {"Ordenar por data", "Sort by date"},
	"sort.by_amount":         {"Ordenar por valor", "Sort by amount"},
	"filter.err.sort":        {"Ordenar por: ordenação desconhecida. Escolha uma das opções.", "Sort by: unknown sort. Choose one of the options."},
	"dash.menu":              {"Menu", "Menu"},
}
