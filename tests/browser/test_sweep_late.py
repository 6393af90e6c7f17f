"""The desk in a real browser turns red when no scheduler has swept for ``sweep_stale_seconds``
(the offers and breaks it releases, R20, R22, R24, are late) and recovers once one sweeps: with
no reload, by its poll, on the server's frozen clock. The board's header says so, quietly."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, log_in


def test_the_desk_turns_red_without_a_sweep_and_recovers(live, page):
    live.app.extensions["roomops"].settings.sweep_stale_seconds = 15  # the default
    live.build(lambda room, session, now: room.game(now))
    live.sweep()
    board = page.context.new_page()
    board.goto(f"{live.url}/board/main")
    note = board.locator("#late")
    expect(note).to_be_hidden()
    log_in(page, live)
    banner = page.locator("#desk-live .sweep-late")
    expect(page.locator("#desk-live .live-meta")).to_be_attached()
    expect(banner).to_have_count(0)
    live.clock.advance(seconds=16)  # past the default 15 s
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_have_text(re.compile(
        r"The scheduler has not run for 1\d s: offers and breaks are not being released on time"))
    expect(banner).to_have_css("color", "rgb(140, 29, 24)")  # the error red
    page.screenshot(path=str(SHOTS / "desk-sweep-late.png"))
    expect(note).to_be_visible(timeout=10_000)
    expect(note).to_have_text("Call and break times may be late")
    board.screenshot(path=str(SHOTS / "board-sweep-late.png"))
    live.sweep()
    expect(banner).to_have_count(0, timeout=10_000)
    expect(note).to_be_hidden(timeout=10_000)
