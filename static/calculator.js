/* Tiebreak calculator: recompute as you type (progressive enhancement).
 *
 * Without JavaScript the form is a plain GET form and "Calculate" reloads the page. With it, every
 * change fetches the same page with the form's query string and swaps in its result region; the
 * address bar follows, so a reload or a shared link shows the same values. No dependencies, and no
 * request leaves this site. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-live-result]");
  if (!form || !window.fetch || !window.URLSearchParams || !window.DOMParser) return;
  var region = document.getElementById(form.getAttribute("data-live-result"));
  if (!region) return;
  var timer = null;
  var latest = 0;
  var controller = null;

  function query() {
    var params = new URLSearchParams();
    var data = new FormData(form);
    data.forEach(function (value, key) {
      if (key === "resize") return;
      params.append(key, value);
    });
    // the rows on screen decide the number of rounds until "Set" re-renders them
    params.set("rounds", form.getAttribute("data-round-count"));
    return params.toString();
  }

  function refresh() {
    var qs = query();
    var url = (form.getAttribute("action") || window.location.pathname) + "?" + qs;
    var ticket = ++latest;
    if (controller) controller.abort();
    controller = window.AbortController ? new AbortController() : null;
    region.setAttribute("aria-busy", "true");
    fetch(url, {
      credentials: "same-origin",
      signal: controller ? controller.signal : undefined,
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null || ticket !== latest) return;
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById(region.id);
        if (!fresh) return;
        region.innerHTML = fresh.innerHTML;
        region.removeAttribute("aria-busy");
        if (window.history && window.history.replaceState) {
          window.history.replaceState(null, "", window.location.pathname + "?" + qs);
        }
      })
      .catch(function () {
        /* offline or aborted: the Calculate button still works */
      });
  }

  function schedule(event) {
    if (event.target && event.target.name === "rounds") return; // needs "Set" (new rows)
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, 250);
  }

  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
})();
