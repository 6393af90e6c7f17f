// The day's report's Print button (templates/desk/report.html): no inline handler, so the page
// keeps to the Content-Security-Policy (script-src 'self', docs/security.md).
"use strict";
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
