// Package decode reads the gateway API's requests on the server's side, as the gateway does:
// the body of POST /transaction ([CreateTransactionRequest]) and the queries of GET /deposit
// and GET /withdrawal ([DepositQuery], [WithdrawalQuery], or [Query] then [DepositFilter] and
// [WithdrawalFilter]). Servers that speak the API — the sandbox, the checkout's dashboard —
// use it so that they accept exactly what the gateway client sends, and apply the client's
// own validation to what they read.
//
// What cannot be read whole is refused rather than read in part: a key given twice in one
// object, a ";" or a bad %-escape in a query. Errors are *gatewayclient.ValidationError values
// that tell the API's two kinds of 422 apart: data that cannot be read as the API's types
// (KindInvalidData: every such violation at once) against rules that fail (KindValidation,
// the result of the request's or the filter's Validate).
package decode
