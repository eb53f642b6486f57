// Live order page: the receipt of a paid order and the page of a canceled one follow the order
// (shipped with its tracking code, delivered, refunded, a late payment the shop returns) without
// a reload. Progressive enhancement of a page that works without JavaScript (a <noscript> meta
// refresh reloads it while the order may still change). Everything comes from the element
// marked data-order-live (follow.js, loaded first, follows the order):
//   data-events-url   Server-Sent Events stream; each message is JSON
//                     {status, stage, stageKey, text, redirect?}
//   data-status-url   JSON endpoint answering the same; polled when EventSource is missing or fails
//   data-stage-key    the key of what the page shows; a message with another key means the
//                     order changed for the shopper
// On a change the script reads the page again (same address: its language and embedding kept)
// and puts in place each [data-order-swap] part and the polite live status (order-status), which
// announces the new stage. A redirect (the order left this page's states) is followed.
(function () {
  "use strict";

  var POLL_MS = 10000;

  function init(root) {
    var key = root.getAttribute("data-stage-key") || "";
    var status = root.querySelector('[data-testid="order-status"]');
    var busy = false, again = null, done = false;

    function setStatus(stage, text) {
      if (!status) { return; }
      if (stage) { status.setAttribute("data-status", stage); }
      if (text && status.textContent !== text) { status.textContent = text; }
    }

    // swap puts the parts of the page drawn again (doc) in place of this one's.
    function swap(doc) {
      var fresh = doc.querySelector("[data-order-live]");
      if (!fresh) { return false; }
      var parts = root.querySelectorAll("[data-order-swap]");
      for (var i = 0; i < parts.length; i++) {
        var name = parts[i].getAttribute("data-order-swap");
        var from = fresh.querySelector('[data-order-swap="' + name + '"]');
        if (!from) { continue; }
        while (parts[i].firstChild) { parts[i].removeChild(parts[i].firstChild); }
        while (from.firstChild) { parts[i].appendChild(document.adoptNode(from.firstChild)); }
      }
      var st = fresh.querySelector('[data-testid="order-status"]');
      if (st) { setStatus(st.getAttribute("data-status"), st.textContent); }
      key = fresh.getAttribute("data-stage-key") || key;
      return true;
    }

    function redraw(msg) {
      if (busy) { again = msg; return; }
      busy = true;
      var finish = function () {
        busy = false;
        if (again) { var m = again; again = null; apply(m); }
      };
      if (!window.fetch || !window.DOMParser) {
        setStatus(msg.stage, msg.text);
        key = msg.stageKey;
        finish();
        return;
      }
      fetch(window.location.href, { headers: { "Accept": "text/html" }, cache: "no-store", credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          var ok = html && swap(new DOMParser().parseFromString(html, "text/html"));
          if (!ok) { setStatus(msg.stage, msg.text); }
        }, function () { setStatus(msg.stage, msg.text); })
        .then(finish);
    }

    function apply(msg) {
      if (done || !msg || typeof msg.status !== "string") { return; }
      if (msg.redirect) {
        var target = PixCheckout.sameOrigin(msg.redirect);
        if (target) { done = true; window.location.assign(target); return; }
      }
      if (typeof msg.stageKey !== "string" || msg.stageKey === key) { return; }
      PixCheckout.announce(msg.status);
      redraw(msg);
    }

    PixCheckout.follow(root, POLL_MS, apply, function () { return done; });
  }

  function start() {
    var roots = document.querySelectorAll("[data-order-live]");
    for (var i = 0; i < roots.length; i++) { init(roots[i]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
