// A page while a worker does a long task (pairing a round, importing a big file): follow its progress,
// then reload to show the result. The box names the status URL: data-progress-status; its JSON gives
// status, progress (percent) and, for some tasks, step (a sentence shown in [data-progress-step]).
(function () {
  "use strict";
  var box = document.querySelector("[data-progress-status]");
  if (!box) { return; }
  var bar = box.querySelector("progress");
  var step = box.querySelector("[data-progress-step]");
  // how often: the site's setting PROGRESS_POLL_MS, written on this script's tag (the first look after half of it)
  var every = Number(document.currentScript && document.currentScript.dataset.ms) || 1000;
  function poll() {
    fetch(box.dataset.progressStatus, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (data) {
        if (bar) { bar.value = data.progress; }
        if (step && data.step) { step.textContent = data.step; }
        if (data.status === "queued" || data.status === "running") { window.setTimeout(poll, every); }
        else { window.location.reload(); }
      })
      .catch(function () { window.setTimeout(poll, 3 * every); });
  }
  window.setTimeout(poll, every / 2);
})();
