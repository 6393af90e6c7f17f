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
from roomops.floor.unit import UnitOfWork
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from tests.browser.conftest import log_in
from tests.browser.test_board import change, fill
from tests.units import act


def _table_and_ada(room, session, now):
    game = room.game(now)
    fill(room, session, now, game, "1", 9, "f")
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ada", "Wait").id, game_id=game.id)


def _break_on_seat_3(unit: UnitOfWork):
    hold = unit.session.scalar(select(SeatHold).where(SeatHold.seat_no == 3, SeatHold.kind == "seated"))
    absences.grant_break(unit, hold.id, stack=23450)


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


def _ada_plays_over_and_is_called_to_plo(unit: UnitOfWork):
    """Ada plays over seat 3 of table 1 (R29) and joins a PLO game's list, whose table 7 is open:
    the sweep's rule calls her to one of its seats (R14, R20)."""
    from roomops.games.services import open_game, open_table
    from roomops.playovers import services as playovers
    from tests.factories import GAME_DEFAULTS
    hold = unit.session.scalar(select(SeatHold).where(SeatHold.seat_no == 3, SeatHold.kind == "seated"))
    po = playovers.start_playover(unit, hold.id, buy_in=12000)
    plo = open_game(unit, **{**GAME_DEFAULTS, "variant": "PLO"})
    open_table(unit, plo.id, "7")
    lists.join(unit, player_id=po.player_id, game_id=plo.id)


def test_r29_seating_a_player_who_plays_over_asks_for_their_stack(live, page):
    """Issue 40: claiming a seat for a player playing over another asks for the chips they leave
    it with, names the seat, and the cage then has that amount to pay (R27, R29, R52)."""
    live.build(_table_and_ada)
    live.clock.advance(hours=1)
    change(live, _break_on_seat_3)
    change(live, _ada_plays_over_and_is_called_to_plo)
    log_in(page, live)
    owners = page.locator("#desk-live .table-card[data-table-name='1'] .seat[data-seat-no='3']")
    # seating her directly in an open seat asks too, once the desk knows who is typed in
    page.locator("#desk-live .table-card[data-table-name='7'] .seat[data-state=empty] button").first.click()
    direct = page.locator("dialog#act section[data-for=seat-empty] form").last
    expect(direct.locator("label[data-overplayer]")).to_be_hidden()
    direct.locator("input[name=player_id]").fill(
        f"Ada Wait #{owners.get_attribute('data-playover-player')}")
    direct.locator("input[name=player_id]").press("Tab")
    expect(direct.locator("label[data-overplayer]")).to_contain_text(
        "Ada Wait plays over seat 3 at table 1: their stack there")
    page.keyboard.press("Escape")
    called = page.locator("#desk-live .table-card[data-table-name='7'] .seat[data-state=offered]")
    expect(called).to_have_count(1)
    called.locator("button").click()
    claim = page.locator("dialog#act section[data-for=seat-offered] form").first
    stack = claim.locator("label[data-overplayer]")
    expect(stack).to_be_visible()
    expect(stack).to_contain_text("Ada Wait plays over seat 3 at table 1: their stack there")
    expect(stack.locator("input")).to_have_attribute("required", "")
    claim.get_by_role("button", name=re.compile("Claimed")).click()  # not sent: asked for first
    expect(owners).to_contain_text("played over: Ada Wait")
    stack.locator("input").fill("162.50")
    claim.get_by_role("button", name=re.compile("Claimed")).click()
    expect(page.locator(".flash.ok")).to_contain_text("Ada Wait took seat")
    expect(owners).not_to_contain_text("played over")

    page.get_by_role("button", name="Log out").click()
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage")
    waiting = page.locator("#awaiting article[data-playover]")
    expect(waiting).to_contain_text("Ada Wait")
    expect(waiting.locator("input[name=amount]")).to_have_value("162.50")
