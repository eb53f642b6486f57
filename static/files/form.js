// The customer form: moves the focus to the error summary (browsers block autofocus inside a
// cross-site frame), and fills the address in from the CEP as soon as one is typed.
// Progressive enhancement: without it the form works as it is.
(function () {
  "use strict";

  var summary = document.querySelector("[data-testid=error-summary]");
  if (summary && document.activeElement !== summary) {
    summary.focus();
    if (summary.scrollIntoView) { summary.scrollIntoView({ block: "start" }); }
  }

  var form = document.querySelector("form[data-cep-url]");
  var cep = document.getElementById("f-zip_code");
  var status = document.getElementById("cep-status");
  if (!form || !cep || !status || !form.getAttribute("data-cep-url") || !window.fetch) { return; }
  var base = form.getAttribute("data-cep-url");
  var asked = "";

  // set writes a field the lookup knows, unless the shopper typed something else there: a value
  // the previous lookup wrote may be replaced, a typed one never is.
  function set(id, value) {
    var el = document.getElementById(id);
    if (!el || !value) { return; }
    var mine = el.getAttribute("data-filled");
    if (el.value !== "" && el.value !== mine) { return; }
    el.value = value;
    el.setAttribute("data-filled", value);
  }

  function found(a) {
    set("f-street", a.street);
    set("f-neighborhood", a.neighborhood);
    set("f-city", a.city);
    set("f-state", a.state);
    status.textContent = form.getAttribute("data-text-cep-found");
    var number = document.getElementById("f-number");
    if (number && number.value === "") { number.focus(); }
  }

  cep.addEventListener("input", function () {
    var digits = cep.value.replace(/\D/g, "");
    if (digits.length !== 8 || digits === asked) { return; }
    asked = digits;
    fetch(base + digits, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (res) {
        if (res.ok) { return res.json().then(found); }
        // Unknown: say so. The service down: say nothing, the shopper types the address.
        if (res.status === 404) { status.textContent = form.getAttribute("data-text-cep-unknown"); }
      })
      .catch(function () {});
  });
})();
