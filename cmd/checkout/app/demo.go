package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The demo merchant page: in sandbox mode the app also listens on a second local port, a
// different origin (and, on 127.0.0.1 against the checkout's localhost, a different site), and
// serves there what a merchant's site would: its server creates a checkout session through the
// merchant API (over HTTP, with an API key made at each start for it alone), and its page
// mounts the session with embed.js and lists the events as they arrive. It is a working
// example of an integration, not part of the checkout: the checkout's own handlers, headers and
// cookies are never served on this port.

// DemoPath is the demo merchant page's path on its origin.
const DemoPath = "/demo/merchant"

//go:embed demo/merchant.html demo/merchant.js demo/merchant.css
var demoFiles embed.FS

var demoPage = template.Must(template.New("merchant.html").Funcs(template.FuncMap{
	// Amounts as the checkout's own pages write them in the page's language.
	"money": func(lang string, cents int64, qty int) string {
		return views.FormatMoney(views.Lang(lang), checkout.Cents(cents*int64(qty)))
	},
}).ParseFS(demoFiles, "demo/merchant.html"))

// demoTexts are the page's texts in one language.
type demoTexts struct {
	Title, Tag, Heading, Intro, Intro2, Lang, Failed, Again, Cart, Total, Reference, Pay, Events, EventsText,
	Continue, Server, ServerText, Check, ThanksPaid, ThanksNotYet, ThanksText, Status, Order string
}

var demoLangs = map[string]demoTexts{
	"pt-BR": {
		Title: "Loja parceira (demonstração)", Tag: "demonstração — sandbox", Heading: "Loja parceira",
		Intro:  "Esta página faz o papel do site de um lojista, em outra origem:",
		Intro2: "O servidor dela criou uma sessão de checkout pela API (POST /api/v1/checkout-sessions) e a página a exibe com embed.js.",
		Lang:   "Idioma", Failed: "Não foi possível criar a sessão", Again: "Começar outra compra",
		Cart: "Seu pedido", Total: "Total", Reference: "Referência do lojista:", Pay: "Pagamento",
		Events: "Eventos recebidos pela página", EventsText: "O que embed.js conta à página do lojista, na ordem em que chega.",
		Continue: "Continuar para a página de retorno", Server: "O que o servidor do lojista sabe",
		ServerText: "A entrega de um pedido segue a API ou a notificação assinada, nunca só um evento do navegador.",
		Check:      "Consultar a API", ThanksPaid: "Pagamento confirmado, obrigado!", ThanksNotYet: "O pagamento ainda não foi confirmado",
		ThanksText: "Esta página consultou a API no servidor antes de responder.", Status: "Situação", Order: "Pedido",
	},
	"en": {
		Title: "Partner shop (demo)", Tag: "demo — sandbox", Heading: "Partner shop",
		Intro:  "This page plays a merchant's site, on another origin:",
		Intro2: "Its server created a checkout session through the API (POST /api/v1/checkout-sessions) and the page shows it with embed.js.",
		Lang:   "Language", Failed: "The session could not be created", Again: "Start another purchase",
		Cart: "Your order", Total: "Total", Reference: "Merchant's reference:", Pay: "Payment",
		Events: "Events received by the page", EventsText: "What embed.js tells the merchant's page, in the order it arrives.",
		Continue: "Continue to the return page", Server: "What the merchant's server knows",
		ServerText: "Fulfil an order from the API or the signed notification, never from a browser event alone.",
		Check:      "Ask the API", ThanksPaid: "Payment confirmed, thank you!", ThanksNotYet: "The payment is not confirmed yet",
		ThanksText: "This page asked the API on the server before answering.", Status: "Status", Order: "Order",
	},
}

// demoView is the page's view model.
type demoView struct {
	Lang, Origin, EmbedJS, Error string
	T                            demoTexts
	Session                      apijson.CheckoutSession
	Thanks, Paid                 bool
}

// demoServer is the demo merchant's site: its pages and its "server side", which calls the
// checkout's API.
type demoServer struct {
	api    string // where the API is reached from this process (the checkout's loopback URL)
	public string // the checkout's public URL, where browsers load embed.js and sessions
	key    string // the demo's API key
	client *http.Client
	log    *slog.Logger
}

// newDemoKey makes the demo's API key: random at each start, accepted as an internal key.
func newDemoKey() apikeys.InternalKey {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return apikeys.InternalKey{ID: "key_demo", Name: "demo merchant page (sandbox)",
		Secret: apikeys.KeyPrefix + "demo_" + hex.EncodeToString(b[:])}
}

// handler is the demo origin's routes.
func (d *demoServer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, DemoPath, http.StatusSeeOther)
	})
	mux.HandleFunc("GET "+DemoPath, d.start)
	mux.HandleFunc("GET "+DemoPath+"/{id}", d.page)
	mux.HandleFunc("GET "+DemoPath+"/{id}/obrigado", d.thanks)
	mux.HandleFunc("GET "+DemoPath+"/{id}/server", d.serverView)
	for _, f := range []string{"merchant.js", "merchant.css"} {
		mux.HandleFunc("GET /demo/"+f, func(w http.ResponseWriter, r *http.Request) {
			b, _ := demoFiles.ReadFile("demo/" + f)
			ct := "text/css; charset=utf-8"
			if strings.HasSuffix(f, ".js") {
				ct = "text/javascript; charset=utf-8"
			}
			w.Header().Set("Content-Type", ct)
			w.Header().Set("Cache-Control", "no-cache")
			_, _ = w.Write(b)
		})
	}
	return d.headers(mux)
}

// headers: the demo page loads embed.js and frames sessions from the checkout's origin only.
func (d *demoServer) headers(next http.Handler) http.Handler {
	checkoutOrigin := d.public
	if u, err := url.Parse(d.public); err == nil {
		checkoutOrigin = u.Scheme + "://" + u.Host
	}
	csp := "default-src 'self'; script-src 'self' " + checkoutOrigin + "; frame-src " + checkoutOrigin +
		"; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

// demoLang is the page's language: ?lang=, else Accept-Language, else pt-BR.
func demoLang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l != "" {
		if _, ok := demoLangs[l]; ok {
			return l
		}
	}
	if al := strings.ToLower(r.Header.Get("Accept-Language")); strings.HasPrefix(al, "en") {
		return "en"
	}
	return "pt-BR"
}

// demoOrigin is the demo page's origin as the browser sees it.
func demoOrigin(r *http.Request) (string, error) {
	o := "http://" + r.Host
	if r.TLS != nil {
		o = "https://" + r.Host
	}
	if err := checkout.CheckOrigin(o); err != nil {
		return "", fmt.Errorf("the Host header does not make an origin: %w", err)
	}
	return o, nil
}

// start is GET /demo/merchant: the merchant's server creates a session through the API, and
// the browser goes to its page (so that reloading it does not make another).
func (d *demoServer) start(w http.ResponseWriter, r *http.Request) {
	lang := demoLang(r)
	origin, err := demoOrigin(r)
	if err != nil {
		d.render(w, r, http.StatusBadRequest, demoView{Lang: lang, Error: err.Error()})
		return
	}
	body := map[string]any{
		"items": []any{
			map[string]any{"productId": "ebook-receitas-do-cerrado", "quantity": 1},
			map[string]any{"title": "Clube de receitas — 1 mês", "description": "Uma receita nova por semana",
				"unitPrice": 990, "quantity": 1, "type": checkout.ItemDigital},
		},
		"externalCode":     "demo-" + checkout.NewID()[:10],
		"embedOrigin":      origin,
		"expiresInSeconds": 3600,
		"customer":         map[string]any{"name": "Maria da Silva", "email": "maria@example.com"},
		"metadata":         map[string]any{"origem": "demo"},
	}
	if u, err := url.Parse(origin); err == nil && (u.Scheme == "https" || settings.IsLoopbackHost(u.Hostname())) {
		body["successUrl"] = origin + DemoPath + "/{CHECKOUT_SESSION_ID}/obrigado?lang=" + lang
		body["cancelUrl"] = origin + DemoPath + "?lang=" + lang
	}
	var sess apijson.CheckoutSession
	status, err := d.call(r.Context(), http.MethodPost, "/checkout-sessions", body, &sess)
	if err != nil || status != http.StatusCreated {
		d.log.ErrorContext(r.Context(), "demo merchant: creating a session", "status", status, "err", err)
		d.render(w, r, http.StatusBadGateway, demoView{Lang: lang, Error: fmt.Sprintf("HTTP %d: %v", status, err)})
		return
	}
	http.Redirect(w, r, DemoPath+"/"+url.PathEscape(sess.ID)+"?lang="+lang, http.StatusSeeOther)
}

// session reads a session through the API.
func (d *demoServer) session(ctx context.Context, id string) (apijson.CheckoutSession, int, error) {
	var sess apijson.CheckoutSession
	status, err := d.call(ctx, http.MethodGet, "/checkout-sessions/"+url.PathEscape(id), nil, &sess)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("the API answered %d", status)
	}
	return sess, status, err
}

// page is GET /demo/merchant/{id}: the cart, the mounted session and the event log.
func (d *demoServer) page(w http.ResponseWriter, r *http.Request) {
	lang := demoLang(r)
	origin, _ := demoOrigin(r)
	sess, status, err := d.session(r.Context(), r.PathValue("id"))
	if err != nil {
		if status != http.StatusNotFound {
			status = http.StatusBadGateway
		}
		d.render(w, r, status, demoView{Lang: lang, Error: err.Error()})
		return
	}
	d.render(w, r, http.StatusOK, demoView{Lang: lang, Origin: origin, Session: sess,
		EmbedJS: strings.TrimRight(d.public, "/") + "/embed.js"})
}

// thanks is the session's successUrl: the merchant's server asks the API whether it was paid.
func (d *demoServer) thanks(w http.ResponseWriter, r *http.Request) {
	lang := demoLang(r)
	sess, status, err := d.session(r.Context(), r.PathValue("id"))
	if err != nil {
		if status != http.StatusNotFound {
			status = http.StatusBadGateway
		}
		d.render(w, r, status, demoView{Lang: lang, Error: err.Error()})
		return
	}
	paid := checkout.OrderStatus(sess.Status).WasPaid()
	d.render(w, r, http.StatusOK, demoView{Lang: lang, Session: sess, Thanks: true, Paid: paid})
}

// serverView is GET /demo/merchant/{id}/server: what the API says of the session and of the
// notifications of its order, as the merchant's server would read them.
func (d *demoServer) serverView(w http.ResponseWriter, r *http.Request) {
	out := map[string]any{}
	sess, _, err := d.session(r.Context(), r.PathValue("id"))
	if err != nil {
		out["error"] = err.Error()
	} else {
		out["session"] = map[string]any{"status": sess.Status, "orderId": sess.OrderID, "orderNumber": sess.OrderNumber,
			"depositId": sess.DepositID, "amountPaid": sess.AmountPaid, "paidAt": sess.PaidAt}
		if sess.OrderID != "" {
			var list web.NotificationList
			if _, err := d.call(r.Context(), http.MethodGet, "/notifications?orderId="+url.QueryEscape(sess.OrderID), nil, &list); err == nil {
				var ns []string
				for _, n := range list.Data {
					ns = append(ns, n.Type+" — "+n.Status)
				}
				out["notifications"] = ns
			}
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(out)
}

// call sends an API request with the demo's key and decodes a 2xx answer into out.
func (d *demoServer) call(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, d.api+web.APIPrefix+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+d.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := d.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return res.StatusCode, err
	}
	if res.StatusCode >= 300 {
		var e respond.ErrorBody
		if json.Unmarshal(b, &e) == nil && e.Error.Message != "" {
			return res.StatusCode, errors.New(e.Error.Message)
		}
		return res.StatusCode, fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return res.StatusCode, json.Unmarshal(b, out)
}

func (d *demoServer) render(w http.ResponseWriter, r *http.Request, status int, v demoView) {
	v.T = demoLangs[v.Lang]
	var buf bytes.Buffer
	if err := demoPage.Execute(&buf, v); err != nil {
		d.log.ErrorContext(r.Context(), "demo merchant: rendering", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// demoListen opens the demo's listener: CHECKOUT_DEMO_ADDR, or by default 127.0.0.1 and the
// port after the checkout's (any free port when that one is taken, or when the checkout's is
// 0). It returns nil without the embedded sandbox or with "off".
func demoListen(cfg Config, main net.Listener) (net.Listener, error) {
	if !cfg.Sandbox() || cfg.DemoAddr == "off" {
		return nil, nil
	}
	if cfg.DemoAddr != "" {
		ln, err := net.Listen("tcp", cfg.DemoAddr)
		if err != nil {
			return nil, &ConfigError{Var: "CHECKOUT_DEMO_ADDR", Msg: fmt.Sprintf("cannot listen on %s: %v", cfg.DemoAddr, err)}
		}
		return ln, nil
	}
	port := 0
	if tcp, ok := main.Addr().(*net.TCPAddr); ok && tcp.Port > 0 && tcp.Port < 65535 {
		if _, p, err := net.SplitHostPort(cfg.Addr); err == nil && p != "0" {
			port = tcp.Port + 1
		}
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil && port != 0 {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return nil, fmt.Errorf("app: the demo merchant page's listener: %w", err)
	}
	return ln, nil
}

// demoURL is the demo page's URL for the banner: on the host of the other site than the
// checkout's (127.0.0.1 against localhost and the reverse), so that the frame is cross-site.
func demoURL(ln net.Listener, publicURL string) string {
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return "http://" + ln.Addr().String() + DemoPath
	}
	host := "127.0.0.1"
	if tcp.IP != nil && !tcp.IP.IsUnspecified() && !tcp.IP.IsLoopback() {
		host = tcp.IP.String()
	} else if u, err := url.Parse(publicURL); err == nil && u.Hostname() == "127.0.0.1" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(tcp.Port)) + DemoPath
}

// demoServerTimeouts are the demo server's.
var demoServerTimeouts = struct{ header, read, write, idle time.Duration }{5 * time.Second, 30 * time.Second, 30 * time.Second, 60 * time.Second}
