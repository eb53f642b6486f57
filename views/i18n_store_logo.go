package views

// storeLogoMessages are the texts of the store's logo: its part of the "Loja" page, and what
// shopper pages and e-mails say of it.
var storeLogoMessages = map[string][2]string{
	"store.logo":         {"Logo", "Logo"},
	"store.logo_current": {"O logo atual, como aparece no topo das páginas do comprador.", "The current logo, as it shows atop the shopper pages."},
	"store.logo_none":    {"Sem logo: as páginas mostram só o nome da loja.", "No logo: the pages show the store name only."},
	"store.logo_file":    {"Arquivo do logo", "Logo file"},
	"store.logo_hint":    {"PNG, JPEG ou WebP de até 5 MB. A loja o mostra inteiro, sem cortar, no topo das páginas, nos e-mails, nos cartazes e como ícone da aba; retira os metadados.", "PNG, JPEG or WebP of at most 5 MB. The store shows it whole, never cropped, atop the pages, in e-mails, on posters and as the tab's icon; its metadata is removed."},
	"store.logo_upload":  {"Enviar logo", "Upload logo"},
	"store.logo_remove":  {"Remover logo", "Remove logo"},
	"store.logo_missing": {"Escolha um arquivo de logo.", "Choose a logo file."},
	"store.logo_saved":   {"Logo salvo: as páginas do comprador já o mostram.", "Logo saved: the shopper pages show it now."},
	"store.logo_removed": {"Logo removido.", "Logo removed."},
	"layout.description": {"Loja %s: pague com PIX.", "%s store: pay with PIX."},
}
