"""R54 in a real browser: the cage page shows the current shift and whether it is closed; a supervisor
counts shift 2 on its report page and closes it with a cashier who has counted, once the close has
stated the totals and been confirmed (warned of the table still running), and the cage page then
shows the shift closed. The server's clock is frozen at 20:00 UTC (shift 2 of 06:00, 14:00,
22:00)."""

from __future__ import annotations

from datetime import date

from playwright.sync_api import expect

from roomops.ledger.dayclose import Count, close_day, record_counts
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in
from tests.units import act

DAY = date(2026, 11, 21)


def _shift_two_to_close(room, session, now):
    """Three shifts; a buy-in at table 1 in shift 2; shift 1 closed; the cashier's counts of
    shift 2."""
    act(session, room.sup, now, update_policy, shifts=["06:00", "14:00", "22:00"])
    game = room.game(now)
    table = room.table(now, game, "1")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
        player_id=room.player(now, "Ada").id, buy_in=15000)
    cashier = room.actor("cashier")
    for who in (room.sup, cashier):
        act(session, who, now, record_counts, DAY, [Count(None, 0)], 1)
    act(session, cashier, now, close_day, DAY, room.sup.staff_id, 1)
    act(session, cashier, now, record_counts, DAY, [Count(table.id, 15000), Count(None, 15000)], 2)
    return table.id


def test_r54_close_a_shift_on_the_cage_screen(live, page):
    table_id = live.build(_shift_two_to_close)
    log_in(page, live)
    page.goto(f"{live.url}/desk/cage")
    now = page.locator("[data-current-shift]")
    expect(now).to_contain_text("shift 2 of 3 (14:00-22:00)")
    expect(now.locator("[data-shift-state]")).to_have_text("open")
    now.get_by_role("link", name="count and close this shift").click()
    expect(page.locator("h1")).to_contain_text("shift 2 of 3")
    expect(page.locator("[data-shift='1']")).to_contain_text("closed")
    page.fill(f"input[name=count-{table_id}]", "150")
    page.fill("input[name=count-total]", "140")
    page.fill("input[name=why-total]", "a 10 chip found in the rack")
    page.get_by_role("button", name="Record my counts").click()
    expect(page.locator(".flash.ok")).to_contain_text("2 counts recorded")
    expect(page.locator("table.counts")).to_contain_text("a 10 chip found in the rack")
    # R54: the table still running is named before the close button, and by the close (policy 'warn')
    expect(page.locator("[data-running]")).to_contain_text("tables still running (a player seated): 1")
    # R54: what "Expected" is, on the page
    expect(page.locator("[data-expected-help]")).to_contain_text("the net of every row posted to it")
    page.select_option("select[name=second_staff_id]", label="main-cashier (cashier)")
    # R54: closing asks first, stating the totals; dismissed, nothing is closed
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.get_by_role("button", name="Close shift 2").click()
    expect(page.locator("[data-closed]")).to_have_count(0)
    assert asked and asked[0].startswith("Close shift 2 with these totals? Expected (the ledger): £150.00.")
    assert "main-cashier £150.00, variance £0.00; main-supervisor £140.00, variance " in asked[0]
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Close shift 2").click()
    expect(page.locator(".flash.ok")).to_contain_text("Shift 2 of gaming day 2026-11-21 closed")
    expect(page.locator(".flash.warn")).to_contain_text("Closed with tables still running")
    expect(page.locator("[data-closed]")).to_be_visible()
    expect(page.locator("[data-shift='2']")).to_contain_text("closed")
    expect(page.get_by_role("button", name="Close shift 2")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "day-report-shift.png"), full_page=True)
    page.goto(f"{live.url}/desk/cage")
    expect(page.locator("[data-current-shift] [data-shift-state]")).to_have_text("closed")
