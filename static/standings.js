// Standings: filters (club, federation, category, rating band) and sorting by any column, on the client.
// Without JavaScript the table is complete and in rank order; the filter form stays hidden. When the live
// refresh brings a new table, the reader's filters and sorting apply to it again.
(function () {
  "use strict";
  var sorting = {}; // table name -> {key, ascending}
  var ASCENDING_FIRST = ["rank", "sno", "name", "fed", "club"]; // numbers (points, rating) start highest

  // A cell's number, never read from localised text: the server writes a cell's plain number ("2.5") in its
  // data-v whenever the page shows it otherwise ("2,5" in Norwegian); a cell without data-v shows its number
  // plainly (a start number, a rating, "2.5" on an English page) or shows none ("–", a name, a club).
  function number(cell) {
    if (!cell) return null;
    var text = cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent.trim();
    if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
    return Number(text);
  }

  function column(table, key) {
    var th = table.querySelector('th[data-sort="' + key + '"]');
    return th ? th.cellIndex : -1;
  }

  // the text a row sorts or filters by: the cell's text (for names, the name itself without badges)
  function value(row, index) {
    if (index < 0) return "";
    var cell = row.cells[index];
    var name = cell.querySelector("a, bdi");
    return (cell.tagName === "TH" && name ? name : cell).textContent.trim(); // the name is the row's th
  }

  function inBand(rating, band) {
    if (!band) return true;
    if (band === "unrated") return rating === null;
    var limits = band.split("-");
    return rating !== null && rating >= Number(limits[0]) && rating <= Number(limits[1]);
  }

  function tableNamed(name) {
    return document.querySelector('table[data-sortable][data-table="' + name + '"]');
  }

  function filter(name) {
    var form = document.querySelector('[data-filters="' + name + '"]');
    var table = tableNamed(name);
    if (!form || !table) return;
    var chosen = {};
    form.querySelectorAll("[data-filter]").forEach(function (select) {
      chosen[select.dataset.filter] = select.value;
    });
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var fed = column(table, "fed");
    var rating = column(table, "rating");
    var shown = 0;
    rows.forEach(function (row) {
      var d = row.dataset;
      var keep =
        (!chosen.club || d.club === chosen.club) &&
        (!chosen.fed || value(row, fed) === chosen.fed) &&
        (!chosen.cat || (d.cat || "").split("|").indexOf(chosen.cat) >= 0) &&
        inBand(rating < 0 ? null : number(row.cells[rating]), chosen.band);
      row.hidden = !keep;
      if (keep) shown += 1;
    });
    var count = form.querySelector("[data-count]");
    if (count) count.textContent = shown + " / " + rows.length;
  }

  function sort(table, key, ascending) {
    table.querySelectorAll("th[aria-sort]").forEach(function (th) {
      th.removeAttribute("aria-sort");
    });
    var th = table.querySelector('th[data-sort="' + key + '"]');
    if (th) th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var index = column(table, key);
    rows.sort(function (a, b) {
      var x = value(a, index);
      var y = value(b, index);
      var nx = key === "rank" ? a.rankOrder : index < 0 ? null : number(a.cells[index]);
      var ny = key === "rank" ? b.rankOrder : index < 0 ? null : number(b.cells[index]);
      var order;
      if (nx !== null && ny !== null) order = nx - ny;
      else if (nx !== null || ny !== null) order = nx === null ? 1 : -1;
      else order = x.localeCompare(y, document.documentElement.lang);
      if (!ascending) order = -order;
      return order || a.rankOrder - b.rankOrder;
    });
    rows.forEach(function (row) {
      body.appendChild(row);
    });
    sorting[table.dataset.table] = { key: key, ascending: ascending };
  }

  function setUpTable(table) {
    if (table.dataset.ready) return;
    table.dataset.ready = "1";
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row, i) {
      row.rankOrder = i; // the rows come in rank order: ties keep it
    });
    table.querySelectorAll("th[data-sort]").forEach(function (th) {
      var key = th.dataset.sort;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () {
        var current = th.getAttribute("aria-sort");
        sort(table, key, current ? current !== "ascending" : ASCENDING_FIRST.indexOf(key) >= 0);
      });
    });
    var state = sorting[table.dataset.table];
    if (state) sort(table, state.key, state.ascending);
    filter(table.dataset.table);
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-filters]").forEach(function (form) {
      var name = form.dataset.filters;
      form.hidden = false;
      form.addEventListener("change", function () {
        filter(name);
      });
      form.addEventListener("submit", function (event) {
        event.preventDefault();
      });
    });
    document.querySelectorAll("table[data-sortable][data-table]").forEach(setUpTable);
  });
  document.addEventListener("live:updated", function () {
    document.querySelectorAll("table[data-sortable][data-table]").forEach(setUpTable);
  });
})();
