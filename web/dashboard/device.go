package dashboard

import (
	"net/http"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// DeviceCookie is the name of the device cookie (team.Device): a browser that signed in to
// an account keeps signing in to it while strangers elsewhere are locked out of the account.
const DeviceCookie = "checkout_device"

// deviceLifetime is how long a device cookie is kept: a browser unused for that long is a
// stranger again.
const deviceLifetime = 180 * 24 * time.Hour

// devicePrefix starts the sealed content of a device cookie, so that no other sealed value of
// the checkout can be passed off as one.
const devicePrefix = "device:v1\n"

// deviceOf reads the request's device cookie: nil when there is none, or it does not open with
// the server's keys (made or changed by someone else), or no keys seal.
func (d *Dashboard) deviceOf(r *http.Request) *team.Device {
	c, err := r.Cookie(DeviceCookie)
	if err != nil || d.sealer == nil || len(c.Value) > 512 {
		return nil
	}
	plain, err := d.sealer.OpenString(c.Value)
	if err != nil {
		return nil
	}
	rest, ok := strings.CutPrefix(plain, devicePrefix)
	email, nonce, ok2 := strings.Cut(rest, "\n")
	if !ok || !ok2 || email == "" || nonce == "" {
		return nil
	}
	return &team.Device{Email: email, Nonce: nonce}
}

// leaveDevice sets a fresh device cookie for a successful sign-in of u (OWASP: a new one at
// every sign-in), sealed with the server's keys so that nobody can make one. Without keys
// there is none, and the account-wide lockout applies to every client.
func (d *Dashboard) leaveDevice(w http.ResponseWriter, u *team.User) {
	if d.sealer == nil {
		return
	}
	dev := team.NewDevice(u.Email)
	v, err := d.sealer.SealString(devicePrefix + dev.Email + "\n" + dev.Nonce)
	if err != nil {
		return // best effort: the sign-in stands without it
	}
	http.SetCookie(w, &http.Cookie{Name: DeviceCookie, Value: v, Path: Path, MaxAge: int(deviceLifetime / time.Second),
		HttpOnly: true, Secure: d.sessions.Cookie.Secure, SameSite: http.SameSiteLaxMode})
}
