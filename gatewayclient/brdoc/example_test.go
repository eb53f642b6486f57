package brdoc_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

func ExampleValidCPF() {
	fmt.Println(brdoc.ValidCPF("529.982.247-25"))
	fmt.Println(brdoc.ValidCPF("52998224725"))
	fmt.Println(brdoc.ValidCPF("529.982.247-24"))                          // wrong check digit
	fmt.Println(brdoc.ValidCPF("111.111.111-11"))                          // all digits equal
	fmt.Println(brdoc.ValidCPF(" 529982247-25 "))                          // not a canonical form
	fmt.Println(brdoc.ValidCPF(brdoc.NormalizeDocument(" 529982247-25 "))) // normalise first
	// Output:
	// true
	// true
	// false
	// false
	// false
	// true
}

func ExampleValidCNPJ() {
	fmt.Println(brdoc.ValidCNPJ("11.222.333/0001-81"))
	fmt.Println(brdoc.ValidCNPJ("12ABC34501DE35"))     // alphanumeric, from July 2026
	fmt.Println(brdoc.ValidCNPJ("12.abc.345/01de-35")) // lower case is accepted
	fmt.Println(brdoc.ValidCNPJ("12ABC34501DE36"))
	// Output:
	// true
	// true
	// true
	// false
}

func ExampleCNPJCheckDigits() {
	dv, err := brdoc.CNPJCheckDigits("12ABC34501DE")
	fmt.Println(dv, err)
	// Output: 35 <nil>
}

func ExampleFormatCPF() {
	fmt.Println(brdoc.FormatCPF("52998224725"))
	fmt.Println(brdoc.FormatCPF("123"))
	// Output:
	// 529.982.247-25
	// 123
}

func ExampleFormatCNPJ() {
	fmt.Println(brdoc.FormatCNPJ("12abc34501de35"))
	// Output: 12.ABC.345/01DE-35
}

func ExampleClassifyDocument() {
	for _, s := range []string{"529.982.247-25", "11222333000181", "123"} {
		fmt.Println(brdoc.ClassifyDocument(s))
	}
	// Output:
	// CPF
	// CNPJ
	// invalid
}

func ExampleMaskDocument() {
	fmt.Println(brdoc.MaskDocument("123.456.789-09"))
	fmt.Println(brdoc.MaskDocument("12345678000195"))
	// Output:
	// ***.456.789-**
	// 12.345.***/****-95
}

func ExampleFormatCEP() {
	fmt.Println(brdoc.ValidCEP("01310100"), brdoc.FormatCEP("01310100"))
	// Output: true 01310-100
}

func ExampleNormalizePhone() {
	fmt.Println(brdoc.NormalizePhone("(11) 98765-4321"))
	fmt.Println(brdoc.FormatPhone("+55 11 3456-7890"))
	fmt.Printf("%q\n", brdoc.NormalizePhone("(20) 98765-4321")) // no such area code
	// Output:
	// +5511987654321
	// (11) 3456-7890
	// ""
}

func ExampleClassifyPixKey() {
	for _, key := range []string{
		"529.982.247-25",
		"12ABC34501DE35",
		"+5511987654321",
		"joao@example.com",
		"f47ac10b-58cc-4372-a567-0e02b2c3d479",
		"11987654321", // phone keys need +55; as a CPF its check digits fail
	} {
		t, ok := brdoc.ClassifyPixKey(key)
		fmt.Printf("%q %v\n", t, ok)
	}
	// Output:
	// "CPF" true
	// "CNPJ" true
	// "PHONE" true
	// "EMAIL" true
	// "EVP" true
	// "" false
}

func ExampleGenerateCPF() {
	r := rand.New(rand.NewPCG(1, 2))
	cpf := brdoc.GenerateCPF(r)
	cnpj := brdoc.GenerateCNPJ(r, true)
	fmt.Println(brdoc.ValidCPF(cpf), brdoc.ValidCNPJ(cnpj))
	// Output: true true
}
