// The demo merchant page: lists the events embed.js fires on the mount element, and asks the
// merchant's own server (which asks the API) what it knows of the session.
(function () {
  "use strict";
  var mount = document.getElementById("pix");
  var list = document.getElementById("events");
  if (!mount || !list) { return; }
  var last = null;

  function show(e) {
    var fields = {};
    Object.keys(e).forEach(function (k) {
      if (typeof e[k] !== "function" && k !== "defaultPrevented") { fields[k] = e[k]; }
    });
    var text = new Date().toLocaleTimeString() + "  " + e.type + "  " + JSON.stringify(fields);
    if (e.type === "resize" && last && last.dataset.type === "resize") {
      last.textContent = text; // one line for a run of resizes
      return;
    }
    var li = document.createElement("li");
    li.dataset.type = e.type;
    li.textContent = text;
    list.appendChild(li);
    last = li;
  }

  ["ready", "resize", "status", "paid", "expired", "closed"].forEach(function (type) {
    mount.addEventListener("pixcheckout:" + type, function (ev) {
      show(ev.detail);
      var to = type === "paid" ? ev.detail.successUrl : type === "closed" ? ev.detail.cancelUrl : "";
      if (to) {
        // Keep this page (and its log) instead of opening the successUrl or cancelUrl at once:
        // offer it as a link.
        ev.preventDefault();
        var link = document.getElementById("next-link");
        link.href = to;
        document.getElementById("next").hidden = false;
      }
    });
  });

  var check = document.getElementById("check");
  var out = document.getElementById("server");
  check.addEventListener("click", function () {
    out.textContent = "…";
    fetch(check.dataset.url, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (j) { out.textContent = JSON.stringify(j, null, 2); })
      .catch(function (err) { out.textContent = String(err); });
  });
})();
