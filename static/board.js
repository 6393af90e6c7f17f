/* The public board: take each change pushed over Server-Sent Events (or poll the games fragment
   where no stream is served, or it fails), tick the claim countdowns, page a large room on a TV.
   Time: the server's clock is the truth (tests freeze it). Every pushed message carries "now", every
   polled answer, 304 included, X-Server-Now; we keep offset = server now - Date.now() and count down
   to each deadline with it. */
(function () {
  "use strict";
  var body = document.body;
  var live = document.getElementById("board-live");
  if (!live || !body.dataset.liveUrl) return;
  var url = body.dataset.liveUrl;
  var eventsUrl = body.dataset.eventsUrl || "";
  var mode = "poll";
  var polling = false;
  var pollMs = (parseFloat(body.dataset.poll) || 2) * 1000;
  /* A stream refused or broken is asked for again this long after (with up to a fifth more, so a
     room's screens do not all ask at once): a push server restarted before the web process had
     published the room again refuses its screens (404) for a few seconds, and they would otherwise
     poll until reloaded. */
  var STREAM_AGAIN_MS = 60000;
  var pageMs = (parseFloat(body.dataset.pageSeconds) || 12) * 1000;
  var etag = body.dataset.etag || "";
  var offset = 0;
  var failures = 0;
  var pages = 1;  /* screens sideways (the TV layout) */
  var pageIndex = 0;
  var clock = document.getElementById("clock");
  var pager = document.getElementById("pager");
  var status = document.getElementById("status");
  var late = document.getElementById("late");
  /* The board's words in its language (data-t-*, issue 21), English where a page has none. */
  var WORDS = {expired: body.dataset.tExpired || "expired",
               page: body.dataset.tPage || "Page {page} of {pages}",
               noGames: body.dataset.tNoGames || "No games are running right now."};
  var clockFmt = null;
  try {
    clockFmt = new Intl.DateTimeFormat("en-GB", {hour: "2-digit", minute: "2-digit", timeZone: body.dataset.tz});
  } catch (e) { clockFmt = null; }

  function setServerNow(ms) {
    var n = parseInt(ms, 10);
    if (!isNaN(n)) offset = n - Date.now();
  }
  function serverNow() { return Date.now() + offset; }
  setServerNow(body.dataset.serverNow);

  function fmt(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  /* R20/R22: time left = deadline - server now; at the deadline the call reads as expired even
     before the sweep has re-called the seat. R24: a break's countdown the same way, then "break over". */
  function tick() {
    var now = serverNow();
    var els = live.querySelectorAll(".countdown[data-deadline]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var left = Math.max(0, Math.floor((parseInt(el.dataset.deadline, 10) - now) / 1000));
      el.dataset.secondsLeft = String(left);
      var row = el.closest(".called, .place, .absence");
      if (left <= 0 && row && row.classList.contains("absence")) {
        /* R24: at the deadline the break is over, whether or not the sweep has run yet. */
        row.classList.remove("state-break");
        row.classList.add("state-over");
        row.dataset.state = "over";
        row.textContent = row.dataset.over;  /* drops this countdown too */
        var t = row.closest(".table");
        var seat = t && t.querySelector('.seatmap .s[data-seat="' + row.dataset.seat + '"]');
        if (seat) { seat.classList.remove("s-break"); seat.classList.add("s-over"); }
      } else if (left <= 0) {
        el.textContent = WORDS.expired;
        el.classList.add("expired");
        el.classList.remove("urgent");
        if (row && row.classList.contains("called")) {
          row.classList.remove("state-offered");
          row.classList.add("state-expired");
          row.dataset.state = "expired";
          var label = row.querySelector(".label[data-expired]");
          if (label) label.textContent = label.dataset.expired;
          var table = row.closest(".table");
          var dot = table && table.querySelector('.seatmap .s[data-seat="' + row.dataset.seat + '"]');
          if (dot) { dot.classList.remove("s-offered"); dot.classList.add("s-expired"); }
        } else if (row) {
          var note = el.closest(".note[data-missed]");
          row.classList.remove("place-called");
          row.classList.add("place-expired");
          if (note) note.textContent = note.dataset.missed;  /* drops this countdown too */
        }
      } else {
        el.textContent = fmt(left);
        el.classList.remove("expired");
        el.classList.toggle("urgent", left <= 60);
      }
    }
    if (clock && clockFmt) clock.textContent = clockFmt.format(new Date(now));
  }

  /* ---- paging: only when the board is a fixed-height screen (the TV layout) ----------------- */
  function tvMode() { return window.matchMedia("(min-width: 900px)").matches; }

  function overflows(box) {
    return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
  }

  /* A page whose games all fit side by side gets one column each, so no game sits under another
     while a column stands empty. */
  function spread(box, n) {
    box.classList.add("spread");
    box.style.columnCount = String(n);
    if (!tvMode() || overflows(box)) unspread(box);
  }
  function unspread(box) {
    box.classList.remove("spread");
    box.style.columnCount = "";
  }

  /* One screen sideways: the columns shown plus the gap before the next one. */
  function screenWidth(box) {
    return box.clientWidth + (parseFloat(getComputedStyle(box).columnGap) || 0);
  }

  /* Page i: the board scrolled sideways by i screens. The games flow through the columns one
     after another (a game shorter than a column is never cut), so every page but the last is
     full, and a game longer than a screen runs on over the next pages, each table saying which
     game it is of. */
  function showPage(i) {
    pageIndex = i;
    var box = document.getElementById("games");
    if (box) box.scrollLeft = i * screenWidth(box);
    if (pager) {
      pager.hidden = pages < 2;
      pager.textContent = WORDS.page.replace("{page}", i + 1).replace("{pages}", pages);
    }
  }

  function paginate() {
    var box = document.getElementById("games");
    pages = 1;
    if (box) {
      box.classList.remove("split");
      box.scrollLeft = 0;
      spread(box, box.querySelectorAll(":scope > .game").length);
      if (tvMode() && overflows(box)) {
        box.classList.add("split");  /* first: the tables' game labels take their room */
        pages = Math.max(1, Math.ceil((box.scrollWidth - 1) / screenWidth(box)));
      }
    }
    showPage(Math.min(pageIndex, pages - 1));
  }

  function rotate() {
    if (pages > 1) showPage((pageIndex + 1) % pages);
  }

  /* ---- the poll: If-None-Match with the last ETag; 304 only moves the clock offset ---------- */
  function poll() {
    var headers = {"Accept": "text/html"};
    if (etag) headers["If-None-Match"] = etag;
    fetch(url, {headers: headers, cache: "no-store", credentials: "omit"})
      .then(function (resp) {
        setServerNow(resp.headers.get("X-Server-Now"));
        if (resp.status === 304) return null;
        if (!resp.ok) throw new Error("HTTP " + resp.status);
        etag = resp.headers.get("ETag") || "";
        return resp.text();
      })
      .then(function (html) {
        failures = 0;
        if (status) status.hidden = true;
        if (html !== null) {
          live.innerHTML = html;
          if (late) late.hidden = !live.querySelector("[data-late]");  /* the sweep is late, or ran again */
          tick();
          paginate();
        } else {
          tick();
        }
      })
      .catch(function () {
        failures += 1;
        if (status && failures >= 3) status.hidden = false;  /* the TV says so when it is stale */
      })
      .then(function () {
        if (mode === "poll") window.setTimeout(poll, pollMs);
        else polling = false;  /* the stream is back: it brings the changes */
      });
  }
  function startPolling() {
    mode = "poll";
    if (!polling) {
      polling = true;
      poll();
    }
  }

  /* ---- the push: each message has the room's order of games and the games that changed ------- */
  var LATE = '<span class="late-mark" data-late hidden></span>';
  var NO_GAMES = '<p class="no-games"></p>';

  function sections() {
    var found = {};
    var els = live.querySelectorAll("#games > .game[data-key]");
    for (var i = 0; i < els.length; i++) found[els[i].dataset.key] = els[i];
    return {els: els, byKey: found};
  }

  function inPlace(shown, msg) {
    if (msg.full || shown.els.length !== msg.order.length) return false;
    for (var i = 0; i < msg.order.length; i++) {
      if (shown.els[i].dataset.key !== msg.order[i]) return false;
    }
    return true;
  }

  /* A TV given some games (?games=3,7) shows only those of the room's messages. */
  var chosen = body.dataset.games ? body.dataset.games.split(",").map(function (id) { return "g" + id; }) : null;
  function wanted(key) { return !chosen || chosen.indexOf(key) >= 0; }

  function apply(msg) {
    setServerNow(msg.now);
    msg.order = msg.order.filter(wanted);
    var shown = sections();
    if (inPlace(shown, msg)) {
      Object.keys(msg.games).forEach(function (key) {
        if (msg.games[key] !== null && shown.byKey[key]) shown.byKey[key].outerHTML = msg.games[key];
      });
      var mark = live.querySelector("[data-late]");
      if (msg.late && !mark) live.insertAdjacentHTML("afterbegin", LATE);
      if (!msg.late && mark) mark.remove();
    } else {
      var parts = msg.order.map(function (key) {
        if (Object.prototype.hasOwnProperty.call(msg.games, key)) return msg.games[key] || "";
        return shown.byKey[key] ? shown.byKey[key].outerHTML : "";
      });
      live.innerHTML = (msg.late ? LATE : "") +
        (parts.length ? '<div class="games" id="games">' + parts.join("") + "</div>" : NO_GAMES);
      var none = live.querySelector(".no-games");
      if (none) none.textContent = WORDS.noGames;
    }
    if (late) late.hidden = !msg.late;
    if (status) status.hidden = true;
    tick();
    paginate();
  }

  /* The stream, when the page offers one; polling when it is refused (503: the app serves no more
     streams; 404: the room is not published yet), or keeps failing (a proxy that buffers, an old
     TV), and the stream asked for again a minute later. The browser reconnects by itself with
     Last-Event-ID, and is sent what it missed, or the whole room. */
  function push() {
    var source = new EventSource(eventsUrl);
    var failures = 0;
    mode = "push";
    source.addEventListener("board", function (e) {
      failures = 0;
      apply(JSON.parse(e.data));
    });
    source.addEventListener("clock", function (e) {  /* after the whole state, and as keep-alive */
      setServerNow(e.data);
      tick();
    });
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= 3) {
        source.close();
        startPolling();
        window.setTimeout(push, STREAM_AGAIN_MS * (1 + Math.random() / 5));
      }
    };
  }

  tick();
  paginate();
  window.setInterval(tick, 1000);
  window.setInterval(rotate, pageMs);
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(paginate, 200);
  });
  if (eventsUrl && window.EventSource) push();
  else {
    polling = true;
    window.setTimeout(poll, pollMs);
  }
  window.roomopsBoard = {paginate: paginate, next: rotate, pages: function () { return pages; },
                         mode: function () { return mode; }};
})();
