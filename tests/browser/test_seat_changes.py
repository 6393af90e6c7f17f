"""R36 seat changes on the screens: the desk puts a seated player on their table's seat-change
list, the list shows on the desk and on the dealer's screen, a seat that opens at that table is
called for the requester first, and the desk claims it as a seat change with the counted stack;
the seat left behind goes to the waiting list."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import expect

from roomops.lists import services as lists
from roomops.seating import seats
from tests.browser.conftest import log_in
from tests.factories import as_staff


def _full_table(room, session, now):
    """Table 1 full (Seat1..Seat9), Wendy waiting for the game."""
    game = room.game(now)
    table = room.table(now, game, "1")
    held = [seats.seat_directly(session, room.sup, now + timedelta(seconds=i), table_id=table.id,
                                seat_no=i, player_id=p.id, buy_in=20000)
            for i, p in enumerate(room.players(now, 9, "Seat"), start=1)]
    wendy = room.player(now, "Wendy")
    lists.join(session, room.sup, now + timedelta(seconds=30), player_id=wendy.id, game_id=game.id)
    return table.id, held


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
    with live.app.extensions["roomops"].sessions() as session:
        seats.leave(session, as_staff(session, "main-supervisor"), live.clock.now(), held[6].id,
                    20000)
        session.commit()
    page.reload()
    called = page.locator(f"#table-{table_id} .seat[data-seat-no='7']")
    expect(called).to_contain_text("Seat3 Player")
    dialog = _dialog(page, table_id, 7)
    dialog.get_by_label("Stack, counted", exact=True).fill("310")
    dialog.get_by_role("button", name="Change seat (R36)").click()
    expect(page.locator(".flash.ok")).to_be_visible()
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='7']")).to_contain_text("£310.00")
    expect(page.locator(f"#table-{table_id} [data-list=seat-change]")).to_have_count(0)
    # the seat left behind is the next open seat: Wendy is called for it
    expect(page.locator(f"#table-{table_id} .seat[data-seat-no='3']")).to_contain_text("Wendy")
