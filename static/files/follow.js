// Follows an order for pix.js and order.js (loaded before them): follow(root, pollMs, apply,
// isDone) hands apply each JSON message of root's data-events-url stream, or polls its
// data-status-url when EventSource is missing or fails, until isDone().
(function () {
  "use strict";

  var ns = window.PixCheckout = window.PixCheckout || {};

  // sameOrigin returns url made absolute if it is of this page's origin, else null.
  ns.sameOrigin = function (url) {
    try {
      var u = new URL(url, window.location.href);
      return u.origin === window.location.origin ? u.href : null;
    } catch (e) { return null; }
  };

  // announce tells frame.js (a session framed by a merchant's page) the live status.
  ns.announce = function (name) {
    try { document.dispatchEvent(new CustomEvent("pixcheckout:status", { detail: { status: name } })); } catch (e) { /* old browser */ }
  };

  function parse(data) {
    try { return JSON.parse(data); } catch (e) { return null; }
  }

  ns.follow = function (root, pollMs, apply, isDone) {
    var polling = false;
    function poll() {
      var url = root.getAttribute("data-status-url");
      if (polling || !url || !window.fetch) { return; }
      polling = true;
      var loop = function () {
        if (isDone()) { return; }
        fetch(url, { headers: { "Accept": "application/json" }, cache: "no-store", credentials: "same-origin" })
          .then(function (r) { return r.ok ? r.json() : null; })
          .then(function (msg) { apply(msg); }, function () { /* try again on the next round */ })
          .then(function () { if (!isDone()) { setTimeout(loop, pollMs); } });
      };
      loop();
    }

    var url = root.getAttribute("data-events-url");
    if (!url || !window.EventSource) { poll(); return; }
    var es, failures = 0;
    try { es = new EventSource(url); } catch (e) { poll(); return; }
    var onMessage = function (ev) {
      apply(parse(ev.data));
      if (isDone()) { es.close(); }
    };
    es.onopen = function () { failures = 0; };
    es.onmessage = onMessage;
    es.addEventListener("status", onMessage);
    es.onerror = function () {
      failures++;
      // The browser gave up, or something in between breaks streams: poll instead.
      if (es.readyState === 2 || failures >= 3) { es.close(); poll(); }
    };
  };
})();
