// Inside a checkout session's pages, when framed by the session's embedOrigin: tells the host
// page (embed.js) what happens, with window.parent.postMessage to that origin only (never "*").
// Everything it needs is in the body's data-embed-* attributes (views.Embed):
//   data-embed-origin       the only origin messages go to; absent: nothing is posted
//   data-embed-session, -order, -status, -view, -success-url, -cancel-url
// Messages are {source: "pix-checkout", version: 1, type, sessionId, orderId, status, ...}:
//   ready   on every page load (view: form, pix, paid, expired, failed, closed)
//   resize  the document's height, at load and at every change (ResizeObserver)
//   status  a change of the payment's state seen live on the PIX page (pix.js dispatches a
//           "pixcheckout:status" DOM event on document)
//   paid    once paid (with successUrl), expired once the QR code or the session expired
//   closed  the shopper chose to go back to the shop (with cancelUrl); embed.js opens it
(function () {
  "use strict";
  var b = document.body;
  var origin = b && b.getAttribute("data-embed-origin");
  if (!origin || window.parent === window) { return; }
  var attr = function (n) { return b.getAttribute("data-embed-" + n) || undefined; };
  var status = attr("status"), view = attr("view");

  function post(type, extra) {
    var m = { source: "pix-checkout", version: 1, type: type, sessionId: attr("session"),
      orderId: attr("order") || null, status: status };
    for (var k in extra) { if (Object.prototype.hasOwnProperty.call(extra, k)) { m[k] = extra[k]; } }
    try { window.parent.postMessage(m, origin); } catch (e) { /* a wrong origin throws nothing; a bad one might */ }
  }

  var height = 0;
  function measure() {
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (h > 0 && h !== height) {
      height = h;
      post("resize", { height: h });
    }
  }

  post("ready", { view: view });
  measure();
  if (window.ResizeObserver) {
    new ResizeObserver(measure).observe(document.documentElement);
  } else {
    window.addEventListener("resize", measure);
    setInterval(measure, 500);
  }
  window.addEventListener("load", measure);

  if (view === "paid") { post("paid", { successUrl: attr("success-url") }); }
  if (view === "expired" || view === "closed") { post("expired"); }

  document.addEventListener("pixcheckout:status", function (e) {
    var s = e.detail && e.detail.status;
    if (typeof s !== "string" || s === status) { return; }
    status = s;
    post("status");
    if (s === "paid") { post("paid", { successUrl: attr("success-url") }); }
    if (s === "expired") { post("expired"); }
  });

  document.addEventListener("click", function (e) {
    var a = e.target && e.target.closest && e.target.closest("a[data-embed-cancel]");
    if (!a) { return; }
    e.preventDefault();
    post("closed", { cancelUrl: attr("cancel-url") });
  });
})();
