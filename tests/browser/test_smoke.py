"""The browser harness itself: Chromium reaches the live app and logs in."""

from tests.browser.conftest import log_in


def test_login_page_logs_in(live, page):
    live.build(lambda room, session, now: room)
    log_in(page, live)
    assert "/desk" in page.url
