package app

import (
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/web"
)

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.PublicURL != "" || c.DataDir != "./data" {
		t.Errorf("defaults: %+v", c)
	}
	if !c.Sandbox() || !c.WebhooksEnabled || c.ReconcileInterval != DefaultReconcileInterval {
		t.Errorf("sandbox defaults: %+v", c)
	}
}

func TestLoadEnvAndFlags(t *testing.T) {
	t.Parallel()
	env := envOf(map[string]string{
		"CHECKOUT_ADDR":                   "127.0.0.1:9000",
		"CHECKOUT_PUBLIC_URL":             "https://pay.example.com",
		"CHECKOUT_GATEWAY_URL":            "https://api.gateway.example.com/v1",
		"CHECKOUT_GATEWAY_CLIENT_ID":      "id",
		"CHECKOUT_GATEWAY_CLIENT_SECRET":  "secret",
		"CHECKOUT_GATEWAY_WEBHOOK_SECRET": "whsec_c2VjcmV0LWtleS1mb3ItdGVzdHM=",
		"CHECKOUT_FRAME_ANCESTORS":        "https://shop.example.com, https://b.example.com",
		"CHECKOUT_RECONCILE_INTERVAL":     "2s",
	})
	c, err := Load(env, []string{"-addr", ":9100", "-webhooks=false"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9100" {
		t.Errorf("flag must win over the environment: addr %q", c.Addr)
	}
	if c.Sandbox() || c.GatewayClientID != "id" || c.WebhooksEnabled || c.ReconcileInterval != 2*time.Second {
		t.Errorf("loaded: %+v", c)
	}
	if len(c.FrameAncestors) != 2 || c.FrameAncestors[1] != "https://b.example.com" {
		t.Errorf("frame ancestors: %q", c.FrameAncestors)
	}
}

func TestLoadErrorsNameTheVariable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"CHECKOUT_ADDR": "nonsense"}, nil, "CHECKOUT_ADDR"},
		// A value from a flag is reported by the flag's name.
		{nil, []string{"-addr", "localhost:99999"}, "-addr"},
		{nil, []string{"-public-url", "localhost:8080"}, "-public-url"},
		{map[string]string{"CHECKOUT_PUBLIC_URL": "https://ok.example.com"}, []string{"-public-url", "ftp://x"}, "-public-url"},
		{map[string]string{"CHECKOUT_ADMIN_EMAIL": "ana@loja.example"}, []string{"-admin-password", "password"}, "-admin-password"},
		{map[string]string{"CHECKOUT_PUBLIC_URL": "localhost:8080"}, nil, "CHECKOUT_PUBLIC_URL"},
		{map[string]string{"CHECKOUT_PUBLIC_URL": "https://x.example.com/shop?a=1"}, nil, "CHECKOUT_PUBLIC_URL"},
		{map[string]string{"CHECKOUT_GATEWAY_URL": "ftp://gw"}, nil, "CHECKOUT_GATEWAY_URL"},
		{map[string]string{"CHECKOUT_GATEWAY_URL": "https://gw.example.com"}, nil, "CHECKOUT_GATEWAY_CLIENT_ID"},
		{map[string]string{"CHECKOUT_GATEWAY_URL": "https://gw.example.com", "CHECKOUT_GATEWAY_CLIENT_ID": "a"}, nil, "CHECKOUT_GATEWAY_CLIENT_SECRET"},
		{map[string]string{"CHECKOUT_GATEWAY_WEBHOOK_SECRET": "whsec_***"}, nil, "CHECKOUT_GATEWAY_WEBHOOK_SECRET"},
		{map[string]string{"CHECKOUT_GATEWAY_WEBHOOK_SECRET": "c2VjcmV0 ***"}, nil, "CHECKOUT_GATEWAY_WEBHOOK_SECRET"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://a.example.com; script-src *"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "shop.example.com"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://a.example.com,'unsafe-inline'"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		// Browsers drop a CSP directive holding a non-ASCII source, which would leave the pages
		// framable by any site: an international domain must be written in its xn-- form.
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://lojá.example.com"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://*"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://shop.*.com"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_FRAME_ANCESTORS": "https://shop.example.com/checkout"}, nil, "CHECKOUT_FRAME_ANCESTORS"},
		{map[string]string{"CHECKOUT_DATABASE_URL": "postgres:///x?password=pw@"}, nil, "CHECKOUT_DATABASE_URL"},
		{map[string]string{"CHECKOUT_DATABASE_URL": "mysql://db"}, nil, "CHECKOUT_DATABASE_URL"},
		{map[string]string{"CHECKOUT_DATABASE_DIRECT_URL": "postgres://db/checkout"}, nil, "CHECKOUT_DATABASE_DIRECT_URL"},
		{map[string]string{"CHECKOUT_DATABASE_URL": "postgres://pgbouncer/checkout", "CHECKOUT_DATABASE_DIRECT_URL": "db:5432"}, nil, "CHECKOUT_DATABASE_DIRECT_URL"},
		{map[string]string{"CHECKOUT_RECONCILE_INTERVAL": "soon"}, nil, "CHECKOUT_RECONCILE_INTERVAL"},
		{map[string]string{"CHECKOUT_WEBHOOKS": "maybe"}, nil, "CHECKOUT_WEBHOOKS"},
		{nil, []string{"-webhooks=maybe"}, "-webhooks"},
		{map[string]string{"CHECKOUT_DATA_DIR": " "}, nil, "CHECKOUT_DATA_DIR"},
		{map[string]string{"CHECKOUT_NEW_CART_LIMIT": "lots"}, nil, "CHECKOUT_NEW_CART_LIMIT"},
		{map[string]string{"CHECKOUT_RETENTION_CARTS": "10m"}, nil, "CHECKOUT_RETENTION_CARTS"},
		{map[string]string{"CHECKOUT_RETENTION_WEBHOOK_IDS": "soon"}, nil, "CHECKOUT_RETENTION_WEBHOOK_IDS"},
		{map[string]string{"CHECKOUT_CEP_LOOKUP": "https://cep.example.com/lookup"}, nil, "CHECKOUT_CEP_LOOKUP"},
		{map[string]string{"CHECKOUT_CEP_LOOKUP": "ftp://cep.example.com/{cep}"}, nil, "CHECKOUT_CEP_LOOKUP"},
		{map[string]string{"CHECKOUT_NEW_CART_LIMIT": "0/min"}, nil, "CHECKOUT_NEW_CART_LIMIT"},
		{map[string]string{"CHECKOUT_STREAMS_PER_CLIENT": "0"}, nil, "CHECKOUT_STREAMS_PER_CLIENT"},
		{map[string]string{"CHECKOUT_CONNS_PER_PEER": "many"}, nil, "CHECKOUT_CONNS_PER_PEER"},
		{map[string]string{"CHECKOUT_TRUSTED_PROXIES": "proxy.example.com"}, nil, "CHECKOUT_TRUSTED_PROXIES"},
		{map[string]string{"CHECKOUT_GATEWAY_START_TIMEOUT": "2m"}, nil, "CHECKOUT_GATEWAY_START_TIMEOUT"},
		{map[string]string{"CHECKOUT_GATEWAY_START_CHECK": "maybe"}, nil, "CHECKOUT_GATEWAY_START_CHECK"},
		{nil, []string{"-conns-per-peer=-1"}, "-conns-per-peer"},
		{map[string]string{"CHECKOUT_NEW_CART_LIMIT": "10/fortnight"}, nil, "CHECKOUT_NEW_CART_LIMIT"},
		{map[string]string{"CHECKOUT_MERCHANT_WEBHOOK_URL": "http://erp.example.com/hook"}, nil, "CHECKOUT_MERCHANT_WEBHOOK_URL"},
		{map[string]string{"CHECKOUT_MERCHANT_WEBHOOK_URL": "erp.example.com"}, nil, "CHECKOUT_MERCHANT_WEBHOOK_URL"},
		{map[string]string{"CHECKOUT_MERCHANT_WEBHOOK_SECRET": "whsec_!!"}, nil, "CHECKOUT_MERCHANT_WEBHOOK_SECRET"},
		{map[string]string{"CHECKOUT_ADMIN_PASSWORD": "12345678"}, nil, "CHECKOUT_ADMIN_PASSWORD"},
		{map[string]string{"CHECKOUT_SMTP_URL": "http://pw@:mail.example.com"}, nil, "CHECKOUT_SMTP_URL"},
		{map[string]string{"CHECKOUT_SMTP_URL": "smtp://user:pw@@/"}, nil, "CHECKOUT_SMTP_URL"},
		{map[string]string{"CHECKOUT_SMTP_URL": "smtp://user:pw@@mail.example.com:99999"}, nil, "CHECKOUT_SMTP_URL"},
		{map[string]string{"CHECKOUT_SMTP_URL": "smtp://user:pw%40@mail.example.com:587"}, nil, "CHECKOUT_MAIL_FROM"},
		{nil, []string{"-smtp-url", "smtps://user:pw@@mail.example.com/x"}, "-smtp-url"},
		{map[string]string{"CHECKOUT_MAIL_FROM": "Loja\r\nBcc: x@example.com <loja@example.com>"}, nil, "CHECKOUT_MAIL_FROM"},
		{map[string]string{"CHECKOUT_MAIL_FROM": "loja"}, nil, "CHECKOUT_MAIL_FROM"},
		{nil, []string{"-no-such-flag"}, "command line"},
		{nil, []string{"stray"}, "command line"},
	}
	for _, tc := range cases {
		_, err := Load(envOf(tc.env), tc.args)
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%v %v: want a *ConfigError, got %v", tc.env, tc.args, err)
			continue
		}
		if ce.Var != tc.want || !strings.HasPrefix(err.Error(), "config: "+tc.want+": ") {
			t.Errorf("%v %v: error %q does not name %s", tc.env, tc.args, err, tc.want)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error spans several lines: %q", err)
		}
		if strings.Contains(err.Error(), "pw@") {
			t.Errorf("error leaks the database password: %q", err)
		}
	}
}

func TestLoadPostgresURL(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(map[string]string{"CHECKOUT_DATABASE_URL": "postgres://checkout:pw@db.internal:5432/checkout"}), nil)
	if err != nil || c.DatabaseURL != "postgres://checkout:pw@db.internal:5432/checkout" {
		t.Errorf("postgres URL: %v %q", err, c.DatabaseURL)
	}
}

func TestLoadHelp(t *testing.T) {
	t.Parallel()
	if _, err := Load(envOf(nil), []string{"-h"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
	u := Usage(DefaultCommand)
	for _, s := range variables() {
		if !strings.Contains(u, "-"+s.flag) || !strings.Contains(u, s.env) {
			t.Errorf("usage misses %s", s.env)
		}
	}
}

// TestHelpShowsDefaults: checkout -h gives each setting that has a default with it.
func TestHelpShowsDefaults(t *testing.T) {
	t.Parallel()
	u := Usage(DefaultCommand)
	for _, want := range []string{"(default :8080)", "(default http:// and the address bound, such as http://localhost:8080)", "(default ./data)",
		"(default Loja Demo PIX)", "(default 5s)", "(default true)", "(default 60/min)", "(default 168h0m0s)", "(default 72h0m0s)"} {
		if !strings.Contains(u, want) {
			t.Errorf("usage lacks %q:\n%s", want, u)
		}
	}
}

func TestLoadNewCartLimit(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]ratelimit.Rate{
		"10/s":    {Requests: 10, Period: time.Second, Burst: 20},
		"120/min": {Requests: 120, Period: time.Minute, Burst: 240},
		"1000/h":  {Requests: 1000, Period: time.Hour, Burst: 2000},
		"3000/m":  {Requests: 3000, Period: time.Minute, Burst: 6000},
		"off":     {Off: true}, " OFF ": {Off: true},
	} {
		c, err := Load(envOf(map[string]string{"CHECKOUT_NEW_CART_LIMIT": v}), nil)
		if err != nil || c.NewCartLimit != want {
			t.Errorf("%q: %+v, %v; want %+v", v, c.NewCartLimit, err, want)
		}
	}
}

// TestLoadSandboxRateLimit: CHECKOUT_SANDBOX_RATE_LIMIT (and -sandbox-rate-limit) reach the
// embedded sandbox's limit; unset, the sandbox keeps its realistic default.
// The per-address caps of streams and connections: on by default, a number, or off.
func TestLoadPerAddressCaps(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil), nil)
	if err != nil || c.StreamsPerClient != web.DefaultMaxStreamsPerClient || c.ConnsPerPeer != web.DefaultConnsPerPeer {
		t.Fatalf("defaults: %d, %d, %v", c.StreamsPerClient, c.ConnsPerPeer, err)
	}
	c, err = Load(envOf(map[string]string{"CHECKOUT_STREAMS_PER_CLIENT": " off ", "CHECKOUT_CONNS_PER_PEER": "1000"}), nil)
	if err != nil || c.StreamsPerClient != 0 || c.ConnsPerPeer != 1000 {
		t.Fatalf("off and 1000: %d, %d, %v", c.StreamsPerClient, c.ConnsPerPeer, err)
	}
	c, err = Load(envOf(nil), []string{"-streams-per-client", "7", "-conns-per-peer", "OFF"})
	if err != nil || c.StreamsPerClient != 7 || c.ConnsPerPeer != 0 {
		t.Fatalf("flags: %d, %d, %v", c.StreamsPerClient, c.ConnsPerPeer, err)
	}
}

func TestLoadSandboxRateLimit(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil), nil)
	if err != nil || c.SandboxRateLimit != (sandbox.RateLimit{}) {
		t.Fatalf("unset: %+v, %v; want the zero value (the sandbox's default)", c.SandboxRateLimit, err)
	}
	for v, want := range map[string]sandbox.RateLimit{
		"50/s":           {Requests: 50, Period: time.Second, Burst: 100},
		"1000/s":         {Requests: 1000, Period: time.Second, Burst: 2000},
		"3000/m":         {Requests: 3000, Period: time.Minute, Burst: 6000},
		"50/s burst 200": {Requests: 50, Period: time.Second, Burst: 200},
		"off":            {Off: true},
		" OFF ":          {Off: true},
	} {
		c, err := Load(envOf(map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": v}), nil)
		if err != nil || c.SandboxRateLimit != want {
			t.Errorf("%q: %+v, %v; want %+v", v, c.SandboxRateLimit, err, want)
		}
	}
	c, err = Load(envOf(map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "1000/s"}), []string{"-sandbox-rate-limit", "off"})
	if err != nil || !c.SandboxRateLimit.Off {
		t.Errorf("the flag must win over the environment: %+v, %v", c.SandboxRateLimit, err)
	}
	if u := Usage(DefaultCommand); !strings.Contains(u, "-sandbox-rate-limit\tCHECKOUT_SANDBOX_RATE_LIMIT") || !strings.Contains(u, "(default 50/s)") {
		t.Errorf("usage lacks the sandbox rate limit and its default:\n%s", u)
	}
}

// TestLoadSandboxRateLimitErrors: a malformed limit, or one set beside a real gateway (where it
// would silently do nothing), stops the start with the variable named.
func TestLoadSandboxRateLimitErrors(t *testing.T) {
	t.Parallel()
	realGateway := map[string]string{
		"CHECKOUT_GATEWAY_URL":           "https://api.gateway.example.com/v1",
		"CHECKOUT_GATEWAY_CLIENT_ID":     "id",
		"CHECKOUT_GATEWAY_CLIENT_SECRET": "secret",
	}
	withLimit := func(v string) map[string]string {
		m := map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": v}
		for k, v := range realGateway {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		env  map[string]string
		args []string
		why  string // a word the message must hold
	}{
		{map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "lots"}, nil, "/period"},
		{map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "0/s"}, nil, "whole number"},
		{map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "50/fortnight"}, nil, "period"},
		{map[string]string{"CHECKOUT_SANDBOX_RATE_LIMIT": "50/s burst -1"}, nil, "burst"},
		{nil, []string{"-sandbox-rate-limit", "fast"}, "/period"},
		{withLimit("off"), nil, "embedded sandbox only"},
		{withLimit("50/s"), nil, "embedded sandbox only"},
		{realGateway, []string{"-sandbox-rate-limit", "1000/s"}, "embedded sandbox only"},
	}
	for _, tc := range cases {
		_, err := Load(envOf(tc.env), tc.args)
		name := "CHECKOUT_SANDBOX_RATE_LIMIT"
		if tc.args != nil {
			name = "-sandbox-rate-limit"
		}
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Var != name {
			t.Errorf("%v %v: want a *ConfigError naming %s, got %v", tc.env, tc.args, name, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v %v: message %q should say %q on one line", tc.env, tc.args, err, tc.why)
		}
	}
	if _, err := Load(envOf(realGateway), nil); err != nil {
		t.Errorf("a real gateway without the sandbox limit: %v", err)
	}
}

// TestPersonalDataRetention: a year by default; days or hours as typed; less than an hour, or
// not a duration, names the variable.
func TestPersonalDataRetention(t *testing.T) {
	t.Parallel()
	c, err := Load(envOf(nil), nil)
	if err != nil || c.PersonalDataRetention != 365*24*time.Hour {
		t.Fatalf("default: %v, %v", c.PersonalDataRetention, err)
	}
	for v, want := range map[string]time.Duration{"90d": 90 * 24 * time.Hour, "2160h": 90 * 24 * time.Hour} {
		c, err := Load(envOf(map[string]string{"CHECKOUT_RETENTION_PERSONAL_DATA": v}), nil)
		if err != nil || c.PersonalDataRetention != want {
			t.Errorf("%s: %v, %v", v, c.PersonalDataRetention, err)
		}
	}
	for _, v := range []string{"10m", "soon", "-3d", "0d"} {
		_, err := Load(envOf(map[string]string{"CHECKOUT_RETENTION_PERSONAL_DATA": v}), nil)
		if err == nil || !strings.Contains(err.Error(), "CHECKOUT_RETENTION_PERSONAL_DATA") {
			t.Errorf("%s: %v", v, err)
		}
	}
}

// TestGatewayWebhookSecretForms: the gateway's contract does not show how it signs, so its
// secret is taken as whsec_<base64> or the bare base64 (padded or not), several separated by
// spaces during a rotation.
func TestGatewayWebhookSecretForms(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"whsec_c2VjcmV0LWtleS1mb3ItdGVzdHM=", "c2VjcmV0LWtleS1mb3ItdGVzdHM=", "c2VjcmV0LWtleS1mb3ItdGVzdHM",
		"whsec_c2VjcmV0LWtleS1mb3ItdGVzdHM= c2VjcmV0LWtleS1vbGQ="} {
		if c, err := Load(envOf(map[string]string{"CHECKOUT_GATEWAY_WEBHOOK_SECRET": v}), nil); err != nil || c.GatewayWebhookSecret != v {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	_, err := Load(envOf(map[string]string{"CHECKOUT_GATEWAY_WEBHOOK_SECRET": "whsec_***"}), nil)
	if err == nil || !strings.Contains(err.Error(), "must be whsec_<base64> or base64, several separated by spaces") {
		t.Errorf("an undecodable secret: %v", err)
	}
}
