"""R29 in Chromium: the supervisor starts a playover from the desk's dialog, the board shows the
seat played over, and when the owner comes back (the desk counting the overplayer's stack) the desk
says the overplayer must leave at the end of the hand and the board no longer shows the seat played
over; the cage then finds the overplayer waiting and pays the stack counted (R27, R28). The
server's clock is frozen and advanced by the test; nothing sleeps."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.lists import services as lists
from roomops.seating.models import SeatHold
from tests.browser.conftest import log_in
from tests.browser.test_board import change, fill


def _table_and_ada(room, session, now):
    game = room.game(now)
    fill(room, session, now, game, "1", 9, "f")
    lists.join(session, room.sup, now, player_id=room.player(now, "Ada", "Wait").id, game_id=game.id)


def _break_on_seat_3(session, actor, now):
    hold = session.scalar(select(SeatHold).where(SeatHold.seat_no == 3, SeatHold.kind == "seated"))
    absences.grant_break(session, actor, now, hold.id, stack=23450)


def test_r29_playover_from_the_desk_shown_on_the_board_until_the_owner_is_back(live, page):
    live.build(_table_and_ada)
    live.clock.advance(hours=1)  # R23: a break after an hour of play
    change(live, _break_on_seat_3)
    log_in(page, live)
    seat = page.locator("#desk-live .seat[data-seat-no='3']")
    seat.locator("button").click()
    dialog = page.locator("dialog#act")
    start = dialog.locator("section[data-for=seat-absent] form[data-when=open]").first
    expect(start.locator("select[name=entry_id]")).to_have_value("")  # the next in list order
    expect(start.locator("select[name=entry_id] option").nth(1)).to_contain_text("Ada Wait")
    expect(start.locator("input[name=buy_in]")).to_have_value("100")  # the game's minimum
    expect(dialog.locator("form[data-when=played]")).to_have_count(2)  # owner back, overplayer leaves
    expect(dialog.locator("form[data-when=played]").first).to_be_hidden()
    expect(dialog.locator("form[data-when=played]").last).to_be_hidden()
    start.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Ada Wait plays over seat 3 at table 1 with £100.00")
    expect(seat.locator(".playover")).to_have_text("played over: Ada Wait")

    board = page.context.new_page()
    board.goto(f"{live.url}/board/main")
    expect(board.locator(".absence[data-seat='3'] .played")).to_have_text("· played over by Ada W.")
    expect(board.locator(".seatmap [data-seat='3']")).to_have_class("s s-played")

    live.clock.advance(minutes=20)
    seat.locator("button").click()
    back = dialog.locator("section[data-for=seat-absent] form[data-when=played]").first
    expect(back).to_be_visible()
    back.get_by_label("The overplayer's stack, counted").fill("175")  # R27: their cash-out
    back.get_by_role("button", name="Back at the table").click()
    expect(page.locator(".flash.ok")).to_contain_text(
        "is back in seat 3 at table 1. Ada Wait must leave at the end of the hand (R29).")
    expect(seat).not_to_contain_text("played over")
    expect(seat).to_have_class(re.compile("state-seated"))

    board.reload()
    expect(board.locator(".seatmap [data-seat='3']")).to_have_class("s s-seated")
    expect(board.locator(".absence")).to_have_count(0)
    expect(board.locator(".played")).to_have_count(0)

    # the cage: the overplayer waits for their cash-out of the stack counted, paid alone (R27)
    page.get_by_role("button", name="Log out").click()
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage")
    waiting = page.locator("#awaiting article[data-playover]")
    expect(waiting).to_contain_text("Ada Wait")
    expect(waiting).to_contain_text("playing over table 1, seat 3")
    expect(waiting.locator("input[name=amount]")).to_have_value("175")
    waiting.locator("select[name=method]").select_option("cash")
    waiting.get_by_role("button", name="Pay cash-out").click()
    expect(page.locator(".flash.ok")).to_contain_text("Cash-out of £175.00 paid (cash)")
    expect(page.locator("#awaiting")).to_contain_text("Nobody is waiting to cash out")
