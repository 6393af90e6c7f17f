"""R36 seat changes on the screens: the desk puts a seated player on their table's seat-change
list, the list shows on the desk and on the dealer's screen, a seat that opens at that table is
called for the requester first, and the desk claims it as a seat change with the counted stack;
the seat left behind goes to the waiting list."""

from __future__ import annotations

from playwright.sync_api import expect

from roomops.games.models import Game, Table
from roomops.hands.services import record_hand
from roomops.seating import seat_changes, seats
from tests.browser.conftest import full_table, log_in
from tests.units import act


def _full_table(room, session, now):
    """Table 1 full (Seat1..Seat9), Wendy waiting for the game."""
    return full_table(room, session, now, "Wendy")


def _dialog(page, table_id, seat_no):
    page.locator(f"#table-{table_id} .seat[data-seat-no='{seat_no}'] button").click()
    dialog = page.locator("dialog#act")
    expect(dialog).to_be_visible()
    return dialog


def test_r36_a_seat_change_asked_at_the_desk_is_called_first_and_claimed(live, page, browser):
    table_id, held = live.build(_full_table)
    log_in(page, live)
    _dialog(page, table_id, 3).get_by_role("button", name="Put on the seat-change list").click()
    listed = page.locator(f"#table-{table_id} [data-list=seat-change]")
    expect(listed).to_contain_text("seat 3 · Seat3 Player")

    dealer = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        log_in(dealer, live, "main-dealer")
        dealer.goto(f"{live.url}/dealer/tables/{table_id}")
        # the dealer reads names as the room shows them (R61: first name and initial)
        expect(dealer.locator(".seat-changes")).to_contain_text("seat 3 · Seat3 P.")
    finally:
        dealer.context.close()

    # seat 7 leaves: the requester at seat 3 is called for it before Wendy on the waiting list
    live.act("main-supervisor", seats.leave, held[6].id, 20000)
    page.reload()
    called = page.locator(f"#table-{table_id} .seat[data-seat-no='7']")
    expect(called).to_contain_text("Seat3 Player")
    dialog = _dialog(page, table_id, 7)
    dialog.get_by_label("Stack, counted", exact=True).fill("310")
    dialog.get_by_role("button", name="Change seat").click()
    expect(page.locator(".flash.ok")).to_be_visible()
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='7']")).to_contain_text("£310.00")
    expect(page.locator(f"#table-{table_id} [data-list=seat-change]")).to_have_count(0)
    # the seat left behind is the next open seat: Wendy is called for it
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='3']")).to_contain_text("Wendy")



def _two_tables(room, session, now):
    """Table 1 full as ``_full_table``, and table 2 of the same game with Other in seat 5 (seat 1
    is called for Wendy)."""
    table_id, held = _full_table(room, session, now)
    game = session.get_one(Game, session.get_one(Table, table_id).game_id)
    table = room.table(now, game, "2")
    other = room.player(now, "Other")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=5, player_id=other.id,
        buy_in=20000)
    return table_id, held


def test_r36_the_floor_swaps_two_players_of_one_table(live, page):
    """R36: the swap dialog offers only the other players of the same table; both stacks counted,
    each player sits in the other's seat."""
    table_id, _held = live.build(_two_tables)
    log_in(page, live)
    dialog = _dialog(page, table_id, 2)
    options = dialog.locator("select[name=other_hold_id] option:not([disabled])")
    expect(options).to_have_count(8)  # the table's other eight: not Other at table 2, not Seat2
    expect(options.first).to_have_text("T1 seat 1 · Seat1 Player")
    dialog.locator("select[name=other_hold_id]").select_option(label="T1 seat 5 · Seat5 Player")
    dialog.get_by_label("This player's stack, counted").fill("210")
    dialog.get_by_label("The other's stack, counted").fill("190")
    dialog.get_by_role("button", name="Swap seats").click()
    expect(page.locator(".flash.ok")).to_contain_text("Swapped Seat2 Player to seat 5")
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='5']")).to_contain_text(
        "Seat2 Player£210.00")
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='2']")).to_contain_text(
        "Seat5 Player£190.00")


def test_r36_a_seat_change_claimed_during_a_hand_moves_when_the_hand_is_recorded(live, page):
    """R36: claimed during a hand, the stack field turns off, the seat reads held on the desk and
    the board long past the call's time, its dialog offers only taking it back, and the dealer's
    next hand makes the move with the last known stack."""
    table_id, held = live.build(_full_table)
    live.act("main-dealer", record_hand, table_id, hand_no=1, high_card_seat=1)
    live.act("main-supervisor", seat_changes.ask, held[2].id)
    live.act("main-supervisor", seats.leave, held[6].id, 20000)
    log_in(page, live)
    dialog = _dialog(page, table_id, 7)
    stack = dialog.get_by_label("Stack, counted", exact=True)
    stack.fill("300")
    dialog.get_by_label("A hand is being played").check()
    expect(stack).to_be_disabled()
    dialog.get_by_role("button", name="Change seat").click()
    expect(page.locator(".flash.ok")).to_contain_text("held for Seat3 Player until the dealer")
    seat7 = page.locator(f"#table-{table_id} .seat[data-seat-no='7']")
    live.clock.advance(minutes=10)  # far past the seat-change call's time
    live.sweep()
    page.wait_for_function("() => !!window.roomopsDesk")  # the page after the action has loaded
    page.evaluate("window.roomopsDesk.poll()")
    expect(seat7).to_contain_text("after the hand")
    dialog = _dialog(page, table_id, 7)
    expect(dialog.locator("#act-sub")).to_contain_text("no claim timer runs")
    expect(dialog.get_by_role("button", name="Take the seat change back")).to_be_visible()
    expect(dialog.get_by_role("button", name="Claimed: seat the player")).to_be_hidden()
    dialog.press("Escape")

    board = page.context.new_page()
    board.goto(f"{live.url}/board/main")
    expect(board.locator(".called.state-held")).to_contain_text("Seat 7 held")
    expect(board.locator(".called")).not_to_contain_text("re-calling")
    board.close()

    live.act("main-dealer", record_hand, table_id, hand_no=2)
    page.wait_for_function("() => !!window.roomopsDesk")
    page.evaluate("window.roomopsDesk.poll()")
    expect(seat7).to_contain_text("Seat3 Player£200.00")  # the last known stack, not the 300 typed
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='3']")).to_contain_text("Wendy")
