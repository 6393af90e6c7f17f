"""R61: log-out ends every copy of the session cookie (docs/security.md, "Sessions"): a second
browser holding a copy of the first's cookies no longer opens the desk."""

from tests.browser.conftest import log_in


def test_log_out_ends_a_copied_session(live, page, browser):
    live.build(lambda room, session, now: room)
    log_in(page, live)
    assert "/desk" in page.url
    other = browser.new_context()
    try:
        other.add_cookies(page.context.cookies())
        copy = other.new_page()
        copy.goto(f"{live.url}/desk")
        assert "/desk" in copy.url and "/login" not in copy.url
        page.locator("form[action$='/logout'] button").first.click()
        page.wait_for_url("**/login*")
        copy.goto(f"{live.url}/desk")
        assert "/login" in copy.url
    finally:
        other.close()
