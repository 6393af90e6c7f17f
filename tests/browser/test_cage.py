"""The cage in a real browser (R27, R28, R32, R52, R54): a cashier finds a player by seat and
records an add-on paid in cash at the table once they have chosen it (nothing is assumed), which
the day's report shows per method; a cashier
pays a cash-out a supervisor approves with their own password (refused in the form until then,
what was typed kept), and an admin reverses it."""

from __future__ import annotations

from playwright.sync_api import expect
from sqlalchemy import select

from roomops.holds.models import SeatHold
from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in
from tests.factories import PASSWORD
from tests.units import act


def _seated(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=1,
        player_id=room.player(now, "Cora").id, buy_in=20000)


def test_r32_an_add_on_in_cash_at_the_table_shows_in_the_days_report(live, page):
    live.build(_seated)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage")
    page.get_by_label("find a player by name, table or seat").fill("1/1")  # table 1, seat 1
    page.get_by_role("button", name="Find").click()
    form = page.locator("form[data-movement=add_on]")
    # R32: "Paid" assumes nothing: unchosen, the add-on is refused in the form, in words
    expect(form.locator("select[name=method] option:checked")).to_have_text("choose how it was paid")
    form.locator("input[name=amount]").fill("50")
    form.locator("button[type=submit]").click()
    expect(form.locator(".refusal")).to_contain_text("choose how it was paid (cash, cash at the table")
    expect(form.locator("input[name=amount]")).to_have_value("50")
    form.locator("select[name=method]").select_option(label="cash at the table")
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


def _left(room, session, now):
    _seated(room, session, now)
    hold = session.scalar(select(SeatHold.id))
    act(session, room.sup, now, seats.leave, hold, 23000)


def test_r27_r52_a_cash_out_approved_by_a_supervisor_then_reversed_by_another(live, page):
    live.build(_left)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage")
    waiting = page.locator("#awaiting article")
    expect(waiting).to_contain_text("Cora Player")
    expect(waiting).to_contain_text("£230.00")
    page.get_by_label("find a player by name, table or seat").fill("cora")
    page.get_by_role("button", name="Find").click()
    form = page.locator("#find form[data-form=cash-out]")
    expect(form.locator("input[name=amount]")).to_have_value("230")
    form.locator("input[name=amount]").fill("250")
    form.locator("select[name=method]").select_option("cash")
    page.evaluate("() => { window.stillThisPage = true; }")
    form.get_by_role("button", name="Pay cash-out").click()
    # refused in the form it was sent from (R27: a supervisor approves the difference), the page
    # and what was typed kept
    refusal = form.locator(".refusal")
    expect(refusal).to_contain_text("£250.00 differs from the £230.00 recorded")
    expect(refusal).to_contain_text("R27")
    expect(refusal).to_contain_text("Nothing was changed")
    expect(form.locator("input[name=amount]")).to_have_value("250")
    assert page.evaluate("() => window.stillThisPage === true")
    page.screenshot(path=str(SHOTS / "cage-refusal.png"), full_page=True)
    form.get_by_label("Approved by (supervisor's username)").fill("main-supervisor")
    form.get_by_label("Their password").fill(PASSWORD)
    form.get_by_role("button", name="Pay cash-out").click()
    expect(page.locator(".flash.ok")).to_contain_text("Cash-out of £250.00 paid (cash), approved by")
    expect(page.locator("#find [data-cashed-out]")).to_contain_text("£250.00")
    page.screenshot(path=str(SHOTS / "cage-cash-out.png"), full_page=True)
    page.get_by_role("button", name="Log out").click()
    log_in(page, live, "main-admin")
    page.goto(f"{live.url}/desk/cage?q=cora")
    row = page.locator("table.cage-rows tr", has_text="cash out")
    row.get_by_label("reason to reverse", exact=False).fill("paid at the wrong window")
    row.get_by_role("button", name="Reverse").click()
    expect(page.locator(".flash.ok")).to_contain_text("reversed")
    expect(page.locator("#awaiting article")).to_contain_text("Cora Player")


def test_the_cage_on_a_phone_does_not_scroll_sideways(live, page):
    """A supervisor's many links wrap in the top bar: the cage at 390 px, every link on screen."""
    live.build(_seated)
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live, "main-supervisor")
    page.goto(f"{live.url}/desk/cage")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for link in page.locator("header.topbar nav a").all():
        box = link.bounding_box()
        assert box and box["x"] + box["width"] <= 390, link.text_content()
