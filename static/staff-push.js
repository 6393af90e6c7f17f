/* Staff screens told by push (issue 21): the page listens to its staff stream, whose notices (ids
   only, R61) say that something this screen shows changed; it then re-reads its own part (with its
   ETag: an unchanged part is a 304). While the stream runs the part is also read every 30 s (a
   change with no audit row, made by hand, shows by then); while the stream is refused or fails
   the screen polls at its own pace, and asks for the stream again a minute later. Behind a push
   server the stream's token, which expires, is a cookie of the stream's path (never in its
   address): each answer of the part renews it.
   roomopsStaffPush(address, read, every, pollMs): read() re-reads the part and resolves false when
   it could not (someone is typing, the page is hidden: tried again a second later); every(ms)
   sets the poll's pace. */
window.roomopsStaffPush = function (address, read, every, pollMs) {
  "use strict";
  // STREAM_AGAIN_MS: a stream given up on is asked for again this long after (and up to a fifth
  // more), as the board does: a deploy does not leave the screen polling until reloaded
  var SAFETY_MS = 30000, TRIES = 3, STREAM_AGAIN_MS = 60000;
  var url = address, source = null, failures = 0, pending = false, retry = null, mode = "poll";

  function refresh() {
    pending = true;
    if (retry) return;  // a read is already waiting for the screen to be free
    read().then(function (done) {
      if (done !== false) { pending = false; return; }
      retry = setTimeout(function () { retry = null; if (pending) refresh(); }, 1000);
    });
  }

  function open() {
    source = new EventSource(url);
    source.addEventListener("open", function () {
      failures = 0;
      mode = "push";
      every(SAFETY_MS);
      refresh();  // what changed while it was not listening
    });
    source.addEventListener("staff", refresh);
    source.addEventListener("error", function () {
      failures += 1;
      mode = "poll";
      every(pollMs);
      if (source.readyState !== EventSource.CLOSED && failures < TRIES) return;  // it reconnects
      source.close();
      if (failures < TRIES) read().then(open);  // refused (a token run out): the answer renews it
      else setTimeout(function () { failures = 0; read().then(open); },
                      STREAM_AGAIN_MS * (1 + Math.random() / 5));
    });
  }

  if (url && window.EventSource) open(); else every(pollMs);
  return {
    mode: function () { return mode; }
  };
};
