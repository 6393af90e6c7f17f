/* The supervisor's desk: live countdowns, the seats and lists re-read when the staff stream says the
   floor changed (else a quiet poll), and the action dialog.
   Time: the server's clock is the truth (tests freeze it); we keep offset = server now - Date.now(). */
(function () {
  "use strict";
  var body = document.body;
  var live = document.getElementById("desk-live");
  if (!live) return;
  var dialog = document.getElementById("act");
  var pollMs = (parseFloat(body.dataset.poll) || 3) * 1000;
  var etag = body.dataset.etag || "";
  var offset = 0;

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

  /* R20/R22: time left = deadline - server now; at the deadline the seat reads as expired. */
  function tick() {
    var now = serverNow();
    live.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.floor((parseInt(el.dataset.deadline, 10) - now) / 1000));
      var seat = el.closest(".seat");
      if (left <= 0) {
        el.textContent = "expired";
        el.classList.remove("countdown");
        if (seat) { seat.classList.remove("state-offered"); seat.classList.add("state-expired"); seat.dataset.state = "expired"; }
      } else {
        el.textContent = fmt(left);
        if (seat) seat.classList.toggle("urgent", left <= 60);
      }
    });
    /* R23-R26: a break's time left and an away player's time away, from the server's clock. */
    live.querySelectorAll(".absence.break[data-until]:not(.gone)").forEach(function (el) {
      var left = Math.max(0, Math.floor((parseInt(el.dataset.until, 10) - now) / 1000));
      el.textContent = left > 0 ? "break " + fmt(left) : "break over";
      el.classList.toggle("gone", left <= 0);
    });
    live.querySelectorAll(".absence.away[data-since]").forEach(function (el) {
      el.textContent = "away " + Math.floor((now - parseInt(el.dataset.since, 10)) / 60000) + "m";
    });
    live.querySelectorAll(".tag.note-needed[hidden]").forEach(function (el) {
      el.hidden = parseInt(el.dataset.due, 10) > now;  // R25: shown once due, with no change needed
    });
    live.querySelectorAll(".tag.offer[data-deadline]:not(.gone)").forEach(function (el) {
      if (parseInt(el.dataset.deadline, 10) <= now) {
        el.classList.add("gone");
        el.textContent = "call expired " + el.dataset.seat;
      }
    });
    /* The sweep is late: for how long, on the server's clock (the fragment is redrawn when it runs). */
    live.querySelectorAll(".sweep-late[data-since] .age").forEach(function (el) {
      el.textContent = String(Math.max(0, Math.floor((now - parseInt(el.parentNode.dataset.since, 10)) / 1000)));
    });
    reshapeWhenFree();
    var clock = document.getElementById("clock");
    if (clock) {
      try {
        clock.textContent = new Date(now).toLocaleTimeString("en-GB", { timeZone: body.dataset.tz || "UTC", hour12: false });
      } catch (e) { /* unknown zone: keep the server's text */ }
    }
  }

  /* Never swap while the supervisor is working: a dialog open or a field focused in the live part. */
  function busy() {
    if (dialog && dialog.open) return true;
    var a = document.activeElement;
    return !!(a && live.contains(a) && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName));
  }

  var sync = document.getElementById("sync"), syncTitle = sync ? sync.title : "";
  function mark(state) { if (sync) { sync.dataset.state = state; } }

  /* While an action is sent, the part is not read: when the desk is loaded again after it, the
     read's answer would carry the session cookie as it was before the new page took its message
     (the flash), and could set that message again (it would show twice). */
  var leaving = false;
  window.addEventListener("pageshow", function () { leaving = false; });

  /* The games this desk shows, by key: the server sends only the others, and an empty section
     with its key (data-same) for each of these, which stays as it is. */
  function shownGames() {
    var shown = {};
    live.querySelectorAll(":scope > section.game[data-key]").forEach(function (s) { shown[s.dataset.key] = s; });
    return shown;
  }

  /* The new live part, keeping the games that did not change where they are (nothing to parse or
     lay out again). The games off the screen are not laid out (content-visibility in
     roomops.css): a redrawn game takes its placeholder's height until drawn, so each keeps the
     height its game had and what the supervisor is looking at stays where it was. */
  function swapKeepingPlace(html) {
    var shown = shownGames(), heights = {};
    var drawn = document.createElement("template");
    drawn.innerHTML = html;
    var wanted = Array.prototype.map.call(drawn.content.children, function (el) {
      return el.hasAttribute("data-same") ? shown[el.dataset.key] : el;  // keys it named
    });
    live.querySelectorAll(":scope > section.game").forEach(function (s) { heights[s.id] = s.clientHeight; });
    drawn.content.querySelectorAll("section.game:not([data-same])").forEach(function (s) {
      if (heights[s.id]) s.style.containIntrinsicSize = "auto " + heights[s.id] + "px";
    });
    // the live part is drawn once for every desk, with no CSRF token: its forms take the page's
    drawn.content.querySelectorAll("input[name=csrf_token]").forEach(function (i) { i.value = body.dataset.csrf; });
    // out go the parts not kept; the kept ones stay in place (moved, they would be laid out again)
    var kept = new Set(wanted);
    Array.prototype.slice.call(live.childNodes).forEach(function (n) { if (!kept.has(n)) n.remove(); });
    var at = live.firstChild;
    wanted.forEach(function (el) {
      if (el === at) { at = at.nextSibling; } else { live.insertBefore(el, at); }
    });
  }

  /* The page's forms around the live part (the panel, the action dialog) list the games and
     tables and say the room's policy: when a read shows another shape (a table opened here or at
     another desk), they are drawn again and swapped in, once nothing is being typed in them and
     no window is open; until then the badge says so. */
  function shapeOf() {
    var meta = live.querySelector(".live-meta");
    return meta ? meta.dataset.shape : "";
  }
  // drawnFor: the live part's shape when the forms were last drawn again; they are not asked for
  // again until it moves (a change landing between the two reads is settled by the next read)
  var pageShape = shapeOf(), outdated = false, reshaping = false, drawnFor = null;

  function typedIn() {
    return Array.prototype.some.call(document.querySelectorAll(".desk-layout form input, .desk-layout form textarea"),
      function (el) {
        if (el.type === "hidden" || live.contains(el) || (dialog && dialog.contains(el))) return false;
        if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
        return el.value !== el.defaultValue;
      });
  }

  function working() {
    return (dialog && dialog.open) || (keysDialog && keysDialog.open) || leaving || typedIn();
  }

  /* The panel drawn again, its sections open or shut as the supervisor left them. */
  function swapPanel(fresh) {
    var panel = document.querySelector(".desk-layout > aside.panel");
    var open = Array.prototype.map.call(panel.querySelectorAll("details"), function (d) { return d.open; });
    fresh.querySelectorAll("details").forEach(function (d, i) { if (i < open.length) d.open = open[i]; });
    panel.replaceWith(fresh);
  }

  function reshapeWhenFree() {
    if (!outdated || reshaping || drawnFor === shapeOf()) return;
    if (working()) {
      mark("outdated");
      if (sync) sync.title = "games or tables changed: the forms are drawn again when you have sent or cleared what you are typing";
      return;
    }
    reshaping = true;
    fetch(body.dataset.forms, { cache: "no-store", credentials: "same-origin" })
      .then(function (resp) {
        if (resp.redirected || resp.status === 401) { window.location.reload(); return null; }
        return resp.ok ? resp.text() : null;
      })
      .then(function (html) {
        if (html === null) { mark("error"); return; }
        if (working()) return;  // the supervisor started meanwhile: the next tick tries again
        var drawn = document.createElement("template");
        drawn.innerHTML = html;
        var fresh = drawn.content.firstElementChild;
        swapPanel(fresh.querySelector("aside.panel"));
        dialog.replaceChildren.apply(dialog, Array.prototype.slice.call(fresh.querySelector("dialog#act").childNodes));
        body.dataset.tz = fresh.dataset.tz;
        drawnFor = shapeOf();
        pageShape = fresh.dataset.shape;
        outdated = shapeOf() !== pageShape;
        if (sync) sync.title = syncTitle;
        mark("ok");
      })
      .catch(function () { mark("error"); })
      .finally(function () { reshaping = false; });
  }

  /* One read at a time: the staff stream, the timer and an action's answer may all ask at once.
     One asked during a read is made after it (it may be about a later change). */
  var reading = null, next = null;
  function poll() {
    if (reading) {
      if (!next) next = reading.then(function () { next = null; return poll(); });
      return next;
    }
    if (leaving || document.hidden || busy()) { mark("paused"); return Promise.resolve(false); }
    var url = body.dataset.fragment;
    var shows = Object.keys(shownGames()).join(" ");
    reading = fetch(url, { cache: "no-store", credentials: "same-origin",
                           headers: { "If-None-Match": '"' + etag + '"', "X-Desk-Shows": shows } })
      .then(function (resp) {
        setServerNow(resp.headers.get("X-Server-Now"));
        if (resp.status === 304) { mark("ok"); return null; }
        if (resp.redirected || resp.status === 401) { window.location.reload(); return null; }
        if (!resp.ok) { mark("error"); return null; }
        var tag = (resp.headers.get("ETag") || "").replace(/^W\//, "").replace(/"/g, "");
        return resp.text().then(function (html) {
          if (busy()) return;  // the supervisor started typing while we fetched: try next time
          var focused = focusedSeat();
          swapKeepingPlace(html);
          if (focused) refocus(focused);
          etag = tag;
          body.dataset.etag = tag;
          mark("ok");
          outdated = outdated || shapeOf() !== pageShape;
          reshapeWhenFree();
          tick();
        });
      })
      .catch(function () { mark("error"); })
      .finally(function () { reading = null; });
    return reading;
  }

  /* ---- the action dialog -------------------------------------------------------------------- */
  function withId(template, id) { return template.replace(/\/0(\/|$)/, "/" + id + "$1"); }

  function prepare(section, id, fills) {
    section.hidden = false;
    section.querySelectorAll("form[data-action]").forEach(function (f) { f.action = withId(f.dataset.action, id); });
    section.querySelectorAll("a[data-href]").forEach(function (a) { a.href = withId(a.dataset.href, id); });
    section.querySelectorAll("input:not([type=hidden]):not([type=checkbox])").forEach(function (i) { i.value = ""; });
    Object.keys(fills || {}).forEach(function (name) {
      section.querySelectorAll("[name=" + name + "]").forEach(function (el) { el.value = fills[name]; });
    });
    section.querySelectorAll("input[data-disables]").forEach(disables);
  }

  /* R36: a swap is with another player of the same table: only they are offered, as the live
     part shows them now. */
  function swapOptions(select, card, seat) {
    if (!select) return;
    select.textContent = "";
    card.querySelectorAll(".seat[data-state=seated]").forEach(function (s) {
      if (s === seat) return;
      select.appendChild(new Option("T" + card.dataset.tableName + " seat " + s.dataset.seatNo + " · " + s.dataset.player, s.dataset.holdId));
    });
  }

  /* A ticked box that makes a field meaningless turns it off (a disabled field is not sent). */
  function disables(box) {
    var field = box.form.elements.namedItem(box.dataset.disables);
    if (field) { field.disabled = box.checked; if (box.checked) field.value = ""; }
  }

  /* R27: a returning player's required buy-in and why, shown above the buy-in and filled in. */
  function showReturn(section, why, min) {
    var note = section.querySelector(".return-note");
    note.hidden = !why;
    note.textContent = why ? why + " (R27)" : "";
    if (why) section.querySelectorAll("[name=buy_in]").forEach(function (el) { el.value = min; });
  }

  /* R29: seating a player who plays over a seat asks for the chips they leave it with, counted;
     the field is shown (and sent) only for such a player, named with the seat they play over. */
  function overplayerField(form, playerId) {
    var label = form.querySelector("label[data-overplayer]");
    if (!label) return;
    var seat = playerId ? document.querySelector(".seat[data-playover-player='" + playerId + "']") : null;
    var input = label.querySelector("input");
    label.hidden = !seat;
    input.required = !!seat;
    input.disabled = !seat;
    if (seat) {
      label.firstElementChild.textContent = seat.dataset.playover + " plays over seat " + seat.dataset.seatNo +
        " at table " + seat.closest(".table-card").dataset.tableName + ": their stack there";
    }
  }

  function lookUpReturn(form) {
    var ref = /#\s*(\d+)\s*$|^\s*(\d+)\s*$/.exec(form.querySelector("[name=player_id]").value);
    overplayerField(form, ref ? ref[1] || ref[2] : "");
    var section = form.closest("section");
    if (!ref || !section.dataset.gameId) { showReturn(section, "", ""); return; }
    var url = withId(form.dataset.return, ref[1] || ref[2]) + "?game_id=" + section.dataset.gameId;
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (resp) { return resp.ok ? resp.json() : {}; })
      .then(function (req) { showReturn(section, req.why || "", req.minimum || section.dataset.min); })
      .catch(function () { showReturn(section, "", ""); });
  }

  function entryOptions(select, game, table) {
    select.innerHTML = "";
    var rows = [];
    if (table) table.querySelectorAll("tr.entry").forEach(function (r) { rows.push([r, "reserve"]); });
    if (game) game.querySelectorAll("table[data-list=waiting] tr.entry").forEach(function (r) { rows.push([r, "waiting"]); });
    rows.sort(function (a, b) { return parseInt(a[0].dataset.queue, 10) - parseInt(b[0].dataset.queue, 10); });
    rows.forEach(function (pair) {
      var r = pair[0];
      if (r.classList.contains("is-offered") || r.dataset.awaiting === "1") return;
      var o = document.createElement("option");
      o.value = r.dataset.entryId;
      o.textContent = r.dataset.name + " (" + pair[1] + " #" + r.dataset.position + ")";
      select.appendChild(o);
    });
    if (!select.options.length) {
      var none = document.createElement("option");
      none.value = ""; none.textContent = "nobody eligible on the lists";
      select.appendChild(none);
    }
  }

  /* R14: the seat goes first to whoever is next for it, as the sweep decides (a seat change at the
     table, a must-move player, the lists): the server names them; the lists' entries follow, for
     an offer out of order with a reason. */
  function nextOption(select, game, card, seatNo) {
    entryOptions(select, game, card);
    if (!select.options[0].value) select.remove(0);  // "nobody on the lists": the next is asked
    var next = new Option("the next for this seat", "");
    select.insertBefore(next, select.firstChild);
    select.value = "";
    var url = withId(withId(select.dataset.next, card.dataset.tableId), seatNo);
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (resp) { return resp.ok ? resp.json() : {}; })
      .then(function (who) { next.textContent = who.name ? "Next: " + who.name : "nobody is due this seat"; })
      .catch(function () { /* the server decides when the form is sent */ });
  }

  /* R17, R18, R36: an offer to a player seated in the game is claimed by moving them, carrying
     their stack (filled in with the last known one); anyone else's with a buy-in. */
  function claimForms(section, seat) {
    var kind = seat.dataset.offer || "list";
    section.querySelectorAll("form[data-claim]").forEach(function (f) { f.hidden = f.dataset.claim !== kind; });
    if (kind !== "list") section.querySelectorAll("form[data-claim=" + kind + "] input[name=stack]").forEach(function (i) { i.value = seat.dataset.stack || ""; });
  }

  /* R29: start a playover (the next in list order unless another entry is chosen) or end one. */
  function playoverForms(seat, game, card) {
    var section = dialog.querySelector("section[data-for=seat-absent]");
    section.querySelectorAll("form[data-when]").forEach(function (f) {
      f.hidden = (f.dataset.when === "played") !== !!seat.dataset.playover;
    });
    var select = section.querySelector("select[name=entry_id]");
    entryOptions(select, game, card);
    select.insertBefore(new Option("the next in list order", ""), select.firstChild);
    select.value = "";
  }

  function open(kind, target) {
    if (!dialog) return;
    dialog.querySelectorAll("section[data-for]").forEach(function (s) { s.hidden = true; });
    var title = document.getElementById("act-title"), sub = document.getElementById("act-sub");
    var game = target.closest(".game"), card = target.closest(".table-card");
    var min = game ? game.dataset.min : "";
    sub.textContent = "";
    if (kind === "seat") {
      var seat = target.closest(".seat"), state = seat.dataset.state;
      title.textContent = "Table " + card.dataset.tableName + " · seat " + seat.dataset.seatNo;
      if (state === "empty" || state === "extra") {
        var sec = dialog.querySelector("section[data-for=seat-empty]");
        prepare(sec, 0, { table_id: card.dataset.tableId, seat_no: seat.dataset.seatNo, buy_in: min });
        sec.dataset.gameId = game.dataset.gameId;
        sec.dataset.min = min;
        showReturn(sec, "", "");
        sec.querySelectorAll("form").forEach(function (f) { overplayerField(f, ""); });
        nextOption(sec.querySelector("select[name=entry_id]"), game, card, seat.dataset.seatNo);
        // R4: the extra seat of a full table needs the floor's written reason
        sec.querySelectorAll("[data-over]").forEach(function (l) {
          l.hidden = state !== "extra";
          l.querySelector("input").required = state === "extra";
        });
        sub.textContent = state === "extra" ? "One over a full table: nobody new sits here until it is under its count again (R4)." : "Open seat.";
      } else if (state === "seated") {
        var absent = seat.dataset.absence;
        prepare(dialog.querySelector("section[data-for=" + (absent ? "seat-absent" : "seat-present") + "]"), seat.dataset.holdId, { buy_in: min });
        // the break's stack starts at the last known one, the seat's buy-in: counted over, not typed
        dialog.querySelectorAll("section[data-for=seat-present] [data-fill=stack]").forEach(function (el) { el.value = seat.dataset.stack; });
        prepare(dialog.querySelector("section[data-for=seat-seated]"), seat.dataset.holdId, {});
        if (absent) playoverForms(seat, game, card);
        swapOptions(dialog.querySelector("section[data-for=seat-seated] select[name=other_hold_id]"), card, seat);
        sub.textContent = seat.dataset.player + (absent ? " · " + (absent === "break" ? "on a break" : "away")
          : " · bought in for " + seat.dataset.buyin) + (seat.dataset.playover ? " · played over by " + seat.dataset.playover : "") +
          (seat.dataset.over ? " · one over (R4): " + seat.dataset.over : "");
      } else if (state === "held") {
        prepare(dialog.querySelector("section[data-for=seat-held]"), seat.dataset.requestId, {});
        sub.textContent = seat.dataset.player + " · seat change held: no claim timer runs; the move carries the last known stack";
      } else {
        var osec = dialog.querySelector("section[data-for=seat-offered]");
        prepare(osec, seat.dataset.holdId, { buy_in: min });
        overplayerField(osec.querySelector("form"), seat.dataset.playerId);
        showReturn(osec, seat.dataset.returnWhy || "", seat.dataset.returnMin);
        claimForms(osec, seat);
        sub.textContent = seat.dataset.player + (state === "expired"
          ? " · the claim time has run out (R22): the seat goes to the next player at the sweep"
          : " · offered, claim timer running. Tell the player (R40, R53): " + game.dataset.terms);
      }
    } else if (kind === "entry") {
      var row = target.closest("tr.entry");
      var esec = dialog.querySelector("section[data-for=entry]");
      prepare(esec, row.dataset.entryId, {});
      esec.querySelectorAll("form[data-only=awaiting]").forEach(function (f) { f.hidden = row.dataset.awaiting !== "1"; });
      title.textContent = row.dataset.name;
      sub.textContent = (row.dataset.tableId ? "Reserve list, table " + card.dataset.tableName : "Waiting list") +
        " · position " + row.dataset.position + " of " + row.dataset.count;
    } else if (kind === "table") {
      prepare(dialog.querySelector("section[data-for=table]"), card.dataset.tableId, {});
      title.textContent = "Table " + card.dataset.tableName;
    } else if (kind === "game") {
      var gsec = dialog.querySelector("section[data-for=game][data-game-id='" + game.dataset.gameId + "']");
      if (gsec) gsec.hidden = false;
      title.textContent = game.querySelector(".variant").textContent + " " + game.querySelector(".stakes").textContent;
    }
    dialog.showModal();
    var first = dialog.querySelector("section:not([hidden]) form:not([hidden]) input:not([type=hidden]), section:not([hidden]) select");
    if (first) first.focus();
  }

  live.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-act]");
    if (!btn || !live.contains(btn)) return;
    ev.preventDefault();
    open(btn.dataset.act, btn);
  });
  if (dialog) dialog.addEventListener("close", function () { setTimeout(poll, 50); });
  // on the dialog itself: its forms are drawn again when the games or tables change
  if (dialog) dialog.addEventListener("change", function (ev) {
    var el = ev.target;
    if (el.matches("input[data-disables]")) disables(el);
    if (el.name === "player_id" && el.form && el.form.dataset.return) lookUpReturn(el.form);
  });

  /* ---- forms: sent from here, so a refusal shows where it was tried and what was typed stays ---- */
  var refusal = window.roomopsRefusal;  // refusal.js

  /* A message where the server's flashes are. */
  function flash(className, text) {
    var box = document.createElement("div");
    box.className = "flash " + className;
    box.setAttribute("role", "status");
    box.textContent = text;
    document.querySelector(".flashes").appendChild(box);
    return box;
  }

  /* Green messages fade after a while. */
  function fadeLater(boxes) {
    setTimeout(function () { boxes.forEach(function (f) { f.classList.add("fade"); }); }, 8000);
  }

  /* An action's message: the last one only. */
  function say(text) {
    document.querySelectorAll(".flashes .flash:not(.key-hint)").forEach(function (f) { f.remove(); });
    fadeLater([flash("ok", text)]);
  }

  /* A player just added goes first among the suggestions, as the page would draw them. */
  function suggest(player) {
    var list = document.getElementById("players");
    if (!list) return;
    var option = document.createElement("option");
    option.value = player.name + " #" + player.id;
    list.insertBefore(option, list.firstChild);
  }

  /* Done: the dialog closes, the form is emptied, the live part is read again (the drawing every
     desk shares) and the message shows with the seats it speaks of. */
  function finished(form, answer) {
    leaving = false;
    if (dialog && dialog.contains(form) && dialog.open) dialog.close();
    form.reset();
    // the keys work at once, as on a page just loaded: the cursor leaves the panel's form
    if (form.contains(document.activeElement)) document.activeElement.blur();
    if (answer.player) suggest(answer.player);
    if (form.closest("[data-twins]")) {  // R10 answered: the form it came from starts again
      var added = document.querySelector("form[data-form=add-player]");
      if (added) added.reset();
      dropTwins();
    }
    poll().then(function () { say(answer.done); });
  }

  /* R10's "did you mean" (a page of its own without JavaScript): its card under the form it
     answers, on the desk; its forms are sent from here like the rest. Nothing was written. */
  function didYouMean(form, resp) {
    resp.text().then(function (html) {
      var card = new DOMParser().parseFromString(html, "text/html").querySelector("[data-twins]");
      if (!card) { form.submit(); return; }
      card.querySelectorAll("[data-page-only]").forEach(function (el) { el.remove(); });
      dropTwins();
      form.after(document.adoptNode(card));
      leaving = false;
      var first = card.querySelector("[type=submit]");
      if (first) first.focus();
    });
  }

  function dropTwins() { document.querySelectorAll(".desk-layout [data-twins]").forEach(function (c) { c.remove(); }); }

  /* Sent from here: JSON {done} re-reads the live part (and the forms when the games or tables
     changed); a redirect only when the session ended (the log-in page); a page is R10's. */
  function send(form, submitter) {
    leaving = true;
    refusal.send(form, submitter, function (resp) {
      if (resp.type === "opaqueredirect") { window.location.assign(body.dataset.desk); return true; }
      if ((resp.headers.get("Content-Type") || "").indexOf("text/html") === 0) { didYouMean(form, resp); return true; }
      return false;
    }, function (answer) { finished(form, answer); }, function () { leaving = false; });
  }

  /* On window, after confirm.js (on document) has had its say: a question answered "no" stops it. */
  window.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !form.closest(".desk-layout") || form.method !== "post") return;
    ev.preventDefault();
    send(form, ev.submitter && ev.submitter.form === form ? ev.submitter : null);
  });

  /* ---- the keyboard (docs/desk.md, "Keyboard"): never while typing in a field --------------- */
  var keysDialog = document.getElementById("keys");

  function seatButtons() { return Array.prototype.slice.call(live.querySelectorAll(".seat > button")); }

  function focusedSeat() {
    var a = document.activeElement;
    var seat = a && live.contains(a) ? a.closest(".seat") : null;
    return seat ? { table: seat.closest(".table-card").dataset.tableId, no: seat.dataset.seatNo } : null;
  }

  function seatButton(table, no) {
    return live.querySelector(".table-card[data-table-id='" + table + "'] .seat[data-seat-no='" + no + "'] > button");
  }

  function refocus(where) {
    var button = seatButton(where.table, where.no);
    if (button) button.focus();
  }

  /* ←/→ the previous/next seat of the room; ↑/↓ the same seat at the previous/next table. */
  function moveSeat(key) {
    var a = document.activeElement, seat = a && a.closest ? a.closest(".seat") : null;
    if (!seat || !live.contains(seat)) return false;
    var buttons = seatButtons(), at = buttons.indexOf(a), target;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      target = buttons[at + (key === "ArrowLeft" ? -1 : 1)];
    } else {
      var cards = Array.prototype.slice.call(live.querySelectorAll(".table-card"));
      var card = cards[cards.indexOf(seat.closest(".table-card")) + (key === "ArrowUp" ? -1 : 1)];
      var row = card ? card.querySelectorAll(".seat > button") : [];
      var index = Array.prototype.indexOf.call(seat.parentNode.children, seat);
      target = row[Math.min(index, row.length - 1)];
    }
    if (target) target.focus();
    return true;
  }

  function hint(text) {
    var box = flash("warn key-hint", text);
    setTimeout(function () { box.remove(); }, 4000);
  }

  function openPanel(name, field) {
    var form = document.querySelector("form[data-form=" + name + "]");
    if (!form) return;
    form.closest("details").open = true;
    form.querySelector("[name=" + field + "]").focus();
  }

  /* The seat the key is for: the focused one when it is in one of the states, else (for offer
     and seat) the first open seat, or the offer with the least time left: the next to seat. */
  function seatFor(fits, pickFirst) {
    var a = document.activeElement, seat = a && live.contains(a) ? a.closest(".seat") : null;
    if (seat && fits(seat)) return seat;
    if (!pickFirst) return null;
    var found = Array.prototype.slice.call(live.querySelectorAll(".seat")).filter(function (s) {
      return fits(s) && s.querySelector("button");
    });
    found.sort(function (x, y) { return (parseInt(x.dataset.deadline, 10) || 0) - (parseInt(y.dataset.deadline, 10) || 0); });
    return found[0] || null;
  }

  /* Open the seat's dialog and put the cursor on what the key is for (a field, or the button
     when everything is filled in, so Enter sends it). */
  function onSeat(seat, focus) {
    open("seat", seat.querySelector("button"));
    var el = dialog.querySelector(focus);
    if (el) el.focus();
  }

  function seatKey(fits, pickFirst, focus, missing) {
    return function () {
      var seat = seatFor(fits, pickFirst);
      if (seat) onSeat(seat, typeof focus === "function" ? focus(seat) : focus); else hint(missing);
    };
  }

  function inState() {
    var states = Array.prototype.slice.call(arguments);
    return function (seat) { return states.indexOf(seat.dataset.state) >= 0; };
  }
  function atTable(seat) { return seat.dataset.state === "seated" && !seat.dataset.absence; }
  function absent(seat) { return seat.dataset.state === "seated" && !!seat.dataset.absence; }

  var PICK = "pick a seat first (t, then the arrow keys; ? lists the keys): ";
  var KEYS = {
    a: function () { openPanel("add-player", "first_name"); },
    l: function () { openPanel("join", "player_id"); },
    o: seatKey(inState("empty"), true, "section[data-for=seat-empty] form [type=submit]", "no seat is open"),
    s: seatKey(inState("offered", "expired"), true, "section[data-for=seat-offered] form:not([hidden]) input:not([type=hidden])",
               "no seat is offered: o offers an open one"),
    b: seatKey(atTable, false, "section[data-for=seat-present] input[name=stack]", PICK + "a player at the table"),
    r: seatKey(absent, false, function (seat) {
      return "section[data-for=seat-absent] form[data-when=" + (seat.dataset.playover ? "played] input[name=overplayer_stack]" : "unplayed] [type=submit]");
    }, PICK + "a player on a break or away"),
    x: seatKey(inState("seated"), false, "section[data-for=seat-seated] input[name=leave_amount]", PICK + "a seated player"),
    t: function () { var first = seatButtons()[0]; if (first) first.focus(); },
    "?": function () { if (keysDialog) keysDialog.showModal(); }
  };

  function typing(el) {
    return !!el && (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) || el.isContentEditable);
  }

  document.addEventListener("keydown", function (ev) {
    if (!dialog || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || ev.isComposing) return;
    var el = ev.target;
    // Enter on a ticked box of a desk form sends it, as Enter in its text fields does
    if (ev.key === "Enter" && el.form && /^(checkbox|radio)$/.test(el.type) && el.closest(".desk-layout")) {
      ev.preventDefault();
      el.form.requestSubmit();
      return;
    }
    var windowOpen = (dialog && dialog.open) || (keysDialog && keysDialog.open);
    if (ev.key === "Escape" && typing(el) && !windowOpen) { el.blur(); return; }  // out of the field: keys work
    if (typing(el) || windowOpen) return;
    if (/^Arrow/.test(ev.key)) { if (moveSeat(ev.key)) ev.preventDefault(); return; }
    var act = ev.key.length === 1 ? KEYS[ev.key.toLowerCase()] : null;
    if (!act) return;
    ev.preventDefault();  // the key is the shortcut's, not the field it puts the cursor in
    act();
  });

  fadeLater(document.querySelectorAll(".flash.ok"));  // the server's, on a page loaded

  /* Polled at the page's pace, or told by the staff stream and read every 30 s (staff-push.js). */
  var timer = null, pushed = null;
  function every(ms) { clearInterval(timer); timer = setInterval(poll, ms); }
  pushed = window.roomopsStaffPush ? window.roomopsStaffPush(body.dataset.staffEvents, poll, every, pollMs) : null;
  if (!pushed) every(pollMs);

  // for the browser tests: poll now, no waiting; whether the stream runs
  window.roomopsDesk = { poll: poll, tick: tick, mode: function () { return pushed ? pushed.mode() : "poll"; } };
  tick();
  setInterval(tick, 1000);
})();
