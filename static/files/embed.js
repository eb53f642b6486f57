/*! PIX Checkout embed.js v1 — puts a checkout session in an iframe on the merchant's page.
 *
 *   <div id="pix"></div>
 *   <script src="https://checkout.example.com/embed.js"></script>
 *   <script>
 *     PixCheckout.mount('#pix', { session: sessionUrl, onEvent: function (e) { console.log(e.type, e); } });
 *   </script>
 *
 * or, with no script of your own: <div data-pix-checkout="SESSION_URL"></div>, whose element then
 * receives DOM CustomEvents "pixcheckout:ready", "pixcheckout:resize", "pixcheckout:status",
 * "pixcheckout:paid", "pixcheckout:expired" and "pixcheckout:closed" (bubbling, cancelable; the
 * event is in e.detail).
 *
 * When the checkout's view changes (form, PIX code, paid, expired, failed) while the frame's top is
 * out of view, the page scrolls it into view (smoothly, unless the reader prefers reduced
 * motion): on a phone the shopper would otherwise stay at the bottom of the form they just sent.
 * Opt out with PixCheckout.mount(target, {session, scrollIntoView: false}) or
 * data-pix-scroll-into-view="false" beside data-pix-checkout.
 *
 * The frame shows the payment UI only: no header, footer or language links, and no order summary
 * (your page shows its own). Options: lang ("pt-BR" or "en"; the shopper's browser decides when
 * absent), summary (true shows the order's lines and total above the form and the PIX code) and
 * logo (true shows the store's logo atop the frame; the store's colours always apply), or
 * data-pix-lang="en", data-pix-summary="true" and data-pix-logo="true" beside data-pix-checkout.
 *
 * Each event is {type, sessionId, orderId, status, ...}: resize has height; paid may have
 * successUrl, closed cancelUrl. After "paid" the successUrl opens in the top window and after
 * "closed" the cancelUrl does, unless onEvent calls e.preventDefault() or a listener cancels the
 * DOM event. Messages are accepted only from the checkout's origin (the session URL's) and from
 * this iframe's own window; the checkout posts them only to the session's embedOrigin.
 * Fulfil orders from the server notification or the API, never from a browser event alone.
 */
(function (w, d) {
  "use strict";
  if (w.PixCheckout && w.PixCheckout.version) { return; }

  var TYPES = { ready: 1, resize: 1, status: 1, paid: 1, expired: 1, closed: 1 };
  var FIELDS = ["sessionId", "orderId", "status", "view", "height", "successUrl", "cancelUrl"];
  var mounts = [];

  function element(target) {
    var el = typeof target === "string" ? d.querySelector(target) : target;
    if (!el || el.nodeType !== 1) { throw new Error("PixCheckout: no element " + target); }
    return el;
  }

  // httpURL returns u as an absolute http(s) URL, or null: nothing else is ever framed or opened.
  function httpURL(u) {
    if (typeof u !== "string" || !u) { return null; }
    try {
      var x = new URL(u, w.location.href);
      return x.protocol === "https:" || x.protocol === "http:" ? x : null;
    } catch (e) { return null; }
  }

  function find(el) {
    for (var i = 0; i < mounts.length; i++) { if (mounts[i].el === el) { return mounts[i]; } }
    return null;
  }

  function openTop(u) {
    var x = httpURL(u);
    if (!x) { return; }
    try { w.top.location.assign(x.href); } catch (e) { w.location.assign(x.href); }
  }

  function mount(target, opts) {
    var el = element(target);
    opts = opts || {};
    var src = httpURL(opts.session || el.getAttribute("data-pix-checkout"));
    if (!src) { throw new Error("PixCheckout.mount: options.session must be the checkout session's url"); }
    var lang = opts.lang || el.getAttribute("data-pix-lang");
    var summary = opts.summary !== undefined ? opts.summary === true : el.getAttribute("data-pix-summary") === "true";
    var logo = opts.logo !== undefined ? opts.logo === true : el.getAttribute("data-pix-logo") === "true";
    // The checkout keeps them on every page of the frame (its links carry them).
    src.searchParams.set("embed", summary ? "summary" : "1");
    if (logo) { src.searchParams.set("logo", "1"); }
    if (lang) { src.searchParams.set("lang", lang); }
    var prev = find(el);
    if (prev) {
      if (prev.src === src.href) { return prev.handle; } // mounting twice is harmless
      prev.handle.destroy();
    }
    var origin = src.origin;
    var iframe = d.createElement("iframe");
    iframe.src = src.href;
    iframe.title = opts.title || (/^en/i.test(lang || "") ? "PIX payment" : "Pagamento PIX");
    iframe.setAttribute("allow", "clipboard-write");
    iframe.setAttribute("scrolling", "no");
    iframe.style.cssText = "display:block;width:100%;border:0;overflow:hidden;height:" + (opts.height || 600) + "px";
    el.appendChild(iframe);

    var paid = false, last = null, destroyed = false, view = null;
    var reveal = opts.scrollIntoView !== undefined ? opts.scrollIntoView !== false
      : el.getAttribute("data-pix-scroll-into-view") !== "false";

    // shown notes the view the frame now shows (a page's ready, or the PIX page expiring in
    // place) and, when it is a new one, brings the frame's top into view if it is out of view.
    // The first view is the one the page was opened with: nothing to bring back.
    function shown(v) {
      if (typeof v !== "string" || v === view) { return; }
      var first = view === null;
      view = v;
      if (first || !reveal) { return; }
      var top = iframe.getBoundingClientRect().top;
      if (top > -1 && top < (w.innerHeight || d.documentElement.clientHeight)) { return; }
      var still = w.matchMedia && w.matchMedia("(prefers-reduced-motion: reduce)").matches;
      iframe.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
    }

    function emit(m) {
      var e = { type: m.type, defaultPrevented: false };
      for (var i = 0; i < FIELDS.length; i++) { if (m[FIELDS[i]] !== undefined) { e[FIELDS[i]] = m[FIELDS[i]]; } }
      e.preventDefault = function () { e.defaultPrevented = true; };
      if (typeof opts.onEvent === "function") {
        try { opts.onEvent(e); } catch (err) { setTimeout(function () { throw err; }); }
      }
      var ce;
      try { ce = new CustomEvent("pixcheckout:" + m.type, { detail: e, bubbles: true, cancelable: true }); } catch (err) { ce = null; }
      if (ce && !el.dispatchEvent(ce)) { e.defaultPrevented = true; }
      return e;
    }

    function onMessage(ev) {
      // Only this checkout, and only this frame: another window (or another frame of the same
      // checkout) cannot speak for it.
      if (destroyed || ev.origin !== origin || ev.source !== iframe.contentWindow) { return; }
      var m = ev.data;
      if (!m || typeof m !== "object" || m.source !== "pix-checkout" || !TYPES[m.type]) { return; }
      if (m.type === "resize") {
        var h = Math.ceil(Number(m.height));
        if (h > 0 && h < 100000) { iframe.style.height = h + "px"; }
      }
      if (m.type === "ready") { shown(m.view); }
      if (m.type === "expired" && view === "pix") { shown("expired"); }
      if (typeof m.status === "string" && m.status !== last) {
        var changed = last !== null;
        last = m.status;
        if (changed && m.type !== "status") { emit({ type: "status", sessionId: m.sessionId, orderId: m.orderId, status: m.status }); }
        if (changed && m.type === "status") { emit(m); }
        if (m.type === "status") { return; }
      } else if (m.type === "status") {
        return; // no change
      }
      if (m.type === "paid") {
        if (paid) { return; }
        paid = true;
      }
      var e = emit(m);
      if (m.type === "paid" && m.successUrl && !e.defaultPrevented) { openTop(m.successUrl); }
      if (m.type === "closed" && m.cancelUrl && !e.defaultPrevented) { openTop(m.cancelUrl); }
    }
    w.addEventListener("message", onMessage);

    var entry = { el: el, src: src.href, handle: null };
    entry.handle = {
      iframe: iframe,
      destroy: function () {
        if (destroyed) { return; }
        destroyed = true;
        w.removeEventListener("message", onMessage);
        if (iframe.parentNode) { iframe.parentNode.removeChild(iframe); }
        var i = mounts.indexOf(entry);
        if (i >= 0) { mounts.splice(i, 1); }
      }
    };
    mounts.push(entry);
    return entry.handle;
  }

  function destroy(target) {
    var m = find(element(target));
    if (m) { m.handle.destroy(); }
  }

  function autoMount() {
    var els = d.querySelectorAll("[data-pix-checkout]");
    for (var i = 0; i < els.length; i++) {
      if (!find(els[i])) {
        try { mount(els[i]); } catch (e) { setTimeout(function () { throw e; }); }
      }
    }
  }

  w.PixCheckout = { version: "1", mount: mount, destroy: destroy };
  if (d.readyState === "loading") { d.addEventListener("DOMContentLoaded", autoMount); } else { autoMount(); }
})(window, document);
