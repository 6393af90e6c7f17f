/* A staff screen's forms (the cage, the dealer's table, the fees, the day's report, the policy,
   the blocked numbers, the staff and the account; templates/_staff_forms.html) are sent from the
   page: a refusal shows in the form it came from, with what was typed kept (refusal.js); a done
   action loads the screen again with its message (each answers with its own page: the cage with
   the same search), or the page a form names in data-done-url (a paid prize's record). Without
   JavaScript they post as usual. */
(function () {
  "use strict";
  var refusal = window.roomopsRefusal;

  /* live.js stops reading the live part once a form is sent (the page is left); a refused one
     stays. */
  function stay() { if (window.roomopsLive) window.roomopsLive.stay(); }

  /* On window, after confirm.js (on document) and live.js have had their say. */
  window.addEventListener("submit", function (ev) {
    var form = ev.target;
    // the attribute: a form's own "method" field (how a cash-out is paid) hides form.method
    var post = (form.getAttribute("method") || "").toLowerCase() === "post";
    if (ev.defaultPrevented || !post || !form.closest("main")) return;
    ev.preventDefault();
    // the last action's message goes: the next one shown is this one's (or its refusal)
    document.querySelectorAll(".flashes .flash").forEach(function (f) { f.remove(); });
    var submitter = ev.submitter && ev.submitter.form === form ? ev.submitter : null;
    var done = form.getAttribute("data-done-url");
    function next() { if (done) window.location.assign(done); else window.location.reload(); }
    refusal.send(form, submitter, function (resp) {
      if (resp.type === "opaqueredirect") { next(); return true; }
      return false;
    }, next, stay);
  });
})();
