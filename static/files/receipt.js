// The receipt's "print or save" button: shown only where printing works from script. On the
// point of sale's receipt (data-ticket), the printed page is made as long as the receipt (its
// named page of ticket.css, sized here), so that a roll printer feeds no blank paper; with
// data-autoprint the print dialog opens at once.
(function () {
  "use strict";
  var ticket = document.querySelector("[data-ticket]");
  function fit() {
    var name = ticket.getAttribute("data-page");
    var size = ticket.getAttribute("data-width") + "mm " + Math.ceil(ticket.getBoundingClientRect().height * 25.4 / 96 + 2) + "mm";
    for (var i = 0; i < document.styleSheets.length; i++) {
      var rules;
      try { rules = document.styleSheets[i].cssRules; } catch (e) { continue; }
      for (var j = 0; j < rules.length; j++) {
        if (rules[j].selectorText === name && rules[j].style) { rules[j].style.setProperty("size", size); }
      }
    }
  }
  if (ticket) { fit(); window.addEventListener("beforeprint", fit); }
  var btn = document.querySelector("[data-print]");
  if (!btn || typeof window.print !== "function") { return; }
  btn.hidden = false;
  btn.addEventListener("click", function () { window.print(); });
  if (btn.hasAttribute("data-autoprint")) { window.print(); }
})();
