// Live refresh during a round: asks for the page again with its ETag (If-None-Match) every few seconds;
// 304 changes nothing; a new page replaces only the regions marked data-live-region whose content changed,
// so nothing flickers and the reader's scroll position, filters and sorting stay. When the round is over, a
// region the new page marks data-live-final instead (a game page's moves, with the game's last ones) replaces it
// once, then the asking stops. Without JavaScript the page reloads itself (a meta refresh inside noscript).
// The first ask has no ETag: the validator kept is always the one of the answer whose regions are shown (an ETag
// asked for apart from the page, as a HEAD, could be of a change made after the page loaded, which would then
// never be shown).
(function () {
  "use strict";
  var regions = document.querySelectorAll("[data-live-region]");
  if (!regions.length || !window.fetch || !window.DOMParser) return;
  // how often: the site's setting LIVE_REFRESH_SECONDS, written on this script's tag
  var seconds = Number(document.currentScript && document.currentScript.dataset.seconds) || 30;
  var etag = null; // of the answer whose regions are shown

  function schedule() {
    window.setTimeout(poll, seconds * 1000);
  }

  function swap(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var changed = false;
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      var name = region.dataset.liveRegion;
      var fresh =
        page.querySelector('[data-live-region="' + name + '"]') || page.querySelector('[data-live-final="' + name + '"]');
      if (fresh && fresh.innerHTML !== region.innerHTML) {
        region.replaceWith(document.importNode(fresh, true));
        changed = true;
      }
    });
    if (changed) document.dispatchEvent(new CustomEvent("live:updated"));
    return page.querySelector("[data-live-region]") !== null; // the round is over: stop asking
  }

  function poll() {
    if (document.hidden) return schedule();
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return schedule();
        return response.text().then(function (html) {
          var live = swap(html);
          etag = response.headers.get("ETag");
          if (live) schedule();
        });
      })
      .catch(schedule);
  }

  schedule();
})();
