// copy.js: a button marked data-copy="ID" copies the value (or text) of the element ID to the clipboard
// and says so in the page's [data-copy-feedback] (aria-live), in the words of its
// data-copied. The button is hidden without this script: the value stays selectable by hand.
(function () {
  "use strict";
  var feedback = document.querySelector("[data-copy-feedback]");
  document.querySelectorAll("button[data-copy]").forEach(function (btn) {
    var target = document.getElementById(btn.getAttribute("data-copy"));
    if (!target || !navigator.clipboard) {
      return;
    }
    btn.hidden = false;
    btn.addEventListener("click", function () {
      navigator.clipboard.writeText(target.value || target.textContent).then(function () {
        if (feedback) {
          feedback.textContent = btn.getAttribute("data-copied") || "";
        }
      }, function () {
        // Refused: select the value for a copy by hand (a field's, or an element's text).
        if (target.select) {
          target.select();
          return;
        }
        var range = document.createRange();
        range.selectNodeContents(target);
        window.getSelection().removeAllRanges();
        window.getSelection().addRange(range);
      });
    });
  });
})();
