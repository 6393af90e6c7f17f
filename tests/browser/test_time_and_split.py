"""R50 and R51 as rooms differ on them, in Chromium: the fees page says when each due player pays
as players join the list, the supervisor sets the room's time collection on the policy screen, and
the dealer splits a pot on the tablet and is shown each winner's share."""

from __future__ import annotations

from playwright.sync_api import expect

from roomops.lists import services as lists
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import fill
from tests.browser.test_dealer import TABLET


def _hourly(room, session, now):
    """5.00 an hour, a full table of 9 (seated at 20:00), and two players who will wait."""
    game = room.game(now, fee_kind="hourly", time_fee=500)
    return game.id, fill(room, session, now, game, "3", 9, "t").id, [
        p.id for p in room.players(now, 2, "W")]


def test_r50_the_fees_page_says_when_each_due_player_pays(live, page):
    game_id, table_id, later = live.build(_hourly)
    live.clock.advance(minutes=5)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/fees")
    row = page.locator(f"table.fees-tables tr[data-table='{table_id}']")
    expect(row).to_contain_text("0 · may play on until the big blind")
    for player_id in later:
        live.act("main-supervisor", lists.join, player_id=player_id, game_id=game_id)
    page.reload()
    expect(row).to_contain_text("2 · everyone due pays before the next hand")
    expect(page.locator("table.fees-due tr.is-due").first).to_contain_text("pays before the next hand")
    page.screenshot(path=str(SHOTS / "fees-pay-when.png"), full_page=True)
    row.get_by_role("button", name="Collect from the whole table (9 due)").click()
    expect(page.locator(".flash.ok")).to_contain_text(  # to the 21:00 collection
        "9 fees of £5.00 collected from the whole table (chips), paid until 21:00")


def test_r50_r51_the_supervisor_sets_how_the_room_collects_time(live, page):
    live.build(lambda room, session, now: None)  # the room and its staff
    log_in(page, live, "main-supervisor")
    page.goto(f"{live.url}/desk/policy")
    section = page.locator("#time-settings")
    expect(section.locator("select[name=time_collection]")).to_have_value("clock")
    section.locator("select[name=time_collection]").select_option("own")
    section.locator("input[name=time_all_pay_waiting]").fill("3")
    section.get_by_label("a pot split between winners is raked").uncheck()
    page.get_by_role("button", name="Save policy").click()
    expect(page.locator(".flash.ok")).to_contain_text("rake split pots, time all pay waiting, "
                                                      "time collection")
    expect(section.locator("select[name=time_collection]")).to_have_value("own")
    expect(section.get_by_label("a pot split between winners is raked")).not_to_be_checked()


def _raked(room, session, now):
    game = room.game(now, fee_kind="rake", rake_bp=500, rake_cap=500)
    return fill(room, session, now, game, "5", 6, "r").id


def test_r51_the_dealer_splits_a_pot_and_sees_each_share(live, page):
    live.build(_raked)
    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    page.get_by_role("link", name="Table 5").click()
    page.select_option("select[name=high_card_seat]", "6")  # the button goes to seat 6
    page.locator("#deal").click()
    form = page.locator("#rake-form")
    form.locator("input[name=pot]").fill("102")
    form.locator("input[name=rake]").fill("5")
    form.get_by_label("seat 2").check()
    form.get_by_label("seat 5").check()
    page.screenshot(path=str(SHOTS / "dealer-split-pot.png"))
    form.get_by_role("button", name="Record rake").click()
    # 97.00 left in 1.00 chips: the odd one to seat 2, the first winner after the button
    expect(page.locator(".flash.ok")).to_contain_text(
        "Rake of hand 1 recorded. Split pot: seat 2 £49.00, seat 5 £48.00.")
