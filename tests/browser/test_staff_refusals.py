"""Refusals on the staff screens show in the form they came from, naming the problem and its rule,
with what was typed kept and the page not left (static/staff-forms.js through
templates/_staff_forms.html): the policy (R27), the staff screen (R61), one's own account (R61),
the fees (R50), the blocked numbers (R12) and the day's report (R54). A done action still loads
the screen again with its message. The cage's and the dealer's: tests/browser/test_cage.py and
test_dealer.py."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import fill
from tests.factories import PASSWORD


def mark(page: Page) -> None:
    """A mark on this page's window: gone if the page is loaded again."""
    page.evaluate("() => { window.stillThisPage = true; }")


def refused_here(page: Page, form: Locator, *words: str) -> None:
    refusal = form.locator(".refusal")
    for word in (*words, "Nothing was changed"):
        expect(refusal).to_contain_text(word)
    assert page.evaluate("() => window.stillThisPage === true")


def test_r27_a_policy_value_refused_shows_in_the_policy_form(live, page):
    live.build(lambda room, session, now: None)
    log_in(page, live)
    page.goto(f"{live.url}/desk/policy")
    field = page.locator("input[name=return_tolerance]")
    field.fill("a lot")
    mark(page)
    page.get_by_role("button", name="Save policy").click()
    refused_here(page, page.locator("form", has=field), "return_tolerance", "R27")
    expect(field).to_have_value("a lot")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()
    field.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "policy-refusal.png"))
    field.fill("10%")
    page.get_by_role("button", name="Save policy").click()
    expect(page.locator(".flash.ok")).to_contain_text("return tolerance")
    expect(page.locator(".refusal")).to_have_count(0)
    expect(page.locator("input[name=return_tolerance]")).to_have_value("10%")


def test_r61_a_taken_username_and_a_wrong_password_refused_in_their_forms(live, page):
    live.build(lambda room, session, now: None)
    log_in(page, live, "main-admin")
    page.goto(f"{live.url}/staff")
    new = page.locator("form", has=page.get_by_role("heading", name="New log-in"))
    new.get_by_label("Username").fill("main-cashier")
    new.get_by_label("Password").fill("a long enough password")
    new.get_by_label("cashier", exact=True).check()
    mark(page)
    new.get_by_role("button", name="Create").click()
    refused_here(page, new, "the username main-cashier is taken", "R61")
    expect(new.get_by_label("Username")).to_have_value("main-cashier")
    new.get_by_label("Username").fill("cara")
    new.get_by_role("button", name="Create").click()
    expect(page.locator(".flash.ok")).to_contain_text("can log in as cara")

    page.goto(f"{live.url}/account")
    form = page.locator("form", has=page.get_by_role("heading", name="Change your password"))
    form.get_by_label("Current password").fill("not my password")
    form.get_by_label("New password", exact=True).fill("another long password")
    form.get_by_label("New password again").fill("another long password")
    mark(page)
    form.get_by_role("button", name="Change password").click()
    refused_here(page, form, "the current password is wrong", "R61")
    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_role("button", name="Change password").click()
    # the renewed log-in reached the browser with the answer: the screen loads, still logged in
    expect(page.locator(".flash.ok")).to_contain_text("Password changed")
    expect(page.get_by_role("heading", name="Change your password")).to_be_visible()


def _hourly_table(room, session, now):
    game = room.game(now, fee_kind="hourly", time_fee=500)
    return fill(room, session, now, game, "4", 3, "h").id


def test_r50_a_fee_collected_meanwhile_is_refused_in_the_stale_form(live, page):
    table_id = live.build(_hourly_table)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/fees")
    other = page.context.new_page()  # a second cashier's screen collects first
    other.goto(f"{live.url}/desk/fees")
    other.locator(f"table.fees-tables tr[data-table='{table_id}']").get_by_role("button").click()
    expect(other.locator(".flash.ok")).to_contain_text("3 fees of £5.00 collected")
    row = page.locator(f"table.fees-tables tr[data-table='{table_id}']")
    mark(page)
    row.get_by_role("button", name="Collect from the whole table (3 due)").click()
    refused_here(page, row.locator("form"), "nobody at table 4 is due", "R50")


def test_r12_an_unreadable_number_is_refused_in_the_block_form(live, page):
    live.build(lambda room, session, now: None)
    log_in(page, live)
    page.goto(f"{live.url}/desk/phones")
    form = page.locator("form", has=page.get_by_label("Phone number"))
    form.get_by_label("Phone number").fill("12")
    form.get_by_label("Reason").fill("joined twenty lists")
    mark(page)
    form.get_by_role("button", name="Block").click()
    refused_here(page, form, "R12")
    expect(form.get_by_label("Reason")).to_have_value("joined twenty lists")
    form.get_by_label("Phone number").fill("07700 900123")
    form.get_by_role("button", name="Block").click()
    expect(page.locator(".flash.ok")).to_be_visible()
    expect(page.locator("table.blocks")).to_contain_text("joined twenty lists")


def _one_table(room, session, now):
    room.table(now, room.game(now), "1")


def test_r54_a_variance_without_an_explanation_is_refused_in_the_counts(live, page):
    live.build(_one_table)
    log_in(page, live, "main-cashier")
    page.goto(f"{live.url}/desk/cage/report")
    form = page.locator("form", has=page.get_by_role("button", name="Record my counts"))
    form.get_by_label("count of the total").fill("5")
    mark(page)
    form.get_by_role("button", name="Record my counts").click()
    refused_here(page, form, "counted £5.00, the ledger expects £0.00", "R54")
    page.screenshot(path=str(SHOTS / "report-refusal.png"), full_page=True)
    expect(form.get_by_label("count of the total")).to_have_value("5")
    form.get_by_label("explanation for the total").fill("a tip left in the float")
    form.get_by_role("button", name="Record my counts").click()
    expect(page.locator(".flash.ok")).to_contain_text("1 counts recorded")
