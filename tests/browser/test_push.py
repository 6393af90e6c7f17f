"""The board pushed, not polled (issue 21): a change made at the desk is on the open board within a
second of its commit, with no poll; where the app serves no stream the page falls back to polling."""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page, expect

from roomops.push.embedded import KEY
from tests.browser.conftest import Live, log_in


def room_with_a_game(room, session, now):
    game = room.game(now)
    room.table(now, game, "7")
    return game.id


def desk_adds(browser: Browser, live: Live, game_id: int, first: str) -> float:
    """The supervisor adds a player to the game's list at the desk; returns when the commit was
    answered (time.monotonic)."""
    context = browser.new_context()
    try:
        desk = context.new_page()
        log_in(desk, live)
        desk.goto(f"{live.url}/desk")
        token = desk.locator("input[name=csrf_token]").first.get_attribute("value")
        resp = context.request.post(f"{live.url}/desk/players", max_redirects=0, form={
            "csrf_token": token or "", "first_name": first, "last_name": "Pushed",
            "create_anyway": "true", "game_id": str(game_id)})
        committed = time.monotonic()
        assert resp.status in (200, 302, 303), resp.text()
        return committed
    finally:
        context.close()


def polls(page: Page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if r.url.endswith("/live") else None)
    return seen


def test_a_desk_change_is_pushed_to_the_board_within_a_second_without_polling(live, page, browser):
    game_id = live.build(room_with_a_game)
    polled = polls(page)
    page.goto(f"{live.url}/board/main")
    expect(page.locator(".game")).to_have_count(1)
    page.wait_for_function("() => window.roomopsBoard.mode() === 'push'")
    page.evaluate("() => { window.__loaded = 'still here'; }")
    committed = desk_adds(browser, live, game_id, "Xena")
    expect(page.locator(".waiting .place .who")).to_have_text(["Xena P."], timeout=1000)
    assert time.monotonic() - committed < 1.0
    page.wait_for_timeout(2500)  # longer than the poll's 2 s: a poller would have run by now
    assert polled == []
    assert page.evaluate("() => window.roomopsBoard.mode()") == "push"
    assert page.evaluate("() => window.__loaded") == "still here"  # swapped in, no reload


def test_where_the_app_serves_no_stream_the_board_polls(live, page, browser):
    game_id = live.build(room_with_a_game)
    live.app.extensions[KEY].streams = 0  # every stream refused (503), as past the app's limit
    polled = polls(page)
    page.goto(f"{live.url}/board/main")
    page.wait_for_function("() => window.roomopsBoard.mode() === 'poll'")
    desk_adds(browser, live, game_id, "Yuri")
    expect(page.locator(".waiting .place .who")).to_have_text(["Yuri P."], timeout=5000)
    assert polled


def test_a_board_refused_its_stream_asks_again_a_minute_later(live, page, browser):
    """A stream refused (a push server restarted before the web process published the room again
    answers 404; the app past its limit 503) makes the board poll, and ask for the stream again a
    minute later: served then, the board is pushed again and polls no more."""
    game_id = live.build(room_with_a_game)
    push = live.app.extensions[KEY]
    served, push.streams = push.streams, 0
    page.clock.install()  # the page's timers: the minute is moved on, not waited for
    page.goto(f"{live.url}/board/main")
    page.wait_for_function("() => window.roomopsBoard.mode() === 'poll'")
    push.streams = served
    page.clock.run_for(75_000)  # past the minute and the fifth more it may wait
    page.wait_for_function("() => window.roomopsBoard.mode() === 'push'")
    polled = polls(page)
    page.clock.run_for(10_000)  # a poller would have asked four or five times by now
    desk_adds(browser, live, game_id, "Zoe")
    expect(page.locator(".waiting .place .who")).to_have_text(["Zoe P."], timeout=2000)
    assert polled == []
