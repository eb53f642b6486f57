// The point of sale (views/dashboard_pos.templ), on pages that work without it.
// The keypad: the amount is built from cents as typed, the way card machines do (1 2 3 4 shows
// 12,34): the amount field takes digits and Backspace, and the on-screen keys do the same.
// The sale: its countdown, its live status through follow.js (the order's own stream, with the
// poll fallback), an offline notice while the network is gone. When the server says the sale
// moved, the page is drawn again by the server: the script never shows "paid" by itself. The
// paid page sounds and vibrates where the device allows, once, when it was reached live.
(function () {
  "use strict";

  var POLL_MS = 3000, MAX_CENTS = 10000000;

  function formatCents(c, lang) {
    var s = String(c);
    while (s.length < 3) { s = "0" + s; }
    var whole = s.slice(0, -2), frac = s.slice(-2);
    var sep = lang === "en" ? "," : ".", dec = lang === "en" ? "." : ",";
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
    return whole + dec + frac;
  }

  function keypad(form) {
    var input = form.querySelector("[data-testid=pos-amount]");
    if (!input) { return; }
    var lang = input.getAttribute("data-lang");
    var digits = (input.value || "").replace(/\D/g, "").replace(/^0+/, "");
    function show() {
      var c = digits === "" ? 0 : parseInt(digits, 10);
      input.value = c > 0 ? formatCents(c, lang) : "";
    }
    function push(k) {
      if (k === "back") { digits = digits.slice(0, -1); } else {
        var next = (digits + k).replace(/^0+/, "");
        if (next !== "" && parseInt(next, 10) > MAX_CENTS) { return; }
        digits = next;
      }
      show();
    }
    input.addEventListener("keydown", function (ev) {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
      if (/^[0-9]$/.test(ev.key)) { ev.preventDefault(); push(ev.key); } else if (ev.key === "Backspace") { ev.preventDefault(); push("back"); } else if (ev.key === "Delete" || ev.key === "Escape") { ev.preventDefault(); digits = ""; show(); }
    });
    // A paste or an input method: its digits, as cents.
    input.addEventListener("input", function () { digits = input.value.replace(/\D/g, "").replace(/^0+/, "").slice(0, 8); show(); });
    var keys = form.querySelector("[data-pos-keys]");
    if (keys) {
      keys.hidden = false;
      keys.addEventListener("click", function (ev) {
        var k = ev.target.getAttribute && ev.target.getAttribute("data-key");
        if (k) { push(k === "00" ? "0" : k); if (k === "00") { push("0"); } input.focus(); }
      });
    }
    show();
  }

  function cart(form) {
    var total = form.querySelector("[data-pos-cart-total]");
    if (!total) { return; }
    var lang = total.getAttribute("data-lang");
    function sum() {
      var c = 0, qs = form.querySelectorAll("input[data-price]");
      for (var i = 0; i < qs.length; i++) {
        var n = parseInt(qs[i].value, 10);
        if (n > 0) { c += n * parseInt(qs[i].getAttribute("data-price"), 10); }
      }
      total.textContent = "R$" + (lang === "en" ? "" : " ") + formatCents(c, lang);
    }
    form.addEventListener("input", sum);
    sum();
  }

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function sale(root) {
    var status = root.getAttribute("data-status");
    var offline = root.querySelector("[data-testid=pos-offline]");
    var countdown = root.querySelector("[data-testid=countdown]");
    var expiresAt = Date.parse(root.getAttribute("data-expires-at") || "");
    var skew = 0, done = false;
    var key = "pos-live:" + root.getAttribute("data-status-url");

    var paid = root.querySelector("[data-pos-paid]");
    var next = root.querySelector("[data-pos-next]");
    // The sale is over: its next step ("Nova venda", or "Cobrar de novo" once expired) has the
    // focus, so that Enter on a numeric keypad takes it (the outcome is its description); a
    // receipt's form sent back with a problem keeps it on the field to fix.
    if (next && status !== "awaiting_payment" && status !== "pending" && !root.querySelector("[aria-invalid=true]")) { next.focus(); }
    if (paid) {
      // Reached live from this sale's QR code: say it once, with sound and vibration.
      var live = false;
      try { live = sessionStorage.getItem(key) === "1"; sessionStorage.removeItem(key); } catch (e) { /* storage off */ }
      if (live) {
        try { if (navigator.vibrate) { navigator.vibrate([200, 100, 200]); } } catch (e) { /* not allowed */ }
        try {
          var Ctx = window.AudioContext || window.webkitAudioContext;
          var ac = new Ctx(), o = ac.createOscillator(), g = ac.createGain();
          o.frequency.value = 880; g.gain.value = 0.2; o.connect(g); g.connect(ac.destination);
          o.start(); o.stop(ac.currentTime + 0.3);
        } catch (e) { /* no sound allowed */ }
      }
      return;
    }
    if (status !== "awaiting_payment" && status !== "pending") { return; }
    try { sessionStorage.setItem(key, "1"); } catch (e) { /* storage off */ }

    var reloadOnline = false;
    function setOffline(on) { if (offline) { offline.hidden = !on; } }
    window.addEventListener("offline", function () { setOffline(true); });
    window.addEventListener("online", function () { setOffline(false); if (reloadOnline) { window.location.reload(); } });
    if (navigator.onLine === false) { setOffline(true); }

    function tick() {
      if (!countdown || isNaN(expiresAt)) { return; }
      var left = Math.max(0, Math.ceil((expiresAt - (Date.now() + skew)) / 1000));
      countdown.textContent = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
      if (countdown.parentNode) { countdown.parentNode.classList.toggle("urgent", left <= 30); }
    }
    tick();
    setInterval(tick, 1000);

    function apply(msg) {
      if (done || !msg || typeof msg.status !== "string") { return; }
      setOffline(navigator.onLine === false);
      var now = Date.parse(msg.now || "");
      if (!isNaN(now)) { skew = now - Date.now(); }
      var exp = Date.parse(msg.expiresAt || "");
      if (!isNaN(exp)) { expiresAt = exp; }
      if (msg.status !== status) {
        // The server says the sale moved: it draws the page of its new state, once the
        // network is back (a reload offline would show the browser's error page).
        done = true;
        if (navigator.onLine === false) { reloadOnline = true; } else { window.location.reload(); }
      }
    }
    PixCheckout.follow(root, POLL_MS, apply, function () { return done; });
    // Back online: ask the server at once rather than wait for the stream's retry.
    window.addEventListener("online", function () {
      var url = root.getAttribute("data-status-url");
      if (!url || !window.fetch) { return; }
      fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; }).then(apply, function () { setOffline(true); });
    });

    var pay = root.querySelector("[data-pos-sandbox]");
    if (pay && window.fetch) {
      pay.addEventListener("submit", function (ev) {
        ev.preventDefault();
        fetch(pay.action, { method: "POST", headers: { "Accept": "application/json" }, credentials: "same-origin", cache: "no-store" })
          .then(function (r) { return r.ok ? r.json() : null; }).then(apply, function () { setOffline(true); });
      });
    }
  }

  function start() {
    var i, forms = document.querySelectorAll("[data-pos-keypad]");
    for (i = 0; i < forms.length; i++) { keypad(forms[i]); }
    forms = document.querySelectorAll("[data-pos-cart]");
    for (i = 0; i < forms.length; i++) { cart(forms[i]); }
    var s = document.querySelector("[data-pos-sale]");
    if (s) { sale(s); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
