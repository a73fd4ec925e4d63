// Every page: the language changes only by the menu's button (never on an arrow key in the menu).
// Run once the page has loaded, and again when a script replaced the page's main part (page:replaced: the round
// sheet's answer to a save).
(function () {
  "use strict";
  function setUpPage() {
    // Save and error messages: put in an alert after load (so screen readers announce them) and focused.
    // A refused form: its one list of errors, each linking to its field, has the focus (read out first).
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
    var announce = document.querySelector("[data-announce]");
    if (announce) {
      var alert = document.createElement("div");
      alert.setAttribute("role", "alert");
      announce.appendChild(alert);
      window.setTimeout(function () {
        alert.appendChild(announce.querySelector("ul.messages"));
        if (!summary) announce.focus();
      }, 100);
    }
    // A table wider than a phone scrolls in its wrapper: reachable and scrollable by keyboard, named by
    // its caption or the heading before it (unique on the page, also among the page's named sections).
    var names = {};
    document.querySelectorAll("section[aria-labelledby]").forEach(function (section) {
      var label = document.getElementById(section.getAttribute("aria-labelledby"));
      if (label) names[label.textContent.trim().replace(/\s+/g, " ")] = 1;
    });
    document.querySelectorAll(".table-wrap:not([tabindex])").forEach(function (wrap) {
      var caption = wrap.querySelector("caption");
      var heading = caption;
      for (var node = wrap; !heading && node && node !== document.body; node = node.parentElement) {
        for (var before = node.previousElementSibling; before && !heading; before = before.previousElementSibling) {
          if (/^H[1-6]$/.test(before.tagName)) heading = before;
        }
      }
      var name = (heading ? heading.textContent : document.title).trim().replace(/\s+/g, " ");
      names[name] = (names[name] || 0) + 1;
      wrap.setAttribute("role", "region");
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("aria-label", names[name] > 1 ? name + " (" + names[name] + ")" : name);
    });
  }
  document.addEventListener("DOMContentLoaded", setUpPage);
  document.addEventListener("page:replaced", setUpPage);
})();
