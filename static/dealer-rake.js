/* The dealer's rake form (R51): as the pot is typed (or the flop box changes), ask the server the
   most rake that pot allows and show it before the rake is typed. The server's rules are the only
   ones: nothing is computed here. A late answer for an older pot is dropped. The form is found
   at each change (events caught on the document): a live refresh (live.js) may have swapped in
   a new one since the page loaded. */
(function () {
  "use strict";
  var asked = 0, timer = null;

  function ask() {
    var mine = ++asked;
    var form = document.getElementById("rake-form"), out = document.getElementById("rake-limit");
    if (!form || !out) return;
    var pot = form.elements.pot, flop = form.elements.flop;
    if (!pot.value.trim()) { out.textContent = "Type the pot to see the most rake it allows."; return; }
    var url = form.dataset.limitUrl + "?pot=" + encodeURIComponent(pot.value.trim()) +
      "&flop=" + (flop.checked ? "1" : "0");
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        var shown = document.getElementById("rake-limit");
        if (mine !== asked || !shown) return;
        shown.textContent = res.ok ? res.body.text : res.body.error;
        shown.dataset.most = res.ok ? res.body.most : "";
      })
      .catch(function () {
        var shown = document.getElementById("rake-limit");
        if (mine === asked && shown) shown.textContent = "";
      });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(ask, 150); }
  function inRakeForm(e, name) {
    return e.target.name === name && e.target.form && e.target.form.id === "rake-form";
  }
  document.addEventListener("input", function (e) { if (inRakeForm(e, "pot")) soon(); });
  document.addEventListener("change", function (e) { if (inRakeForm(e, "flop")) ask(); });
  // a pot typed before this script ran (it is deferred: a slow tablet shows the form first)
  var typed = document.getElementById("rake-form");
  if (typed && typed.elements.pot && typed.elements.pot.value.trim()) ask();
})();
