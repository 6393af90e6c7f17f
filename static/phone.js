/* The player's entries (R12, R20): countdowns on the server's clock; the page re-read at once
   when the room's pushed stream says a game this phone waits for changed (a seat offered shows
   within a second), else every few seconds; a new call vibrates and sounds where the phone
   allows it (after one tap on the page: phones play nothing a page was not allowed to). */
(function () {
  "use strict";
  /* STREAM_AGAIN_MS: a refused or broken stream is asked for again this long after (and up to a
     fifth more), as the board does: a push server restarted before the room was published again
     refuses it (404) for a few seconds, and the phone would otherwise poll until reloaded. */
  var REFRESH_MS = 5000, PUSHED_REFRESH_MS = 30000, STREAM_AGAIN_MS = 60000;
  var body = document.body;
  var skew = parseInt(body.dataset.serverNow, 10) - Date.now();
  var watch = (body.dataset.watch || "").split(" ").filter(Boolean);
  var timer = null, audio = null, mode = "poll";
  var alerted = {};  /* the offers this page has shown: each buzzes once, however many reads see it */
  /* The page's words in its language (data-t-*, issue 21), English where a page has none. */
  var TIME_UP = body.dataset.tUp || "time is up", READY = (body.dataset.tReady || "Your seat is ready") + " · ";

  function fmt(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var now = Date.now() + skew;
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.floor((parseInt(el.dataset.deadline, 10) - now) / 1000));
      el.textContent = left > 0 ? fmt(left) : TIME_UP;
      el.classList.toggle("urgent", left <= 60);
    });
  }

  function calls() {
    var found = {};
    document.querySelectorAll("#mine .call[data-offer]").forEach(function (c) { found[c.dataset.offer] = true; });
    return found;
  }

  /* R20: the seat is ready: a buzz and two beeps, and the tab's title says so. */
  function alertCall() {
    if (navigator.vibrate) navigator.vibrate([400, 150, 400, 150, 400]);
    if (audio) {
      [0, 0.35].forEach(function (at) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.value = 0.3;
        osc.connect(gain).connect(audio.destination);
        osc.start(audio.currentTime + at);
        osc.stop(audio.currentTime + at + 0.25);
      });
    }
    if (document.title.indexOf(READY) !== 0) document.title = READY + document.title;
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
        var doc = new DOMParser().parseFromString(html, "text/html");
        var next = doc.getElementById("mine");
        var open = {};
        document.querySelectorAll("#mine details[open]").forEach(function (d) {
          open[d.closest("[data-entry-id]").dataset.entryId] = true;
        });
        if (next) {
          document.getElementById("mine").replaceWith(next);
          next.querySelectorAll("details").forEach(function (d) {
            if (open[d.closest("[data-entry-id]").dataset.entryId]) { d.open = true; }
          });
          watch = (doc.body.dataset.watch || "").split(" ").filter(Boolean);
          var fresh = Object.keys(calls()).filter(function (k) { return !alerted[k]; });
          fresh.forEach(function (k) { alerted[k] = true; });
          if (fresh.length) alertCall();
          tick();
        }
      })
      .catch(function () { /* offline a moment: the next refresh tries again */ });
  }

  function every(ms) {
    clearInterval(timer);
    timer = setInterval(refresh, ms);
  }

  /* The room's stream (the board's): a message naming a game this phone waits for re-reads the
     page; it is only a nudge, the page itself is read from the server. Polling when it fails,
     and the stream asked for again a minute later. */
  function push(url) {
    var source = new EventSource(url);
    var failures = 0;
    mode = "push";
    every(PUSHED_REFRESH_MS);
    source.addEventListener("board", function (e) {
      failures = 0;
      var msg = JSON.parse(e.data);
      var changed = msg.full ? watch : Object.keys(msg.games);
      if (changed.some(function (key) { return watch.indexOf(key) >= 0; })) refresh();
    });
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= 3) {
        source.close();
        mode = "poll";
        every(REFRESH_MS);
        setTimeout(function () { push(url); }, STREAM_AGAIN_MS * (1 + Math.random() / 5));
      }
    };
  }

  var button = document.getElementById("alerts"), on = document.getElementById("alerts-on");
  if (button && (window.AudioContext || navigator.vibrate)) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx && !audio) audio = new Ctx();
      if (navigator.vibrate) navigator.vibrate(50);
      button.hidden = true;
      on.hidden = false;
    });
  }

  alerted = calls();  /* those it was drawn with are no news */
  tick();
  setInterval(tick, 1000);
  if (body.dataset.eventsUrl && window.EventSource && watch.length) push(body.dataset.eventsUrl);
  else every(REFRESH_MS);
  window.roomopsPhone = {mode: function () { return mode; }, refresh: refresh};
})();
