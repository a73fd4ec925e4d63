// Result selects: "=" or "5" (as arbiters' programs accept) choose the draw; the match score follows the card.
// Points are read from the options' data-home and data-away, written unlocalised ("0.5"), never from the page's
// text; the score is written as the server writes it (tiebreaks.explanations.fmt): at most two decimals, no
// trailing zeros, the page's decimal separator (data-decimal-separator: "2,5" in Norwegian, "2.5" in English).
(function () {
  "use strict";
  var DRAW = "1/2-1/2";
  function hundredths(text) { return text ? Math.round(Number(text) * 100) || 0 : 0; }
  function format(hundredths, separator) {
    var sign = hundredths < 0 ? "-" : "", size = Math.abs(hundredths);
    var whole = Math.floor(size / 100), decimals = String(100 + (size % 100)).slice(1).replace(/0+$/, "");
    return sign + whole + (decimals ? separator + decimals : "");
  }
  function updateScore(table) {
    var home = 0, away = 0;
    table.querySelectorAll("select.result").forEach(function (select) {
      var option = select.options[select.selectedIndex];
      if (option) { home += hundredths(option.dataset.home); away += hundredths(option.dataset.away); }
    });
    var out = document.getElementById(table.dataset.scoreTarget);
    if (out) {
      var separator = out.dataset.decimalSeparator || ".";
      out.textContent = format(home, separator) + " – " + format(away, separator);
    }
  }
  // On a match card (data-advance) one key enters a board from the home side and moves to the next board:
  // 1 home wins, 0 away wins, = or 5 draw; after the last board the focus is on the submit button.
  function advance(select) {
    var form = select.form, results = Array.prototype.slice.call(form.querySelectorAll("select.result"));
    var next = results[results.indexOf(select) + 1] || form.querySelector("button[type=submit]");
    if (next) { next.focus(); }
  }
  document.addEventListener("keydown", function (event) {
    var select = event.target;
    if (!(select instanceof HTMLSelectElement) || !select.classList.contains("result")) { return; }
    var key = event.key === "5" || event.key === "½" ? "=" : event.key;
    var table = select.closest("table");
    var option = "10=".indexOf(key) >= 0 && key.length === 1 ? select.querySelector('option[data-key="' + key + '"]') : null;
    if (table && table.hasAttribute("data-advance") && option && !event.altKey && !event.ctrlKey) {
      event.preventDefault();
      select.value = option.value;
      select.dispatchEvent(new Event("change", { bubbles: true }));
      advance(select);
    } else if (key === "=") {
      event.preventDefault();
      select.value = DRAW;
      select.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
  document.addEventListener("change", function (event) {
    var table = event.target.closest && event.target.closest("table[data-score-target]");
    if (table) { updateScore(table); }
  });
})();
// Tiebreak policy: a recommended order fills the criteria field; "Add" appends one criterion.
document.addEventListener("click", function (event) {
  "use strict";
  var button = event.target, field = document.getElementById("id_criteria");
  if (!field || !(button instanceof HTMLButtonElement)) { return; }
  if (button.classList.contains("fill-criteria")) { field.value = button.dataset.criteria; field.focus(); }
  if (button.classList.contains("add-criterion")) {
    var codes = field.value.split(",").map(function (c) { return c.trim(); }).filter(Boolean);
    if (codes.indexOf(button.dataset.criterion) < 0) { codes.push(button.dataset.criterion); }
    field.value = codes.join(", ");
  }
});
// Match card: as each board's player is chosen, the eligibility warnings of the line-up follow (the server's
// eligibility service words them; nothing is saved). Without this script they show after submitting.
(function () {
  "use strict";
  var pending = null;
  function refresh(form) {
    var query = new URLSearchParams();
    form.querySelectorAll('select[name^="home_"], select[name^="away_"]').forEach(function (select) {
      query.append(select.name, select.value);
    });
    if (pending) { pending.abort(); }
    pending = new AbortController();
    fetch(form.dataset.warningsUrl + "?" + query.toString(), {
      credentials: "same-origin", headers: { Accept: "application/json" }, signal: pending.signal
    }).then(function (answer) {
      return answer.ok ? answer.json() : null;
    }).then(function (body) {
      var list = body && document.getElementById(form.dataset.warningsTarget);
      if (!list) { return; }
      list.replaceChildren.apply(list, body.warnings.map(function (text) {
        var item = document.createElement("li");
        item.textContent = text;
        return item;
      }));
      list.hidden = body.warnings.length === 0;
    }).catch(function () { /* offline or superseded: the warnings come with the submit */ });
  }
  document.addEventListener("change", function (event) {
    var select = event.target, form = select.form;
    if (select instanceof HTMLSelectElement && form && form.dataset.warningsUrl && /^(home|away)_/.test(select.name)) {
      refresh(form);
    }
  });
})();
// Round sheet and match card (form[data-keep-typed]): a save that is refused never loses what was typed. The form
// is sent by fetch, following the redirect of a saved one. The page's own answer (saved: the page with its message;
// refused by its view: the page with what was typed and why) replaces the page's main part. Any other answer (a bare
// 400 before the view, an expired token, the log-in page, no answer at all) leaves the page as it is, every value
// typed still in it, and says that it was not saved. Without JavaScript the form is posted as usual.
// Enter on the last board's result (or a match card's last board's player) saves (a select does not submit its form
// by itself).
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.URLSearchParams) { return; }
  var sending = false;
  function notSaved(form) {
    var note = form.querySelector("[data-not-saved]");
    if (note) { note.hidden = false; note.focus(); }
  }
  function sheetOf(answer, html) {
    if (new URL(answer.url).pathname !== window.location.pathname) { return null; } // e.g. the log-in page
    var page = new DOMParser().parseFromString(html, "text/html");
    var main = page.getElementById("main");
    // saved (the redirect to the sheet), or refused by the sheet's view (the sheet again); a bare error page has no
    // main part, another page (a 403 page) no sheet
    var ours = main && (answer.redirected || main.querySelector("form[data-keep-typed]"));
    return ours ? { title: page.title, main: main } : null;
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-keep-typed")) { return; }
    event.preventDefault();
    if (sending) { return; }
    sending = true;
    var note = form.querySelector("[data-not-saved]");
    if (note) { note.hidden = true; }
    fetch(form.action, { method: "POST", body: new URLSearchParams(new FormData(form)), credentials: "same-origin" })
      .then(function (answer) {
        return answer.text().then(function (html) {
          var sheet = sheetOf(answer, html);
          if (!sheet) { notSaved(form); return; }
          document.title = sheet.title;
          document.getElementById("main").replaceWith(document.adoptNode(sheet.main));
          document.dispatchEvent(new CustomEvent("page:replaced"));
        });
      })
      .catch(function () { notSaved(form); })
      .then(function () { sending = false; });
  });
  document.addEventListener("keydown", function (event) {
    var select = event.target;
    if (event.key !== "Enter" || !(select instanceof HTMLSelectElement)) { return; }
    var form = select.form;
    if (!form || !form.hasAttribute("data-keep-typed")) { return; }
    // the last board's result, or another list of its row (a match card's players: the away player is the card's
    // last field)
    var results = form.querySelectorAll("select.result"), last = results[results.length - 1];
    var lastRow = last && last.closest("tr");
    if (select === last || (lastRow && select.closest("tr") === lastRow)) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
})();
// The prize form shows only the fields the chosen kind of prize uses (data-prize-kinds: the kinds using a field);
// the page marks them for the kind it was sent with, this follows a change of kind.
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!(select instanceof HTMLSelectElement) || !/-kind$/.test(select.name)) { return; }
    var fieldset = select.closest("fieldset.prize");
    if (!fieldset) { return; }
    fieldset.querySelectorAll("[data-prize-kinds]").forEach(function (field) {
      var used = field.getAttribute("data-prize-kinds").split(" ").indexOf(select.value) >= 0;
      field.hidden = !used && !field.classList.contains("has-error");
    });
  });
})();
// The registrations page: one box chooses every registration in a state (data-choose: the status, e.g. everyone
// waiting for a decision), so accepting 60 registrations is not 60 clicks. Without the script it stays hidden.
(function () {
  "use strict";
  document.querySelectorAll("input[data-choose]").forEach(function (box) {
    box.closest("[hidden]").hidden = false;
  });
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.hasAttribute("data-choose")) { return; }
    var rows = box.form.querySelectorAll('tr[data-status="' + box.getAttribute("data-choose") + '"] input[name="ids"]');
    rows.forEach(function (row) { row.checked = box.checked; });
  });
})();
