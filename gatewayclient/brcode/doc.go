// Package brcode encodes and decodes PIX BR Codes ("copy and paste" EMV® QRCPS-MPM payloads as
// specified by the Banco Central do Brasil's Manual de Padrões para Iniciação do Pix).
//
// A BR Code is a flat string of TLV data objects: a two-digit ID, a two-digit length and the
// value, ending with field 63, the CRC16-CCITT-FALSE of everything before it written as four
// upper-case hexadecimal digits. PIX puts its account data in template 26 (GUI
// "br.gov.bcb.pix", then a static key or a dynamic location URL) and its transaction id in
// template 62, sub-field 05.
//
// # Field rules
//
// Encode and Decode apply the same rules, so that whatever Decode accepts Encode writes back:
//   - every value is printable ASCII (the EMV "ans" set) of 1 to 99 characters, so lengths count
//     bytes and characters alike; use [Sanitize] to make free text fit (see below);
//   - the whole payload is at most 512 characters;
//   - 00 is "01" and comes first; 01, when present, is "11" (static) or "12" (dynamic);
//   - 26/00 is "br.gov.bcb.pix" in any case; exactly one of the key 26/01 and the location URL
//     26/25 (without "https://"), each at most 77 characters;
//   - 52 is four digits, 53 is "986", 58 is "BR";
//   - 54, when present, is a positive amount of at most 9999999999.99 with a dot and at most two
//     decimals; Payload.Amount holds it as integer cents and no float is ever involved;
//   - 59, the merchant name, has 1 to 25 characters; 60, the city, 1 to 15;
//   - 62/05, the txid, is "***" (none) or 1 to 25 letters and digits; a dynamic code (with a
//     location URL) uses "***", its txid being known from the location.
//
// Decode also requires the fields the manual makes mandatory (00, 26, 52, 53, 58, 59, 60, 62
// with 05, and 63 last) and checks the CRC. Encode fills the fixed values (00, 52, 53, 58,
// the GUI and the "***" txid) when they are left empty.
//
// # Free text
//
// A merchant's name and city come as typed, in any script; a bank app shows the BR Code's.
// [Sanitize] keeps their sound in ASCII: accents are folded ("São Paulo" to "Sao Paulo"),
// other Latin letters and ligatures spelled out ("Straße" to "Strasse"), Cyrillic and Greek
// romanised letter by letter ("Кафе Москва" to "Kafe Moskva", "Ταβέρνα" to "Taverna"),
// typographic quotes and dashes written in ASCII. The rest is dropped: scripts that have no
// letter-by-letter romanisation (Chinese, Japanese, Korean, Arabic, Hebrew, Indic scripts...),
// symbols and emoji. The result is then cut to the field's length (25 characters for the
// name, 15 for the city), so a name written only in such scripts comes out empty, and the
// caller puts a name of its own in its place (the sandbox: "PIX CHECKOUT SANDBOX").
//
// # Round trips
//
// Decode keeps what it does not model (other top-level fields such as the 80-99 templates in
// Payload.Extra, other sub-fields of 26 and 62) and remembers the order of the fields and the
// exact writing of the amount ("10" rather than "10.00") when they differ from the canonical
// form, so that Encode of a decoded payload returns the original string; only a lower-case CRC
// comes back in upper case. A Payload built by hand is written in ascending ID order.
package brcode
