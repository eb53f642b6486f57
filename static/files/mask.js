// As-you-type masks for inputs marked data-mask="document|cep|phone".
// Progressive enhancement: the server accepts values with or without punctuation, so this script
// only adds separators. It never drops a character: a value that does not fit a mask (too long,
// an international phone...) is left exactly as typed, and the server reports it.
(function () {
  "use strict";

  // fill writes the significant characters chars into pattern, where "#" takes one character.
  // Separators are only written between characters, so deleting one with backspace works.
  function fill(pattern, chars) {
    var out = "", j = 0;
    for (var i = 0; i < pattern.length && j < chars.length; i++) {
      if (pattern[i] === "#") { out += chars[j++]; } else { out += pattern[i]; }
    }
    return out;
  }

  var masks = {
    // CPF (11 digits) or CNPJ (14 characters, the first 12 may be letters since 2026).
    document: {
      keep: /[0-9A-Za-z]/,
      format: function (s) {
        s = s.toUpperCase();
        if (s.length > 14) { return null; }
        if (s.length <= 11 && /^[0-9]*$/.test(s)) { return fill("###.###.###-##", s); }
        return fill("##.###.###/####-##", s);
      }
    },
    cep: {
      keep: /[0-9]/,
      format: function (s) { return s.length > 8 ? null : fill("#####-###", s); }
    },
    // Brazilian phone with area code: (11) 91234-5678 or (11) 1234-5678.
    phone: {
      keep: /[0-9]/,
      format: function (s) {
        if (s.length > 11) { return null; }
        if (s.length === 11) { return fill("(##) #####-####", s); }
        return fill("(##) ####-####", s);
      }
    }
  };

  function significant(mask, text) {
    var out = "";
    for (var i = 0; i < text.length; i++) {
      if (mask.keep.test(text[i])) { out += text[i]; }
    }
    return out;
  }

  function apply(input) {
    var mask = masks[input.getAttribute("data-mask")];
    if (!mask) { return; }
    var value = input.value;
    // An international number is the shopper's choice: leave it alone.
    if (input.getAttribute("data-mask") === "phone" && value.trim().charAt(0) === "+") { return; }
    // Anything that is neither a significant character nor a usual separator means the shopper
    // typed something unexpected: keep it as it is rather than silently deleting it.
    if (/[^0-9A-Za-z.\-\/() ]/.test(value)) { return; }
    var chars = significant(mask, value);
    var formatted = mask.format(chars);
    if (formatted === null || formatted === value) { return; }
    var focused = document.activeElement === input;
    var caret = focused && input.selectionStart !== null ? input.selectionStart : value.length;
    var before = significant(mask, value.slice(0, caret)).length;
    input.value = formatted;
    if (!focused) { return; }
    // Put the caret after the same number of significant characters as before.
    var pos = 0, seen = 0;
    while (pos < formatted.length && seen < before) {
      if (mask.keep.test(formatted[pos])) { seen++; }
      pos++;
    }
    try { input.setSelectionRange(pos, pos); } catch (e) { /* some input types refuse it */ }
  }

  function init() {
    var inputs = document.querySelectorAll("input[data-mask]");
    for (var i = 0; i < inputs.length; i++) {
      apply(inputs[i]);
      inputs[i].addEventListener("input", function (ev) { apply(ev.target); });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
