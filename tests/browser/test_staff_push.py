"""The staff screens told by push (issue 21): a change made at one desk shows on another desk and
on the dealer's screen of its table within 2 s, while their polls are slowed to 30 s (so only the
push explains it); where the app serves no stream the screens poll."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from roomops.dealer import views as dealer_views
from roomops.desk import views as desk_views
from roomops.push.embedded import KEY
from tests.browser.conftest import Live, full_table, log_in


@pytest.fixture()
def slow_polls(monkeypatch):
    monkeypatch.setattr(desk_views, "POLL_SECONDS", 30)
    monkeypatch.setattr(dealer_views, "POLL_SECONDS", 30)


def screen(browser: Browser, live: Live, username: str, path: str) -> tuple[BrowserContext, Page]:
    context = browser.new_context()
    page = context.new_page()
    log_in(page, live, username)
    page.goto(f"{live.url}{path}")
    return context, page


def test_a_desk_change_shows_on_the_other_desk_and_the_dealer_within_2_s(live, browser, slow_polls):
    table_id, held = live.build(full_table)
    one_ctx, one = screen(browser, live, "main-supervisor", "/desk")
    two_ctx, two = screen(browser, live, "main-admin", "/desk")
    deal_ctx, dealer = screen(browser, live, "main-dealer", f"/dealer/tables/{table_id}")
    try:
        for page, name in ((one, "roomopsDesk"), (two, "roomopsDesk"), (dealer, "roomopsLive")):
            page.wait_for_function(f"() => window.{name}.mode() === 'push'")
        expect(two.locator("#desk-live .absence.away")).to_have_count(0)
        expect(dealer.locator("#dealer-live .state", has_text="away")).to_have_count(0)
        two.evaluate("() => { window.__loaded = 'still here'; }")

        token = one.locator("input[name=csrf_token]").first.get_attribute("value")
        resp = one_ctx.request.post(f"{live.url}/desk/seats/{held[2].id}/away", max_redirects=0,
                                    form={"csrf_token": token or ""})
        committed = time.monotonic()
        assert resp.status in (302, 303), resp.text()

        expect(two.locator("#desk-live .absence.away")).to_have_count(1, timeout=2000)
        expect(dealer.locator("#dealer-live .state", has_text="away")).to_have_count(1, timeout=2000)
        assert time.monotonic() - committed < 2.0
        assert two.evaluate("() => window.__loaded") == "still here"  # swapped in, no reload
    finally:
        for context in (one_ctx, two_ctx, deal_ctx):
            context.close()


def test_where_the_app_serves_no_stream_the_staff_screens_poll(live, browser):
    table_id, held = live.build(full_table)
    live.app.extensions[KEY].streams = 0  # every stream refused, as past the app's limit
    desk_ctx, desk = screen(browser, live, "main-supervisor", "/desk")
    deal_ctx, dealer = screen(browser, live, "main-dealer", f"/dealer/tables/{table_id}")
    try:
        assert desk.evaluate("() => window.roomopsDesk.mode()") == "poll"
        assert dealer.evaluate("() => window.roomopsLive.mode()") == "poll"
        token = desk.locator("input[name=csrf_token]").first.get_attribute("value")
        desk_ctx.request.post(f"{live.url}/desk/seats/{held[2].id}/away", max_redirects=0,
                              form={"csrf_token": token or ""})
        expect(dealer.locator("#dealer-live .state", has_text="away")).to_have_count(1, timeout=5000)
        expect(desk.locator("#desk-live .absence.away")).to_have_count(1, timeout=5000)
    finally:
        desk_ctx.close()
        deal_ctx.close()


def test_a_staff_screen_that_gave_up_its_stream_asks_again_a_minute_later(live, browser):
    """A desk refused its stream (the app's one stream held by another desk: 503, three tries)
    polls, and asks for it again a minute later: served then, it is told by push again."""
    live.build(full_table)
    push = live.app.extensions[KEY]
    push.staff_streams = 1  # the staff screens' own streams (issue 40)
    contexts = [browser.new_context(), browser.new_context()]
    one, two = (context.new_page() for context in contexts)
    try:
        log_in(one, live, "main-admin")  # lands on the desk, which takes the one stream
        one.wait_for_function("() => window.roomopsDesk.mode() === 'push'")
        two.clock.install()  # the page's timers: the minute is moved on, not waited for
        log_in(two, live)
        two.wait_for_function("() => window.roomopsDesk.mode() === 'poll'")
        two.clock.run_for(5_000)  # its three quick tries spent
        assert two.evaluate("() => window.roomopsDesk.mode()") == "poll"
        push.staff_streams = 2
        two.clock.run_for(75_000)  # past the minute and the fifth more it may wait
        two.wait_for_function("() => window.roomopsDesk.mode() === 'push'")
    finally:
        for context in contexts:
            context.close()
