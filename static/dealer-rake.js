/* The dealer's rake form (R51): as the pot is typed (or the flop box changes), ask the server the
   most rake that pot allows and show it before the rake is typed. The server's rules are the only
   ones: nothing is computed here. A late answer for an older pot is dropped. */
(function () {
  "use strict";
  var form = document.getElementById("rake-form");
  if (!form) return;
  var pot = form.elements.pot, flop = form.elements.flop;
  var out = document.getElementById("rake-limit");
  var asked = 0, timer = null;

  function ask() {
    var mine = ++asked;
    if (!pot.value.trim()) { out.textContent = "Type the pot to see the most rake it allows."; return; }
    var url = form.dataset.limitUrl + "?pot=" + encodeURIComponent(pot.value.trim()) +
      "&flop=" + (flop.checked ? "1" : "0");
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (mine !== asked) return;
        out.textContent = res.ok ? res.body.text : res.body.error;
        out.dataset.most = res.ok ? res.body.most : "";
      })
      .catch(function () { if (mine === asked) out.textContent = ""; });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(ask, 150); }
  pot.addEventListener("input", soon);
  flop.addEventListener("change", ask);
})();
