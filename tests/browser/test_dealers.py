"""Issue 42 in a real browser: a dealer coordinator runs a short shift on /dealers (R62-R64). A
supervisor turns the rotation on from the roster's own link to the policy; the coordinator checks
in three dealers at two tables, the clock passes the first push and the plan moves, they name a
table's next dealer with a reason, and check a dealer out; the dealer's tablet shows their own
down and next step, and a table with no dealer says so where the hand is dealt. Screenshots:
dealers-*.png (ROOMOPS_SCREENSHOTS)."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from roomops.actors import console
from roomops.games.models import Table
from roomops.rooms.staff import create_staff
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_dealer import TABLET
from tests.factories import PASSWORD
from tests.units import act

NAMES = ("Amy Hart", "Bo Lind", "Cy Moss")


def _room(room, session, now):
    """Tables 1 and 2 of NL Hold'em open, three dealers and a coordinator; the room on London time
    and its rotation still on paper."""
    room.room.timezone = "Europe/London"
    game = room.game(now)
    for name in ("1", "2"):
        room.table(now, game, name)
    for name in NAMES:
        act(session, console(room.room.id), now, create_staff, username=name.split()[0].lower(),
            password=PASSWORD, roles=("dealer",), display_name=name)
    act(session, console(room.room.id), now, create_staff, username="coord", password=PASSWORD,
        roles=("coordinator",), display_name="Cora Coord")


def _row(page, name):
    return page.locator("#roster tbody tr", has_text=name)


def _turn_rotation_on(live, page):
    log_in(page, live, "main-supervisor")
    page.goto(f"{live.url}/dealers")
    expect(page.locator("#rotation-off")).to_contain_text("keeps its dealers' rotation on paper")
    page.screenshot(path=str(SHOTS / "dealers-off.png"), full_page=True)
    page.get_by_role("link", name="Dealer rotation on the policy page").click()
    page.get_by_label("roomops runs the dealers' roster and rotation").check()
    page.get_by_role("button", name="Save policy").click()
    expect(page.locator(".flash.ok")).to_contain_text("dealer rotation")
    page.get_by_role("button", name="Log out").click()


def test_a_coordinator_runs_a_short_shift(live, page, browser):
    live.build(_room)
    _turn_rotation_on(live, page)
    log_in(page, live, "coord")
    expect(page).to_have_url(f"{live.url}/dealers")
    expect(page.locator("#uncovered")).to_contain_text("Table 1: no dealer")
    for name in NAMES:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect(page.locator(".flash.ok")).to_contain_text(f"{name} checked in")
    expect(_row(page, "Amy Hart")).to_contain_text("Dealing at table 1 since 20:00, push at 20:30")
    expect(_row(page, "Bo Lind")).to_contain_text("Dealing at table 2 since 20:00, push at 20:30")
    expect(_row(page, "Cy Moss")).to_contain_text("Waiting since 20:00")
    expect(page.locator("#uncovered")).to_have_count(0)
    expect(page.locator("#pushes li").first).to_contain_text("20:30 Cy Moss pushes Amy Hart at table 1")
    expect(page.locator("#plan tr[data-table] td.down").first).to_have_text("Amy Hart")
    page.screenshot(path=str(SHOTS / "dealers-roster.png"), full_page=True)

    live.clock.advance(minutes=31)
    live.sweep()  # the push at 20:30, carried out as the scheduler would; the page shows it unreloaded
    expect(_row(page, "Cy Moss")).to_contain_text("Dealing at table 1 since 20:31, push at 21:01")
    expect(_row(page, "Amy Hart")).to_contain_text("Dealing at table 2 since 20:31")
    expect(_row(page, "Bo Lind")).to_contain_text("Waiting since 20:31")
    expect(page.locator("#plan tr[data-table] td.down").first).to_have_text("Cy Moss")
    page.screenshot(path=str(SHOTS / "dealers-pushed.png"), full_page=True)

    form = page.locator("form.override[data-table]").first
    form.get_by_label("Next dealer at table 1").select_option(label="Bo Lind")
    form.get_by_label("Why").fill("Bo asked for the big game")
    form.get_by_role("button", name="Name next dealer").click()
    expect(page.locator(".flash.ok")).to_contain_text("Bo Lind takes table 1 at its next push.")
    expect(page.locator("form.override[data-table]").first).to_contain_text(
        "Named: Bo Lind (Bo asked for the big game)")
    expect(page.locator("#pushes li").first).to_contain_text("21:01 Bo Lind pushes Cy Moss at table 1")
    expect(page.locator("#pushes li", has_text="Amy Hart goes on break")).to_contain_text("21:01")
    page.screenshot(path=str(SHOTS / "dealers-override.png"), full_page=True)

    tablet = browser.new_context(viewport=TABLET).new_page()
    try:
        log_in(tablet, live, "cy")
        expect(tablet.locator("#my-state")).to_have_text("Your down at table 1 until 21:01")
        expect(tablet.locator("#my-steps li").first).to_contain_text("Next: ")
        tablet.screenshot(path=str(SHOTS / "dealers-tablet.png"), full_page=True)
    finally:
        tablet.context.close()

    page.once("dialog", lambda dialog: dialog.accept())  # Amy is dealing: the page asks first
    page.get_by_role("button", name="Check out Amy Hart").click()
    expect(page.locator(".flash.ok")).to_contain_text("Amy Hart checked out.")
    expect(_row(page, "Amy Hart")).to_contain_text("Checked out")
    expect(_row(page, "Bo Lind")).to_contain_text("Dealing at table 2 since 20:31")  # R63: Bo takes it
    page.screenshot(path=str(SHOTS / "dealers-checked-out.png"), full_page=True)


def test_r63_a_table_with_no_dealer_says_so_on_the_tablet(live, page):
    def rotating(room, session, now):
        _room(room, session, now)
        room.room.dealer_rotation = True
        return session.scalars(select(Table.id).where(Table.name == "1")).one()

    table_id = live.build(rotating)
    page.set_viewport_size(TABLET)
    log_in(page, live, "amy")
    expect(page.locator("#my-state")).to_have_text("Checked out")
    page.goto(f"{live.url}/dealer/tables/{table_id}")
    expect(page.locator("#table-down")).to_have_text(
        "No dealer is assigned to this table: hands cannot be recorded until the dealer coordinator "
        "assigns one.")
    expect(page.locator("#deal")).to_be_disabled()
    page.screenshot(path=str(SHOTS / "dealers-no-dealer.png"), full_page=True)


def test_a_whole_shift_from_check_in_to_the_shared_tips(live, page, browser):
    """R62-R64, R66 through a night: three dealers check in at two tables, six pushes are carried
    out by the sweep as the clock moves, every table keeps a dealer, each dealer gets a break, the
    tablet follows its dealer; then all check out and the pool is counted and shared by downs."""
    def rotating(room, session, now):
        _room(room, session, now)
        room.room.dealer_rotation = True

    live.build(rotating)
    log_in(page, live, "coord")
    for name in NAMES:
        page.get_by_role("button", name=f"Check in {name}").click()
        expect(page.locator(".flash.ok")).to_contain_text(f"{name} checked in")
    tablet = browser.new_context(viewport=TABLET).new_page()
    rested: set[str] = set()
    try:
        log_in(tablet, live, "cy")
        for _push in range(6):
            live.clock.advance(minutes=30)
            live.sweep()
            page.reload()
            expect(page.locator("#uncovered")).to_have_count(0)  # R63: never a table without a dealer
            rested |= {name for name in NAMES if "On break until" in _row(page, name).inner_text()}
            tablet.reload()
            expect(tablet.locator("#my-state")).to_contain_text(
                re.compile(r"Your down at table \d until|On break until|Waiting since"))
        tablet.screenshot(path=str(SHOTS / "dealers-tablet-night.png"), full_page=True)
    finally:
        tablet.context.close()
    assert rested == set(NAMES)  # R64: with one dealer spare, each has had a break

    for name in NAMES:
        if "Dealing" in _row(page, name).inner_text():
            page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name=f"Check out {name}").click()
        expect(_row(page, name)).to_contain_text("Checked out")

    page.get_by_role("link", name="Tips").click()
    page.get_by_label("Pool counted").fill("90")
    page.get_by_label("Confirmed by (their username)").fill("main-supervisor")
    page.get_by_label("Their password").fill(PASSWORD)
    page.get_by_role("button", name="Record the count").click()
    expect(page.locator(".flash.ok")).to_contain_text("Toke pool of £90.00 recorded")
    shares = page.locator("[data-shares] tbody tr")
    expect(shares).to_have_count(3)
    expect(page.locator("[data-shares] tfoot")).to_contain_text("12")  # 2 tables, 6 downs each
    total = sum(float(cell.replace("£", "")) for cell in page.locator("[data-shares] tbody td.num:last-child")
                .all_inner_texts())
    assert round(total, 2) == 90.00  # R66: the shares add up to the pool
    page.screenshot(path=str(SHOTS / "dealers-tips.png"), full_page=True)
