// Live PIX page: countdown, copy button and payment status.
// Progressive enhancement of a page that already works without JavaScript (the server says until
// when the QR code is valid, and a <noscript> meta refresh reloads it) and that is the same at
// every moment of one state of the order. Everything it needs comes from data-* attributes of the
// element marked data-pix (follow.js, loaded first, follows the order):
//   data-expires-at            the QR code's expiry (ISO time)
//   data-events-url, data-status-url   the live status (follow.js; polled every 3 s): JSON
//                              {status, now, expiresAt?, redirect?, text?}
//   data-paid-url              where to go when the status becomes "paid" without a redirect
//   data-urgent-seconds        the countdown's last seconds, shown urgent (class "urgent" on [data-deadline])
//   data-text-*                localised texts (expired, paid, copied, copied-button, copy-manual)
// The countdown ticks on the shopper's clock corrected by the server's: every status message
// carries the server's time (now) and the QR code's expiry (expiresAt), so a wrong clock on the
// shopper's device neither shortens nor stretches it. On expiry every [data-pix-active] part
// (countdown, status, code, QR) is hidden and the one expired message (new-qr) shown, its title
// focused.
// The sandbox-pay form (sandbox mode only) is posted in the background, so that this same page
// turns to paid through its live status instead of reloading; its data-text-busy is announced
// in the meantime. Any failure falls back to the plain form submission.
(function () {
  "use strict";

  var POLL_MS = 3000;

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  // formatCountdown formats the time left: mm:ss, or h:mm:ss from one hour up. Partial seconds
  // round up, so "00:00" shows only once the time is over.
  function formatCountdown(ms) {
    var total = ms > 0 ? Math.ceil(ms / 1000) : 0;
    var h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(s) : pad(m) + ":" + pad(s);
  }

  function init(root) {
    var byId = function (id) { return root.querySelector('[data-testid="' + id + '"]'); };
    var countdown = byId("countdown");
    var status = byId("order-status");
    var code = byId("pix-code");
    var copy = byId("copy-code");
    var newQR = byId("new-qr");
    var active = root.querySelectorAll("[data-pix-active]");
    var feedback = root.querySelector("[data-copy-feedback]");
    var deadline = root.querySelector("[data-deadline]");
    var urgentMs = (parseInt(root.getAttribute("data-urgent-seconds"), 10) || 0) * 1000;
    var text = function (name) { return root.getAttribute("data-text-" + name) || ""; };

    var expiresAt = Date.parse(root.getAttribute("data-expires-at") || "");
    // The server's clock minus the shopper's, learnt from each status message.
    var skew = 0;
    var expiresIn = root.querySelector("[data-expires-in]");
    var timer = null, done = false, expired = false;
    // A page drawn while its QR code was being generated has none to show: once the status
    // moves on it is drawn again (the event stream says so with a redirect; polling does not).
    var drawnPending = !!status && status.getAttribute("data-status") === "pending";
    // A pending page is drawn again once the QR code is overdue: the server then says honestly
    // that it could not be made (and the order waits for the gateway).
    var reloadIn = parseInt(root.getAttribute("data-reload-in") || "", 10);
    if (drawnPending && reloadIn > 0) {
      setTimeout(function () { if (!done) { done = true; window.location.reload(); } }, reloadIn * 1000);
    }

    function setStatus(name, label) {
      if (!status) { return; }
      status.setAttribute("data-status", name);
      if (label) { status.textContent = label; }
    }

    function expire() {
      if (expired) { return; }
      expired = true;
      if (timer) { clearInterval(timer); timer = null; }
      if (countdown) { countdown.textContent = formatCountdown(0); }
      for (var i = 0; i < active.length; i++) { active[i].hidden = true; }
      setStatus("expired", text("expired"));
      if (newQR) {
        newQR.hidden = false;
        var title = newQR.querySelector("[data-expired-title]");
        if (title) { title.focus(); }
      }
      PixCheckout.announce("expired");
      // The stream stays open: a late payment still turns the order to paid.
    }

    function tick() {
      if (done || expired || isNaN(expiresAt)) { return; }
      var left = expiresAt - (Date.now() + skew);
      if (countdown) { countdown.textContent = formatCountdown(left); }
      if (deadline && urgentMs > 0) { deadline.classList.toggle("urgent", left <= urgentMs); }
      if (left <= 0) { expire(); }
    }

    function go(url) {
      var target = url && PixCheckout.sameOrigin(url);
      if (target) { window.location.assign(target); return true; }
      return false;
    }

    function apply(msg) {
      if (done || !msg || typeof msg.status !== "string") { return; }
      var now = Date.parse(msg.now || "");
      if (!isNaN(now)) { skew = now - Date.now(); }
      var exp = Date.parse(msg.expiresAt || "");
      if (!isNaN(exp)) { expiresAt = exp; }
      PixCheckout.announce(msg.status);
      if (msg.status === "paid") {
        done = true;
        if (timer) { clearInterval(timer); timer = null; }
        setStatus("paid", msg.text || text("paid"));
        if (!go(msg.redirect) && !go(root.getAttribute("data-paid-url"))) {
          for (var i = 0; i < active.length; i++) { active[i].hidden = true; }
        }
        return;
      }
      if (drawnPending && msg.status !== "pending") {
        done = true;
        if (!go(msg.redirect)) { window.location.reload(); }
        return;
      }
      if (msg.status === "expired") { expire(); }
      if (msg.redirect && msg.status !== "expired") {
        if (go(msg.redirect)) { done = true; return; }
      }
      if (msg.text && !expired) { setStatus(msg.status, msg.text); }
      tick(); // on the server's clock, learnt just now
    }

    function copied(msg) { if (feedback) { feedback.textContent = msg; } }

    // The button itself says it worked, for a moment, then is ready to copy again.
    var label = copy ? copy.textContent : "", restore = null;
    function copiedButton() {
      if (!copy) { return; }
      copy.textContent = text("copied-button") || label;
      copy.classList.add("copied");
      if (restore) { clearTimeout(restore); }
      restore = setTimeout(function () { copy.textContent = label; copy.classList.remove("copied"); }, 3000);
    }

    function selectCode() {
      if (!code) { return; }
      code.focus();
      if (typeof code.select === "function") {
        code.select();
        try { code.setSelectionRange(0, code.value.length); } catch (e) { /* not a text control */ }
      } else {
        var range = document.createRange();
        range.selectNodeContents(code);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
      copied(text("copy-manual"));
    }

    if (copy && code) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        var value = code.value !== undefined ? code.value : code.textContent;
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(value).then(function () { copied(text("copied")); copiedButton(); }, selectCode);
        } else {
          selectCode();
        }
      });
    }

    var pay = byId("sandbox-pay");
    if (pay && pay.form && window.fetch && window.URLSearchParams && window.FormData) {
      var payForm = pay.form, paying = false;
      payForm.addEventListener("submit", function (ev) {
        ev.preventDefault();
        if (paying) { return; }
        paying = true;
        pay.disabled = true;
        var busy = payForm.getAttribute("data-text-busy");
        if (busy && status) { status.textContent = busy; }
        // form.submit() fires no submit event: the plain POST shows the server's own answer.
        var fallback = function () { payForm.submit(); };
        // Same-origin fetch: the browser sends Sec-Fetch-Site: same-origin, which passes the
        // server's cross-origin protection; Accept asks for the JSON status instead of a redirect.
        fetch(payForm.action, {
          method: "POST", body: new URLSearchParams(new FormData(payForm)),
          headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-store"
        })
          .then(function (r) {
            var json = r.ok && /json/.test(r.headers.get("Content-Type") || "");
            return json ? r.json() : null;
          })
          .then(function (msg) {
            if (!msg || typeof msg.status !== "string") { fallback(); return; }
            // The payment is made: the answer, or the live status if it comes first, flips the page.
            apply(msg);
          }, fallback);
      });
    }

    if (expiresIn && !isNaN(expiresAt)) { expiresIn.hidden = false; }
    tick();
    if (!expired && !isNaN(expiresAt)) { timer = setInterval(tick, 1000); }
    PixCheckout.follow(root, POLL_MS, apply, function () { return done; });
  }

  function start() {
    var roots = document.querySelectorAll("[data-pix]");
    for (var i = 0; i < roots.length; i++) { init(roots[i]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
