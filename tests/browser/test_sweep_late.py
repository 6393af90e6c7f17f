"""The desk in a real browser turns red when no scheduler has swept for ``sweep_stale_seconds``
(the offers and breaks it releases, R20, R22, R24, are late) and recovers once one sweeps: with
no reload, by its poll, on the server's frozen clock. The board's header says so, quietly."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from roomops.floor.unit import UnitOfWork
from roomops.jobs import sweep as sweep_module
from roomops.lists import services as lists
from tests.browser.conftest import SHOTS, log_in
from tests.factories import Room_
from tests.units import act


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
        r"The scheduler has not swept this room for 1\d s: offers and breaks are not being released on time"))
    expect(banner).to_have_css("color", "rgb(140, 29, 24)")  # the error red
    page.screenshot(path=str(SHOTS / "desk-sweep-late.png"))
    expect(note).to_be_visible(timeout=10_000)
    expect(note).to_have_text("Call and break times may be late")
    board.screenshot(path=str(SHOTS / "board-sweep-late.png"))
    live.sweep()
    expect(banner).to_have_count(0, timeout=10_000)
    expect(note).to_be_hidden(timeout=10_000)


def test_only_the_room_whose_sweep_fails_goes_late(live, page, browser, monkeypatch):
    """The scheduler runs, but the main room's sweep fails (its expired call, R22, is not passed
    on): after the limit its desk turns red, counted from its last good sweep; the annex's desk,
    swept each run, stays calm. A run in which its sweep does not fail ends it."""
    live.app.extensions["roomops"].settings.sweep_stale_seconds = 15

    def two_rooms(room, session, now):
        game = room.game(now)
        room.table(now, game, "1")
        for name in ("Ann", "Bob"):  # each called to a seat (R20)
            player = room.player(now, name)
            act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)
        Room_(session, now, slug="annex").game(now)
        return room.room.claim_minutes

    claim_minutes = live.build(two_rooms)

    def broken(unit: UnitOfWork, games):
        raise RuntimeError("a fault in this room's data")

    live.clock.advance(minutes=claim_minutes, seconds=-1)
    live.sweep()  # the last good sweep, a second before the calls run out
    monkeypatch.setattr(sweep_module, "release_due", broken)
    live.clock.advance(seconds=1)  # Ann's and Bob's calls run out: the sweep breaks
    with pytest.raises(RuntimeError, match="this room's data"):
        live.sweep()
    main = page
    log_in(main, live)
    banner = main.locator("#desk-live .sweep-late")
    expect(main.locator("#desk-live .live-meta")).to_be_attached()
    expect(banner).to_have_count(0)  # swept a second ago: within the limit
    live.clock.advance(seconds=16)
    with pytest.raises(RuntimeError, match="this room's data"):
        live.sweep()
    expect(banner).to_be_visible(timeout=10_000)
    expect(banner).to_have_text(re.compile(r"The scheduler has not swept this room for 1\d s"))
    main.screenshot(path=str(SHOTS / "desk-room-sweep-failing.png"))
    annex = browser.new_context().new_page()  # the annex's desk, opened now
    log_in(annex, live, "annex-supervisor")
    expect(annex.locator("#desk-live .live-meta")).to_be_attached()
    expect(annex.locator("#desk-live .sweep-late")).to_have_count(0)
    monkeypatch.undo()
    live.sweep()
    expect(banner).to_have_count(0, timeout=10_000)
    annex.context.close()
