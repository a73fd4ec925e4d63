// Standings: filters (club, federation, category, rating band) and sorting by any column, on the client.
// Without JavaScript the table is complete and in rank order; the filter form stays hidden.
(function () {
  "use strict";

  function number(value) {
    var parsed = parseFloat(value);
    return isNaN(parsed) ? null : parsed;
  }

  function inBand(rating, band) {
    if (!band) return true;
    if (band === "unrated") return rating === null;
    var limits = band.split("-");
    return rating !== null && rating >= Number(limits[0]) && rating <= Number(limits[1]);
  }

  function setUp(table) {
    var form = document.querySelector('[data-filters="' + table.dataset.table + '"]');
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var count = form && form.querySelector("[data-count]");

    function filter() {
      var chosen = {};
      form.querySelectorAll("[data-filter]").forEach(function (select) {
        chosen[select.dataset.filter] = select.value;
      });
      var shown = 0;
      rows.forEach(function (row) {
        var d = row.dataset;
        var keep =
          (!chosen.club || d.club === chosen.club) &&
          (!chosen.fed || d.fed === chosen.fed) &&
          (!chosen.cat || d.cat.split("|").indexOf(chosen.cat) >= 0) &&
          inBand(number(d.rating), chosen.band);
        row.hidden = !keep;
        if (keep) shown += 1;
      });
      if (count) count.textContent = shown + " / " + rows.length;
    }

    if (form) {
      form.hidden = false;
      form.addEventListener("change", filter);
      form.addEventListener("submit", function (event) {
        event.preventDefault();
      });
    }

    table.querySelectorAll("th[data-sort]").forEach(function (th) {
      var key = th.dataset.sort;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        // names and text ascending first; numbers (points, tiebreaks, rating) descending first; rank ascending
        var ascendingFirst = ["rank", "sno", "name", "fed", "club"].indexOf(key) >= 0;
        var current = th.getAttribute("aria-sort");
        var ascending = current ? current !== "ascending" : ascendingFirst;
        table.querySelectorAll("th[aria-sort]").forEach(function (other) {
          other.removeAttribute("aria-sort");
        });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var sorted = rows.slice().sort(function (a, b) {
          var x = a.dataset[key] || "";
          var y = b.dataset[key] || "";
          var nx = number(x);
          var ny = number(y);
          var order;
          if (nx !== null && ny !== null) order = nx - ny;
          else if (nx !== null || ny !== null) order = nx === null ? 1 : -1;
          else order = x.localeCompare(y, document.documentElement.lang);
          if (!ascending) order = -order;
          return order || Number(a.dataset.rank) - Number(b.dataset.rank);
        });
        sorted.forEach(function (row) {
          body.appendChild(row);
        });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("table[data-sortable][data-table]").forEach(setUp);
  });
})();
