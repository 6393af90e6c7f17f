"""The Content-Security-Policy in Chromium (roomops.web.headers, docs/security.md): the browser runs
no inline script on roomops' pages, the report's Print button works from its static script, and
every browser test's page fails on anything the policy blocked (tests/browser/conftest.py)."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.browser.conftest import Live, log_in

INJECT = """() => {
  const s = document.createElement("script");
  s.textContent = "window.injected = true";
  document.head.appendChild(s);
  return window.injected === true;
}"""


def test_the_browser_runs_no_inline_script(live: Live, browser: Browser) -> None:
    live.build(lambda room, session, now: room)
    context = browser.new_context()
    said: list[str] = []
    context.on("console", lambda msg: said.append(msg.text))
    pg = context.new_page()
    pg.goto(f"{live.url}/login")
    assert pg.evaluate(INJECT) is False
    assert any("Content Security Policy" in text for text in said), said
    context.close()


def test_the_reports_print_button_runs_from_its_static_script(live, page):
    live.build(lambda room, session, now: room)
    log_in(page, live)
    page.goto(f"{live.url}/desk/cage/report")
    page.evaluate("() => { window.print = () => { window.printed = true; }; }")
    page.click("button[data-print]")
    assert page.evaluate("() => window.printed === true")
