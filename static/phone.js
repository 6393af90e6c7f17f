/* The player's entries (R12, R20): countdowns on the server's clock, and the page re-read every
   few seconds (a call shows up without a reload). */
(function () {
  "use strict";
  var REFRESH_MS = 5000;
  var skew = parseInt(document.body.dataset.serverNow, 10) - Date.now();

  function fmt(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.floor((parseInt(el.dataset.deadline, 10) - now) / 1000));
      el.textContent = left > 0 ? fmt(left) : "time is up";
      el.classList.toggle("urgent", left <= 60);
    });
  }

  function refresh() {
    fetch(window.location.pathname, {credentials: "same-origin", cache: "no-store"})
      .then(function (resp) {
        var at = parseInt(resp.headers.get("X-Server-Now"), 10);
        if (!isNaN(at)) { skew = at - Date.now(); }
        return resp.ok ? resp.text() : null;
      })
      .then(function (html) {
        if (!html) { return; }
        var next = new DOMParser().parseFromString(html, "text/html").getElementById("mine");
        var open = {};
        document.querySelectorAll("#mine details[open]").forEach(function (d) {
          open[d.closest("[data-entry-id]").dataset.entryId] = true;
        });
        if (next) {
          document.getElementById("mine").replaceWith(next);
          next.querySelectorAll("details").forEach(function (d) {
            if (open[d.closest("[data-entry-id]").dataset.entryId]) { d.open = true; }
          });
          tick();
        }
      })
      .catch(function () { /* offline a moment: the next refresh tries again */ });
  }

  tick();
  setInterval(tick, 1000);
  setInterval(refresh, REFRESH_MS);
})();
