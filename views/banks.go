package views

// banks names, by ISPB (the Central Bank's 8-digit code of a payment institution), the
// institutions that hold most PIX accounts, as the Central Bank's list of PIX participants
// names them: pages show the name beside the code. An ISPB not here shows its code alone.
var banks = map[string]string{
	"00000000": "Banco do Brasil",
	"00360305": "Caixa Econômica Federal",
	"60746948": "Bradesco",
	"60701190": "Itaú Unibanco",
	"90400888": "Santander",
	"18236120": "Nubank",
	"00416968": "Banco Inter",
	"30306294": "BTG Pactual",
	"10573521": "Mercado Pago",
	"22896431": "PicPay",
	"08561701": "PagBank",
	"31872495": "C6 Bank",
	"92702067": "Banrisul",
	"01181521": "Sicredi",
	"02038232": "Sicoob",
}

// BankText is an ISPB as pages show it: the institution's name and its code ("Nubank
// (18236120)"), or the code alone when the name is not known.
func BankText(ispb string) string {
	if name, ok := banks[ispb]; ok {
		return name + " (" + ispb + ")"
	}
	return ispb
}
