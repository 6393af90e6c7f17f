"""R50 as rooms collect it, in Chromium: the cashier collects a half-hourly fee from a whole table
with one button on /desk/fees, and the dealer takes a hand's drop with one tap."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import fill
from tests.browser.test_dealer import TABLET


def _half_hourly(room, session, now):
    """3.00 a half hour, 4.00 from 6 players; 6 seated."""
    game = room.game(now, fee_kind="halfhour", time_fee=300,
                     time_fee_by_players=[{"players": 6, "fee": 400}])
    return fill(room, session, now, game, "4", 6, "h").id


def _drop_game(room, session, now):
    """A drop of 2.00 a hand, 3.00 from 5 players dealt in; 5 seated."""
    game = room.game(now, fee_kind="drop", drop_fee=200, drop_by_players=[{"players": 5, "fee": 300}])
    return fill(room, session, now, game, "6", 5, "d").id


def test_r50_the_cashier_collects_from_the_whole_table(live, page):
    table_id = live.build(_half_hourly)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/fees")
    row = page.locator(f"table.fees-tables tr[data-table='{table_id}']")
    expect(row).to_contain_text("£4.00 per half hour")
    expect(row).to_contain_text("6 of 6 seated")
    expect(row.locator("select[name=method] option")).to_have_text(["chips", "cash"])
    page.screenshot(path=str(SHOTS / "fees-whole-table.png"), full_page=True)
    row.get_by_role("button", name="Collect from the whole table (6 due)").click()
    expect(page.locator(".flash.ok")).to_contain_text(
        "6 fees of £4.00 collected from the whole table (chips), paid until 20:30")
    expect(row).to_contain_text("0 of 6 seated")
    expect(row.get_by_role("button")).to_be_disabled()
    expect(page.locator("table.fees-due tr.covered")).to_have_count(6)


def test_r50_the_dealer_takes_the_drop_in_one_tap(live, page):
    live.build(_drop_game)
    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    page.get_by_role("link", name="Table 6").click()
    page.select_option("select[name=high_card_seat]", "5")
    page.locator("#deal").click()
    form = page.locator("#drop-form")
    expect(form).to_contain_text("Drop: £2.00 per hand, £3.00 from 5 players")
    page.screenshot(path=str(SHOTS / "dealer-drop.png"))
    form.get_by_role("button", name="Take the drop: £3.00 (5 players dealt in)").click()
    expect(page.locator(".flash.ok")).to_contain_text("Drop of hand 1: £3.00 taken.")
    expect(page.locator("#drop-done")).to_contain_text("Drop of hand 1 taken: £3.00")
