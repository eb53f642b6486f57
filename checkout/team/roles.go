package team

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Role is what a dashboard user may do: one of Roles. What each role may do is the one table
// Permissions; the dashboard checks it on every route, and shows nobody a control they may
// not use.
type Role string

// The roles, from the most powerful.
const (
	// RoleOwner may do everything, users and the audit log included. The last owner can be
	// neither removed nor demoted. Users of a version without roles became owners.
	RoleOwner Role = "owner"
	// RoleDeveloper integrates: API keys, notification settings and their delivery log, the
	// signing secret, the audit log; reads everything else; exports.
	RoleDeveloper Role = "developer"
	// RoleOperator runs the shop: orders and their actions, products, payment links; reads
	// deposits and withdrawals; exports.
	RoleOperator Role = "operator"
	// RoleViewer reads orders, deposits, withdrawals, products and payment links, and
	// exports; it changes nothing.
	RoleViewer Role = "viewer"
	// RoleCashier sells at the counter: the point of sale of the terminals it is given (every
	// terminal until an owner narrows them: checkout/pos) and its own sales of the day, and its
	// own account; nothing else of the dashboard.
	RoleCashier Role = "cashier"
)

// Roles lists every role, from the most powerful.
var Roles = []Role{RoleOwner, RoleDeveloper, RoleOperator, RoleViewer, RoleCashier}

// Permission names one thing a role may do in the dashboard.
type Permission string

// The permissions of the dashboard.
const (
	PermOrdersRead    Permission = "orders.read"    // the overview, the orders and each order
	PermOrdersWrite   Permission = "orders.write"   // an order's actions
	PermProductsRead  Permission = "products.read"  // the products and payment links
	PermProductsWrite Permission = "products.write" // create, change, (de)activate products and payment links
	PermGatewayRead   Permission = "gateway.read"   // the gateway's deposits and withdrawals
	PermExport        Permission = "export"         // the CSV exports
	PermKeys          Permission = "keys"           // create and revoke API keys, see their list
	PermSettings      Permission = "settings"       // notification settings, framing, the delivery log, test notifications
	PermSecret        Permission = "secret"         // reveal and rotate the notifications' signing secret
	PermUsers         Permission = "users"          // invite, change and remove users; the 2FA requirement
	PermAudit         Permission = "audit"          // read and export the audit log
	PermAccount       Permission = "account"        // one's own password, sessions and 2FA
	PermMail          Permission = "mail"           // the e-mail log: resend, send a test e-mail (bodies need PermPersonalData)
	PermChargesRead   Permission = "charges.read"   // the charges, each with its timeline
	PermChargesWrite  Permission = "charges.write"  // create and cancel charges
	PermStore         Permission = "store"          // the store's face shoppers see: name, payee, address, contact, logo, colours, texts
	PermPOS           Permission = "pos"            // the point of sale: charge at the counter on one's terminals, one's sales of the day
	// PermPersonalData: a shopper's personal data in full. Owners only. It answers data subjects'
	// requests (LGPD: find, export and anonymise everything held about a person), shows an
	// order's document and phones after a deliberate show (audited) and exports them unmasked;
	// without it they are masked.
	PermPersonalData Permission = "personal_data"
)

// Permissions is the permission table: what each role may do. Nothing else grants a
// permission.
var Permissions = map[Role][]Permission{
	RoleOwner: {PermOrdersRead, PermOrdersWrite, PermProductsRead, PermProductsWrite, PermGatewayRead, PermExport,
		PermKeys, PermSettings, PermSecret, PermUsers, PermAudit, PermAccount, PermPersonalData, PermMail, PermStore,
		PermChargesRead, PermChargesWrite, PermPOS},
	RoleDeveloper: {PermOrdersRead, PermProductsRead, PermGatewayRead, PermExport,
		PermKeys, PermSettings, PermSecret, PermAudit, PermAccount, PermMail, PermChargesRead},
	RoleOperator: {PermOrdersRead, PermOrdersWrite, PermProductsRead, PermProductsWrite, PermGatewayRead, PermExport,
		PermAccount, PermChargesRead, PermChargesWrite, PermPOS},
	RoleViewer:  {PermOrdersRead, PermProductsRead, PermGatewayRead, PermExport, PermAccount, PermChargesRead},
	RoleCashier: {PermPOS, PermAccount},
}

// Can reports whether the role has the permission. An unknown role has none.
func (r Role) Can(p Permission) bool { return slices.Contains(Permissions[r], p) }

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return slices.Contains(Roles, r) }

// FieldRole names the role in forms and ValidationError.
const FieldRole = "role"

// ParseRole reads a role as typed (case and spaces ignored); anything but one of Roles is a
// *checkout.ValidationError on FieldRole naming them.
func ParseRole(s string) (Role, error) {
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	if v := checkRole(r); v != nil {
		return "", fieldErrors(v)
	}
	return r, nil
}

// checkRole says why r is not one of Roles, or nil.
func checkRole(r Role) *gatewayclient.Violation {
	if r.Valid() {
		return nil
	}
	names := make([]string, len(Roles))
	for i, x := range Roles {
		names[i] = string(x)
	}
	code := gatewayclient.CodeFormat
	if r == "" {
		code = gatewayclient.CodeRequired
	}
	return &gatewayclient.Violation{Field: FieldRole, Code: code, Message: fmt.Sprintf("must be one of %s", strings.Join(names, ", "))}
}
