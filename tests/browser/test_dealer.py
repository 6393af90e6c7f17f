"""The dealer's table screen on a tablet in Chromium (R33-R36): deal the first hand from the high
card, see the next positions, and a player back from away posting the missed blinds to play."""

from __future__ import annotations

from playwright.sync_api import expect
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.holds.models import SeatHold
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import change, fill

TABLET = {"width": 1024, "height": 768}


def _table(room, session, now):
    return fill(room, session, now, room.game(now), "7", 8, "d").id


def _hold(session, seat_no):
    return session.scalar(select(SeatHold.id).where(
        SeatHold.seat_no == seat_no, SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))


def _tall_enough(target) -> bool:
    box = target.bounding_box()
    return box is not None and box["height"] >= 44


def test_r33_r35_deal_hands_and_post_missed_blinds_on_a_tablet(live, page):
    table_id = live.build(_table)
    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    pick = page.get_by_role("link", name="Table 7")
    assert _tall_enough(pick)  # a finger on a tablet (WCAG 2.5.5's 44 px)
    pick.click()
    assert _tall_enough(page.locator("select[name=high_card_seat]"))
    page.select_option("select[name=high_card_seat]", "8")
    page.locator("#deal").click()
    expect(page.locator(".flash.ok")).to_have_text("Hand 1: button 8, small blind 1, big blind 2.")
    positions = page.locator("#positions")
    expect(positions).to_contain_text("Hand 2:")
    expect(positions.locator("[data-pos=button] b")).to_have_text("1")
    expect(positions.locator("[data-pos=bb] b")).to_have_text("3")
    # Seat 4 steps away; the big blind passes it (R35): a missed-BB button on the seat.
    change(live, lambda unit: absences.mark_away(unit, _hold(unit.session, 4)))
    for _ in range(2):
        page.locator("#deal").click()
    seat4 = page.locator(".dseat[data-seat='4']")
    expect(seat4.locator("[data-missed=bb]")).to_be_visible()
    change(live, lambda unit: absences.come_back(unit, _hold(unit.session, 4)))
    page.reload()
    # Hand 4 has the button on 3 and the big blind on 6: seat 4 is between them and waits (R35).
    expect(seat4.locator(".why")).to_contain_text("between the big blind and the button")
    expect(seat4.locator("input[name=posting]")).to_have_count(0)
    page.locator("#deal").click()
    post = seat4.locator("input[name=posting]")
    expect(post).to_be_visible()
    expect(seat4).to_contain_text("dead small blind + live big blind")
    page.screenshot(path=str(SHOTS / "dealer-tablet.png"))
    post.check()
    page.locator("#deal").click()
    expect(page.locator(".flash.ok")).to_contain_text("Hand 5:")
    expect(seat4.locator("[data-missed]")).to_have_count(0)  # posted: the buttons come off
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
    assert table_id


def _per_down(room, session, now):
    """R51: a game raked per dealer down, 5% capped at 5.00 a pot (the 1.00 chip); 8 seated."""
    game = room.game(now, fee_kind="rake", rake_bp=500, rake_cap=500, rake_recorded="per_down",
                     rake_caps_by_players=[{"players": 2, "cap": 300}, {"players": 6, "cap": 500}])
    return fill(room, session, now, game, "9", 8, "w").id


def test_r51_the_dealer_records_the_rake_of_a_down(live, page):
    live.build(_per_down)
    page.set_viewport_size(TABLET)
    log_in(page, live, "main-dealer")
    page.get_by_role("link", name="Table 9").click()
    page.select_option("select[name=high_card_seat]", "8")
    for _ in range(3):
        page.locator("#deal").click()
    down = page.locator("#down-form")
    expect(down).to_contain_text("max £5.00 from 6 players dealt in")  # R53: the caps in force
    expect(page.locator("#rake-form")).to_have_count(0)  # per down: no per-hand rake
    expect(down.locator("input[name=first_hand_no]")).to_have_value("1")
    expect(down.locator("input[name=last_hand_no]")).to_have_value("3")
    down.locator("input[name=rake]").fill("16")  # more than 3 hands x 5.00
    # the forms' script loaded (the page after the last hand is drawn before it runs): without it
    # the form posts as a page of its own, the no-JavaScript refusal
    page.wait_for_load_state("load")
    down.get_by_role("button", name="Record the down's rake").click()
    # refused in the form, what was typed kept (R51), the tablet's page not left
    expect(down.locator(".refusal")).to_contain_text(
        "rake £16.00 is more than the down's 3 hands allow (£15.00")
    expect(down.locator(".refusal")).to_contain_text("R51")
    expect(down.locator("input[name=rake]")).to_have_value("16")
    down.locator("input[name=rake]").fill("12")
    page.screenshot(path=str(SHOTS / "dealer-down-rake.png"))
    down.get_by_role("button", name="Record the down's rake").click()
    expect(page.locator(".flash.ok")).to_have_text("Rake of the down, hands 1 to 3: £12.00 recorded.")
    page.locator("#deal").click()
    expect(down.locator("input[name=first_hand_no]")).to_have_value("4")  # after the last raked
    expect(down.locator("input[name=last_hand_no]")).to_have_value("4")
    assert page.evaluate("document.documentElement.scrollWidth") <= TABLET["width"]
