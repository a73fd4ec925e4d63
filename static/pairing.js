// The pairing screen while a worker pairs the round: follow its progress, then show the preview.
(function () {
  "use strict";
  var box = document.querySelector("[data-pairing-status]");
  if (!box) { return; }
  var bar = box.querySelector("progress");
  function poll() {
    fetch(box.dataset.pairingStatus, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (bar) { bar.value = data.progress; }
        if (data.status === "queued" || data.status === "running") { window.setTimeout(poll, 1000); }
        else { window.location.reload(); }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  window.setTimeout(poll, 500);
})();
