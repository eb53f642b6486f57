package brcode_test

import (
	"errors"
	"fmt"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

func ExamplePayload_Encode() {
	p := brcode.Payload{
		Key:          "123e4567-e12b-12d1-a456-426655440000",
		Amount:       1050, // R$ 10,50
		MerchantName: "Fulano de Tal",
		MerchantCity: brcode.Sanitize("Brasília", brcode.MaxCityLength),
		TxID:         "PEDIDO42",
	}
	code, err := p.Encode()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(code)
	// Output:
	// 00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540510.505802BR5913Fulano de Tal6008Brasilia62120508PEDIDO4263043E0E
}

func ExampleDecode() {
	p, err := brcode.Decode("00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Dynamic(), p.URL)
	fmt.Println(p.MerchantName, p.MerchantCity, p.TxID)

	_, err = brcode.Decode("00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3E")
	fmt.Println(errors.Is(err, brcode.ErrCRC), err)
	// Output:
	// true pix.example.com/8b3da2f39a4140d1a91abd93113bd441
	// Fulano de Tal BRASILIA ***
	// true brcode: field 63 (CRC16): the payload says 1D3E, its content gives 1D3D
}

func ExampleSanitize() {
	fmt.Println(brcode.Sanitize("Padaria São João  Ltda.", brcode.MaxNameLength))
	fmt.Println(brcode.Sanitize("Presidente Prudente", brcode.MaxCityLength))
	// Output:
	// Padaria Sao Joao Ltda.
	// Presidente Prud
}
