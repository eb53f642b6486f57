// The customer form: focuses the error summary (autofocus is blocked in cross-site frames),
// checks a data-check field on leaving it by the server's rules (checkout.CheckFormField; a
// test runs both over checkout/testdata/fieldchecks.json), takes a field's error away once its
// value changes, and fills the address in from a CEP.
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

  // fixed takes away the error of a field whose value changed; the server checks all on submit.
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
  // The server's rules (brdoc, after checkout's normalising): true when the value passes.
  var bad = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
  function digit(d, cnpj) { // a CPF or CNPJ check digit
    var sum = 0;
    for (var i = 0; i < d.length; i++) {
      var w = cnpj ? 2 + (d.length - 1 - i) % 8 : d.length + 1 - i;
      sum += (d.charCodeAt(i) - 48) * w;
    }
    var r = sum % 11;
    return String.fromCharCode(48 + (r < 2 ? 0 : 11 - r));
  }
  function digits2(n, k, cnpj) { return !/^(.)\1*$/.test(n) && digit(n.slice(0, k), cnpj) === n[k] && digit(n.slice(0, k + 1), cnpj) === n[k + 1]; }
  var ddd = " 11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 " +
    "61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99 ";
  var checks = {
    document: function (v) {
      var n = v.replace(/[.\/\- \t\n\r\v\f]/g, "").replace(/[a-z]/g, function (c) { return c.toUpperCase(); });
      if (/^[0-9]{11}$/.test(n)) { return digits2(n, 9, false); }
      return /^[0-9A-Z]{12}[0-9]{2}$/.test(n) && digits2(n, 12, true);
    },
    email: function (v) {
      var at = v.indexOf("@"), local = v.slice(0, at), labels = v.slice(at + 1).split("."), tld = labels[labels.length - 1];
      if (at < 0 || v.length > 254 || local.length > 64 || v.length - at - 1 > 253 || labels.length < 2 ||
        !/^[A-Za-z0-9!#$%&'*+\/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+\/=?^_`{|}~-]+)*$/.test(local) ||
        !(/^[A-Za-z]{2,}$/.test(tld) || /^xn--./i.test(tld))) { return false; }
      return labels.every(function (l) { return /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l); });
    },
    phone: function (v) { // a mobile: [+55] DDD 9 8 digits
      var d = "", plus = false;
      for (var i = 0; i < v.length; i++) {
        var c = v[i];
        if (c >= "0" && c <= "9") {
          if ((d += c).length > 13) { return false; }
        } else if (c === "+" && !d && !plus) { plus = true; } else if (" -.()".indexOf(c) < 0) { return false; }
      }
      if (plus || d.length === 12 || d.length === 13) {
        if (d.slice(0, 2) !== "55") { return false; }
        d = d.slice(2);
      }
      return d.length === 11 && d[2] === "9" && ddd.indexOf(" " + d.slice(0, 2) + " ") >= 0;
    },
    cep: function (v) { return /^[0-9]{5}-?[0-9]{3}$/.test(v) && /[1-9]/.test(v); }
  };

  // Says the error found on leaving a field, politely.
  var live = document.createElement("p");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  form.appendChild(live);

  function wrong(el, msg) {
    var id = el.id + "-error", p = document.getElementById(id);
    if (p && p.textContent === msg) { return; }
    if (!p) {
      p = document.createElement("p");
      p.className = "field-error";
      p.id = id;
      p.setAttribute("data-testid", "field-error");
      el.insertAdjacentElement("afterend", p);
    }
    p.textContent = msg;
    el.setAttribute("aria-invalid", "true");
    var by = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (r) { return r && r !== id; });
    by.push(id);
    el.setAttribute("aria-describedby", by.join(" "));
    live.textContent = msg;
  }

  // Pressing submit takes the focus first: an error shown then would move the button away
  // from the finger and lose the click.
  var pressing = false;
  document.addEventListener("pointerdown", function (e) { pressing = !!(e.target.closest && e.target.closest("[type=submit]")); });
  form.addEventListener("focusout", function (e) {
    var el = e.target, check = checks[el.getAttribute && el.getAttribute("data-check")];
    if (!check || pressing || e.relatedTarget && e.relatedTarget.type === "submit") { return; }
    var v = el.value.trim();
    if (v === "") { return; } // not filled in yet: the submit says so
    if (bad.test(el.value)) { wrong(el, form.getAttribute("data-text-invalid-text")); } else if (!check(v)) {
      wrong(el, el.getAttribute("data-check-error"));
    } else { fixed(el); }
  });
  form.addEventListener("input", function (e) { fixed(e.target); });
  form.addEventListener("change", function (e) { fixed(e.target); });

  var cep = document.getElementById("f-zip_code");
  var status = document.getElementById("cep-status");
  var base = form.getAttribute("data-cep-url");
  if (!cep || !status || !base || !window.fetch) { return; }
  var asked = "";

  // set writes a field the lookup knows, unless the shopper typed another value there.
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
    // On to the number, unless the shopper has gone on to another field while the lookup ran:
    // taking the focus then would send what they type to the wrong field.
    var number = document.getElementById("f-number");
    var here = document.activeElement;
    if (number && number.value === "" && (here === cep || here === document.body || !here)) { number.focus(); }
  }

  cep.addEventListener("input", function () {
    var digits = cep.value.replace(/\D/g, "");
    if (digits.length !== 8 || digits === asked) { return; }
    asked = digits;
    fetch(base + digits, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (res) {
        if (res.ok) { return res.json().then(found); }
        // Unknown: say so; the service down: say nothing.
        if (res.status === 404) { status.textContent = form.getAttribute("data-text-cep-unknown"); }
      })
      .catch(function () {});
  });
})();
