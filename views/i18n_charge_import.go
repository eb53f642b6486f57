package views

import "strings"

// chargeImportMessages are the texts of the import of charges from a spreadsheet
// (/dashboard/charges/import) and of the charges' export.
var chargeImportMessages = map[string][2]string{
	"charges.import":        {"Importar planilha", "Import a spreadsheet"},
	"import.title":          {"Importar cobranças", "Import charges"},
	"import.heading":        {"Importar cobranças de uma planilha", "Import charges from a spreadsheet"},
	"import.upload_heading": {"Escolha a planilha", "Choose the spreadsheet"},
	"import.file":           {"Arquivo .csv ou .xlsx", ".csv or .xlsx file"},
	"import.file_hint": {"Até %d MB e %s linhas. CSV com vírgula ou ponto e vírgula (como o Excel salva), ou uma pasta de trabalho .xlsx (a primeira planilha). Nada é criado antes da sua confirmação.",
		"Up to %d MB and %s lines. CSV with commas or semicolons (as Excel saves it), or an .xlsx workbook (its first sheet). Nothing is created before you confirm."},
	"import.check":           {"Verificar planilha", "Check the spreadsheet"},
	"import.confirm_heading": {"Criar %s cobranças", "Create %s charges"},
	"import.confirm_hint": {"Escolha de novo o mesmo arquivo (%s) para confirmar: o servidor não guarda a planilha, e só cria as cobranças se o arquivo for o mesmo verificado.",
		"Choose the same file (%s) again to confirm: the server does not keep the spreadsheet, and creates the charges only if the file is the one checked."},
	"import.confirm":            {"Criar %s cobranças", "Create %s charges"},
	"import.changed":            {"Este arquivo não é o que foi verificado: nada foi criado. Confira o relatório dele abaixo e confirme de novo.", "This file is not the one checked: nothing was created. Check its report below and confirm again."},
	"import.report_heading":     {"Relatório de %s", "Report on %s"},
	"import.report_caption":     {"Linhas da planilha", "The spreadsheet's lines"},
	"import.counts":             {"%s linhas prontas para criar, %s já importadas, %s com erros.", "%s lines ready to create, %s imported already, %s with errors."},
	"import.ignored":            {"Colunas ignoradas: %s.", "Columns ignored: %s."},
	"import.more_valid":         {"E mais %s linhas válidas.", "And %s more valid lines."},
	"import.state_valid":        {"Pronta", "Ready"},
	"import.state_done":         {"Já importada", "Imported already"},
	"import.state_invalid":      {"Com erros", "Has errors"},
	"import.col.line":           {"Linha", "Line"},
	"import.col.field":          {"Coluna", "Column"},
	"import.col.headers":        {"Títulos aceitos", "Accepted headers"},
	"import.col.customer.phone": {"Celular", "Mobile phone"},
	"import.col.externalCode":   {"Código externo", "External code"},
	"import.columns_heading":    {"Colunas", "Columns"},
	"import.columns_intro": {"A primeira linha dá o título de cada coluna, em português ou inglês; celular e código externo são opcionais. Valores como 1.234,56 ou 1234.56; vencimentos como 31/12/2026 ou 2026-12-31. O código externo (ou, sem ele, a linha inteira) identifica a cobrança: importar a mesma planilha de novo não cria nada duas vezes.",
		"The first line gives each column's header, in Portuguese or English; mobile phone and external code are optional. Amounts such as 1.234,56 or 1234.56; due dates such as 31/12/2026 or 2026-12-31. The external code (or, without one, the whole line) identifies the charge: importing the same spreadsheet again creates nothing twice."},
	"import.result_heading":  {"Importação concluída", "Import done"},
	"import.result":          {"%s cobranças criadas, %s já existiam, %s recusadas.", "%s charges created, %s existed already, %s refused."},
	"import.refused_caption": {"Linhas recusadas", "Lines refused"},
	"import.to_list":         {"Ver as cobranças", "See the charges"},

	"import.err.no_file":          {"Escolha um arquivo .csv ou .xlsx.", "Choose a .csv or .xlsx file."},
	"import.err.too_large":        {"O arquivo passa de %d MB (ou a pasta de trabalho descompactada passa do limite). Divida-o em arquivos menores.", "The file is over %d MB (or the workbook unzipped is over the limit). Split it into smaller files."},
	"import.err.too_many_lines":   {"O arquivo tem mais de %s linhas. Divida-o em arquivos menores.", "The file has more than %s lines. Split it into smaller files."},
	"import.err.empty":            {"O arquivo não tem linhas de cobranças depois dos títulos.", "The file has no lines of charges after its headers."},
	"import.err.columns":          {"Faltam colunas: %s.", "Columns missing: %s."},
	"import.err.repeated_columns": {"Colunas repetidas: %s.", "Columns repeated: %s."},
	"import.err.format":           {"O arquivo não é um CSV nem uma pasta de trabalho .xlsx legível.", "The file is neither a CSV nor a readable .xlsx workbook."},
	"import.err.format_line":      {"O CSV não pode ser lido na linha %d (aspas sem fechar?).", "The CSV cannot be read at line %d (an unclosed quote?)."},
	"import.err.repeated":         {"Repete a linha %d.", "Repeats line %d."},
	"import.err.imported_other":   {"Este código externo já foi importado com outros dados.", "This external code was imported before with other values."},
	"import.err.due_format":       {"Informe uma data como 31/12/2026 ou 2026-12-31.", "Enter a date such as 31/12/2026 or 2026-12-31."},

	"export.kind.charges": {"Cobranças", "Charges"},
	"xlsx.dueDate":        {"Vencimento", "Due date"},
	"xlsx.balanceBRL":     {"A pagar hoje", "Due today"},
	"xlsx.description":    {"Descrição", "Description"},
	"xlsx.customerPhone":  {"Celular do cliente", "Customer's mobile phone"},
}

// joinComma lists names separated by commas.
func joinComma(names []string) string { return strings.Join(names, ", ") }
