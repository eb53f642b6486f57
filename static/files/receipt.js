// The receipt's "print or save" button: shown only where printing works from script.
(function () {
  "use strict";
  var btn = document.querySelector("[data-print]");
  if (!btn || typeof window.print !== "function") { return; }
  btn.hidden = false;
  btn.addEventListener("click", function () { window.print(); });
})();
