"""The desk's offer by hand in a real browser (R14, R17, R18): with automatic offers off, the
`o` key's dialog offers the open seat of a main table to the must-move player, named as the
next for it; their offered seat's dialog leads with the move, their stack filled in."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import expect

from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import moves, seats
from tests.browser.conftest import log_in
from tests.services.helpers import fill_table
from tests.units import act

MIN = timedelta(minutes=1)


def _floor(room, session, now):
    """Automatic offers off; table 2 (two players) must-move to table 1, Rita on table 1's reserve
    list; seat 1 of table 1 opens."""
    act(session, room.sup, now, update_policy, auto_offer=False)
    game = room.game(now)
    main, feeder = room.table(now, game, "1"), room.table(now, game, "2")
    mains = fill_table(room, session, now, game, main, 0)
    fill_table(room, session, now + MIN, game, feeder, 7, prefix="F")
    act(session, room.sup, now + 2 * MIN, moves.set_must_move, feeder.id, main.id)
    rita = room.player(now, "Rita", "Reserve")
    act(session, room.sup, now + 3 * MIN, lists.join, player_id=rita.id, table_id=main.id)
    act(session, room.sup, now + 4 * MIN, seats.leave, mains[0].id, 5000)
    return main.id


def test_r14_r17_the_o_key_offers_the_seat_to_the_must_move_player(live, page):
    main = live.build(_floor)
    log_in(page, live)
    page.keyboard.press("o")  # the first open seat: seat 1 of table 1
    dialog = page.locator("dialog#act")
    expect(dialog.locator("#act-title")).to_have_text("Table 1 · seat 1")
    choice = dialog.locator("section[data-for=seat-empty] select[name=entry_id]")
    expect(choice.locator("option").first).to_have_text("Next: F2-1 Player (must move from table 2)")
    expect(choice.locator("option", has_text="Rita Reserve")).to_have_count(1)
    page.keyboard.press("Enter")  # the key put the cursor on "Offer seat"
    expect(page.locator(".flash.ok")).to_contain_text("Offered seat 1 at table 1 to F2-1 Player")
    seat = page.locator(f"#table-{main} .seat[data-seat-no='1']")
    expect(seat).to_have_attribute("data-state", "offered")
    seat.locator("button").click()
    offered = dialog.locator("section[data-for=seat-offered]")
    expect(offered.locator("form[data-claim=list]")).to_be_hidden()
    move = offered.locator("form[data-claim=move]")
    expect(move).to_be_visible()
    expect(move.locator("input[name=stack]")).to_have_value("100")
    expect(offered.locator(".btn.primary:visible")).to_have_text(["Move the player"])
    move.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text(
        "F2-1 Player moved to seat 1 at table 1 carrying")
    expect(seat).to_have_attribute("data-state", "seated")
