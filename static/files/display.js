// The customer's display of the point of sale (/pos/display): follows its terminal through
// follow.js (the stream, or the status URL when streams fail) and shows the state each message
// gives: idle (the store's logo), charging (the amount and the QR code), paid. No reload, but
// once revoked (unpaired): the page then shows the pairing form.
(function () {
  "use strict";

  var root = document.querySelector("[data-testid=display]");
  var ns = window.PixCheckout;
  if (!root || !ns || !ns.follow) { return; }
  var offline = root.querySelector("[data-testid=display-offline]");

  function setField(name, value) {
    var els = root.querySelectorAll("[data-field=" + name + "]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      if (el.tagName === "IMG") {
        if (value) {
          if (el.getAttribute("src") !== value) { el.setAttribute("src", value); }
          el.hidden = false;
        } else {
          el.removeAttribute("src");
          el.hidden = true;
        }
      } else if (el.textContent !== (value || "")) {
        el.textContent = value || "";
      }
    }
  }

  function apply(msg) {
    if (!msg || !msg.state) { return; }
    // Revoked by the store: the page, loaded again, asks for a pairing code.
    if (msg.state === "unpaired") { window.location.reload(); return; }
    offline.hidden = true;
    root.setAttribute("data-state", msg.state);
    var parts = root.querySelectorAll("[data-show]");
    for (var i = 0; i < parts.length; i++) {
      parts[i].hidden = parts[i].getAttribute("data-show") !== msg.state;
    }
    setField("amount", msg.amount);
    setField("qr", msg.qr);
    setField("paidAt", msg.paidAt);
    setField("endToEnd", msg.endToEnd);
    setField("status", msg.status);
  }

  // The browser knows when its network is gone: say so, and never guess the sale's state; the
  // stream (or the polling) brings the server's word back when it returns.
  window.addEventListener("offline", function () {
    offline.textContent = root.getAttribute("data-offline");
    offline.hidden = false;
  });
  window.addEventListener("online", function () { offline.hidden = true; });

  ns.follow(root, 2000, apply, function () { return false; });
})();
