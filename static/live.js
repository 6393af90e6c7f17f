/* Live parts of the staff screens (the cage's open slips, the dealer's table), re-read when their
   staff stream says something they show changed (staff-push.js), else polled as the desk is: each
   element with data-live fetches its fragment (every data-poll seconds while there is no stream)
   with If-None-Match (304 while nothing of the room changed) and is swapped in place. A part is never
   swapped while someone works in it: a field focused, or changed from what the server sent (text
   typed, a box ticked, an option picked). Countdowns (.countdown[data-deadline]) and ages
   (.age[data-since]) run on the server's clock: every answer carries X-Server-Now. */
(function () {
  "use strict";
  var parts = Array.prototype.slice.call(document.querySelectorAll("[data-live]"));
  if (!parts.length) return;
  var offset = null;  // server now - Date.now(), once a page or an answer has told it

  function setServerNow(ms) {
    var n = parseInt(ms, 10);
    if (!isNaN(n)) offset = n - Date.now();
  }
  parts.forEach(function (part) { setServerNow(part.dataset.serverNow); });

  function tick() {
    if (offset === null) return;  // the server's time is not known yet: leave what it rendered
    var now = Date.now() + offset;
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.floor((parseInt(el.dataset.deadline, 10) - now) / 1000));
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = left > 0 ? m + ":" + (s < 10 ? "0" : "") + s : "expired";
    });
    document.querySelectorAll(".age[data-since]").forEach(function (el) {  // R31: a slip's age
      el.textContent = Math.max(0, Math.floor((now - parseInt(el.dataset.since, 10)) / 60000)) + " min";
    });
  }

  function changed(field) {
    if (field.type === "hidden") return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {  // the option the server sent (or the first) is picked
      var sent = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
      return field.selectedIndex !== Math.max(0, sent);
    }
    return field.value !== field.defaultValue;
  }

  function busy(part) {
    var a = document.activeElement;
    if (a && part.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName)) return true;
    return Array.prototype.some.call(part.querySelectorAll("input, select, textarea"), changed);
  }

  /* Once a form is sent the page is left: no part is read meanwhile, as its answer would carry
     the session cookie from before the next page took its message (the flash) and could set that
     message again. On window, after confirm.js (on document) may have stopped the form. */
  var leaving = false;
  window.addEventListener("submit", function (e) { if (!e.defaultPrevented) leaving = true; });
  window.addEventListener("pageshow", function () { leaving = false; });

  function poll(part) {
    if (leaving || document.hidden || busy(part)) return Promise.resolve(false);
    var headers = part.dataset.etag ? { "If-None-Match": '"' + part.dataset.etag + '"' } : {};
    return fetch(part.dataset.live, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (resp) {
        setServerNow(resp.headers.get("X-Server-Now"));
        if (resp.status === 304 || !resp.ok) return false;
        if (resp.redirected) { window.location.reload(); return false; }
        var tag = (resp.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return resp.text().then(function (html) {
          if (busy(part)) return false;  // someone started working in it while we fetched
          part.innerHTML = html;
          part.dataset.etag = tag;
          tick();
          return true;
        });
      })
      .catch(function () { return false; });
  }

  function pollAll() { return Promise.all(parts.map(poll)); }

  /* Told by the staff stream that something shown changed (staff-push.js): read now, and every
     30 s; polled at the page's pace while there is no stream. */
  function read() {
    var free = !document.hidden && !parts.some(busy);
    return pollAll().then(function () { return free; });
  }
  var pollMs = (parseFloat(parts[0].dataset.poll) || 1) * 1000;
  var timer = null, pushed = null;
  function every(ms) { clearInterval(timer); timer = setInterval(pollAll, ms); }
  pushed = window.roomopsStaffPush ? window.roomopsStaffPush(parts[0].dataset.staffEvents, read, every, pollMs) : null;
  if (!pushed) every(pollMs);
  window.roomopsLive = { poll: pollAll, tick: tick,  // for the browser tests
                         mode: function () { return pushed ? pushed.mode() : "poll"; },
                         // a form sent from the page and refused (staff-forms.js): the page stays
                         stay: function () { leaving = false; } };
  tick();
  setInterval(tick, 1000);
})();
