"""The cage in a real browser (R32, R54): a cashier records an add-on paid in cash at the table
for a seated player, and the day's report shows it per method, apart from the cage's cash."""

from __future__ import annotations

from playwright.sync_api import expect

from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in


def _seated(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    seats.seat_directly(session, room.sup, now, table_id=table.id, seat_no=1,
                        player_id=room.player(now, "Cora").id, buy_in=20000)


def test_r32_an_add_on_in_cash_at_the_table_shows_in_the_days_report(live, page):
    live.build(_seated)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage")
    form = page.locator("form[data-movement=add_on]")
    expect(form.locator("select[name=method] option:checked")).to_have_text("cash at the table")
    form.locator("select[name=hold_id]").select_option(label="Cora Player · table 1")
    form.locator("input[name=amount]").fill("50")
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Add-on of £50.00 recorded (cash at the table)")
    page.screenshot(path=str(SHOTS / "cage.png"), full_page=True)
    page.click("text=Today's report and close")
    methods = page.locator("section", has=page.locator("h2", has_text="Per method"))
    # the desk's buy-in (200) and the add-on (50), both cash at the table
    expect(methods.locator("tbody tr")).to_have_count(1)
    expect(methods.locator("tbody tr")).to_contain_text("cash at the table")
    expect(methods.locator("tbody tr")).to_contain_text("£250.00")
    kinds = page.locator("section", has=page.locator("h2", has_text="Per kind"))
    expect(kinds).to_contain_text("add on")
