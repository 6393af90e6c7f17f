/* A staff form sent from its page (the desk, the cage, the dealer's table) and refused: the
   refusal shows in the form it came from, naming the problem and its rule, with what was typed
   kept (nothing was changed). Without JavaScript the forms post as usual and a refusal is a page
   of its own (errors.py). */
(function () {
  "use strict";

  function boxOf(form) {
    var box = form.querySelector(".refusal");
    if (!box) {
      box = document.createElement("div");
      box.className = "refusal";
      box.setAttribute("role", "alert");
      var button = form.querySelector("[type=submit]");
      if (button) button.parentNode.insertBefore(box, button); else form.appendChild(box);
    }
    return box;
  }

  function clear(form) {
    var box = form.querySelector(".refusal");
    if (box) box.remove();
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
  }

  /* The refusal's message names the problem (and a field first when one is wrong: "buy_in: …"),
     its rule, and that nothing was changed; the named field is marked and gets the cursor. */
  function show(form, answer) {
    var box = boxOf(form);
    box.textContent = "";
    var what = document.createElement("strong");
    what.textContent = "Not done: ";
    box.appendChild(what);
    box.appendChild(document.createTextNode(answer.error || "refused"));
    if (answer.rule) {
      var rule = document.createElement("span");
      rule.className = "rule";
      rule.textContent = answer.rule;
      box.appendChild(document.createTextNode(" "));
      box.appendChild(rule);
    }
    var next = document.createElement("span");
    next.className = "next";
    next.textContent = "Nothing was changed: correct the form and send it again.";
    box.appendChild(next);
    var named = /^(\w+):/.exec(answer.error || "");
    var field = named && form.querySelector("[name=" + named[1] + "]:not([type=hidden])");
    if (field) { field.setAttribute("aria-invalid", "true"); field.focus(); }
  }

  /* ``form`` sent as JSON is asked for: one click, one request, its last refusal cleared.
     ``left(resp)`` takes an answer that leaves the form (a redirect, a page of its own) and says
     so; a JSON answer with ``done`` goes to ``done``; any other is a refusal, shown in the form
     once ``refused()`` has run (the page stays). */
  function send(form, submitter, left, done, refused) {
    var buttons = form.querySelectorAll("[type=submit]");
    buttons.forEach(function (b) { b.disabled = true; });
    clear(form);
    function refuse(answer) { refused(); show(form, answer); }
    // the attribute: a form's own field named "action" would hide the property; a form without
    // one posts to its page (the policy's)
    fetch(form.getAttribute("action") || window.location.href, { method: "POST", body: new FormData(form, submitter),
                                         credentials: "same-origin", redirect: "manual",
                                         headers: { Accept: "application/json" } })
      .then(function (resp) {
        if (left(resp)) return null;
        return resp.json().catch(function () {
          return { error: "the server answered " + resp.status + " " + resp.statusText };
        }).then(function (answer) { if (resp.ok && answer.done) done(answer); else refuse(answer); });
      })
      .catch(function () { refuse({ error: "the screen could not reach the server; try again" }); })
      .finally(function () { buttons.forEach(function (b) { b.disabled = false; }); });
  }

  window.roomopsRefusal = { send: send, show: show, clear: clear };
})();
