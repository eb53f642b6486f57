// The customer form: moves the focus to the error summary (browsers block autofocus inside a
// cross-site frame), takes a field's error away as soon as the shopper changes its value, and
// fills the address in from the CEP as soon as one is typed.
// Progressive enhancement: without it the form works as it is.
(function () {
  "use strict";

  var summary = document.querySelector("[data-testid=error-summary]");
  if (summary && document.activeElement !== summary) {
    summary.focus();
    if (summary.scrollIntoView) { summary.scrollIntoView({ block: "start" }); }
  }

  var form = document.querySelector("form[data-testid=checkout-form]");
  if (!form) { return; }

  // fixed takes the error of a field whose value changed away: its message, its invalid state
  // and its line in the summary, and the summary once it has no line left. A red message that
  // stays while the shopper fixes the field says the fix was wrong; the server checks every
  // field again on the next submit. Removals are not read out by the summary's alert role.
  function fixed(el) {
    if (!el || !el.id || el.getAttribute("aria-invalid") !== "true") { return; }
    var id = el.id + "-error";
    el.removeAttribute("aria-invalid");
    var msg = document.getElementById(id);
    if (msg) { msg.parentNode.removeChild(msg); }
    var rest = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (r) { return r && r !== id; });
    if (rest.length > 0) { el.setAttribute("aria-describedby", rest.join(" ")); } else { el.removeAttribute("aria-describedby"); }
    if (!summary) { return; }
    var link = summary.querySelector('a[href="#' + el.id + '"]');
    var item = link && link.closest("li");
    if (item) { item.parentNode.removeChild(item); }
    if (!summary.querySelector("li")) {
      if (summary.contains(document.activeElement)) { el.focus(); }
      summary.parentNode.removeChild(summary);
      summary = null;
    }
  }
  form.addEventListener("input", function (e) { fixed(e.target); });
  form.addEventListener("change", function (e) { fixed(e.target); });

  var cep = document.getElementById("f-zip_code");
  var status = document.getElementById("cep-status");
  var base = form.getAttribute("data-cep-url");
  if (!cep || !status || !base || !window.fetch) { return; }
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
    if (el.value !== "") { fixed(el); } // a state the list lacks leaves the select empty
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
