/* The figures screen (R80; templates/figures/page.html): each chart's Vega-Lite spec drawn as SVG
   with vega-embed (no actions menu; Vega's expressions interpreted, not compiled, as the page's
   Content-Security-Policy allows no eval), axes' numbers in the page's language. When drawn, each
   chart's values as the view holds them are left in window.figuresDrawn[key] (the browser tests
   compare them with the chart's table) and the card gets data-drawn. */
(function () {
  "use strict";
  // d3-format locales (what Vega formats axis numbers with) of the page's languages
  var LOCALES = {
    en: {decimal: ".", thousands: ",", grouping: [3], currency: ["", ""]},
    de: {decimal: ",", thousands: ".", grouping: [3], currency: ["", ""]},
    it: {decimal: ",", thousands: ".", grouping: [3], currency: ["", ""]}
  };
  window.figuresDrawn = {};

  function draw(card, lang) {
    var key = card.dataset.key;
    var spec = JSON.parse(card.querySelector("script.spec").textContent);
    return vegaEmbed(card.querySelector(".chart"), spec, {
      renderer: "svg", actions: false, ast: true, expr: vegaInterpreter.expressionInterpreter,
      formatLocale: LOCALES[lang] || LOCALES.en, defaultStyle: false,
      tooltip: {disableDefaultStyle: true}  // its own <style> element: the CSP allows none; figures.css styles it
    }).then(function (result) {
      window.figuresDrawn[key] = result.view.data("rows").map(function (d) { return Object.assign({}, d); });
      card.dataset.drawn = "true";
    }).catch(function (err) {
      card.dataset.drawn = "failed";
      card.querySelector(".chart").textContent = String(err);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("figures");
    if (!root) return;
    var printing = document.getElementById("print");
    if (printing) printing.addEventListener("click", function () { window.print(); });
    var cards = Array.prototype.slice.call(document.querySelectorAll(".chart-card"));
    Promise.all(cards.map(function (c) { return draw(c, root.dataset.lang); })).then(function () {
      root.dataset.drawn = "true";
    });
  });
})();
