// Package brdoc validates and formats Brazilian identifiers: CPF, CNPJ (numeric and the
// alphanumeric form in force from July 2026), CEP, phone numbers, e-mail and PIX keys.
//
// It depends on the standard library only, and its validators do not allocate.
//
// # Rules
//
// Validators are strict about shape and lenient only where noted; the Normalize and Format
// functions are the lenient ones, so a form normalises user input first and validates second.
//
//   - CPF: 11 digits, bare ("52998224725") or in the canonical mask ("529.982.247-25"). The two
//     check digits are computed modulo 11 with weights 10..2 and 11..2; a remainder below 2
//     gives 0. Numbers whose digits are all equal ("111.111.111-11") are rejected even though
//     their check digits match.
//   - CNPJ: 14 characters, bare or masked ("12.ABC.345/01DE-35"). The first 12 are digits or
//     letters A-Z (the alphanumeric CNPJ of Receita Federal, in force from July 2026; lower
//     case is accepted and read as upper case); the last 2 are check digits. Each character is
//     worth its ASCII code minus 48 ("0" = 0, "A" = 17), weights 2..9 repeat from the right,
//     and the check digit is 11 minus the remainder modulo 11, or 0 when the remainder is below
//     2. The same rule validates the classic all-numeric CNPJ. All-equal values are rejected.
//   - CEP: exactly 8 digits, bare ("01310100") or masked ("01310-100"), not all zeros.
//   - Phones: an area code (DDD) from ANATEL's list of 67 codes, then a mobile number (9 and 8
//     more digits) or a landline number (8 digits, the first from 2 to 5). The country code 55
//     is optional ("+55" or "55"); spaces, dots, dashes and parentheses are ignored, so
//     "(11) 98765-4321", "+55 11 98765-4321" and "11987654321" are all the same mobile.
//     Carrier selection codes and a trunk prefix 0 are not accepted.
//   - E-mail: a practical subset of RFC 5322: local@domain, at most 254 characters, a local part
//     of at most 64 characters made of RFC 5322 atoms separated by single dots, a domain of at
//     least two dot-separated labels of letters, digits and inner hyphens (1 to 63 characters
//     each), and a top-level domain of at least 2 letters (or an IDN "xn--" label). Quoted
//     local parts, comments, IP-literal domains and non-ASCII characters are rejected.
//   - PIX keys (the five kinds of the Central Bank's DICT): CPF and CNPJ as above (masked or
//     not); PHONE in E.164 as DICT stores it, "+55" followed by DDD and a mobile number, with no
//     separators; EMAIL a valid e-mail of at most 77 characters; EVP (random key) a UUID in its
//     canonical 36-character form, lower or upper case hex. Because DICT phone keys always
//     carry "+55", eleven bare digits are a CPF, never a phone.
//   - UUID v4: canonical 8-4-4-4-12 hex, version nibble 4, variant 8, 9, a or b.
//
// # Masks
//
// MaskDocument, MaskPhone and MaskPixKey write a document, a phone and a PIX key for those who
// need not see them whole: "***.982.247-**", "12.345.***/****-95", "(11) *****-4321". A value
// already masked stays as it is, and what is not of the kind becomes "***", so a masked value
// never holds the whole number.
package brdoc
