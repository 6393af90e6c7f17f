"""R61 on the screens: an admin creates a cashier on the Staff screen, the cashier logs in (the
cage opens, not the desk) and changes their own password; the admin gives them a second role,
then deactivates them (asked to confirm), and the cashier's open browser is logged out at its
next page. docs/screenshots/staff.png."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import SHOTS, Live, log_in

FIRST, SECOND = "first long password", "second long password"


def _log_in_as(page: Page, live: Live, username: str, password: str) -> None:
    page.goto(f"{live.url}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")


def test_an_admin_manages_a_cashier_from_first_log_in_to_deactivation(live, page, browser):
    live.build(lambda room, session, now: room)
    log_in(page, live, "main-admin")
    page.get_by_role("link", name="Staff").click()
    new = page.locator("form[action$='/staff']")
    new.get_by_label("Username").fill("ann")
    new.get_by_label("Name shown").fill("Ann Lee")
    new.get_by_label("Password").fill(FIRST)
    new.get_by_label("cashier").check()
    new.get_by_role("button", name="Create").click()
    expect(page.locator(".flash.ok")).to_contain_text("Ann Lee can log in as ann")
    row = page.locator("tr[data-username=ann]")
    expect(row).to_contain_text("Ann Lee")
    page.screenshot(path=str(SHOTS / "staff.png"))

    cashier = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        ann = cashier.new_page()
        _log_in_as(ann, live, "ann", FIRST)
        expect(ann).to_have_url(f"{live.url}/desk/cage")
        expect(ann.locator("nav")).not_to_contain_text("Desk")
        ann.locator("a.who").click()
        ann.get_by_label("Current password").fill(FIRST)
        ann.get_by_label("New password", exact=True).fill(SECOND)
        ann.get_by_label("New password again").fill(SECOND)
        ann.get_by_role("button", name="Change password").click()
        expect(ann.locator(".flash.ok")).to_contain_text("Password changed")
        ann.goto(f"{live.url}/desk/cage")  # this log-in goes on under the new password
        expect(ann).to_have_url(f"{live.url}/desk/cage")

        # a second role ends her log-ins: she logs in again and now sees the dealer's screen
        row.get_by_label("dealer").check()
        row.get_by_role("button", name="Save roles").click()
        expect(page.locator(".flash.ok")).to_contain_text("ann: cashier, dealer")
        ann.goto(f"{live.url}/desk/cage")
        expect(ann).to_have_url(f"{live.url}/login?next=%2Fdesk%2Fcage")
        _log_in_as(ann, live, "ann", SECOND)
        expect(ann.locator("nav")).to_contain_text("Dealer")

        row = page.locator("tr[data-username=ann]")
        row.get_by_label("Reason").fill("left the company")
        page.once("dialog", lambda dialog: dialog.accept())
        row.get_by_role("button", name="Deactivate").click()
        expect(page.locator(".flash.ok")).to_contain_text("Ann Lee is deactivated")
        expect(page.locator("tr[data-username=ann]")).to_contain_text("deactivated")
        ann.goto(f"{live.url}/dealer")
        expect(ann).to_have_url(f"{live.url}/login?next=%2Fdealer")
        _log_in_as(ann, live, "ann", SECOND)
        expect(ann.locator(".flash.error")).to_contain_text("Wrong username or password")
    finally:
        cashier.close()


def test_deactivation_asks_first_and_a_no_changes_nothing(live, page):
    live.build(lambda room, session, now: room)
    log_in(page, live, "main-admin")
    page.goto(f"{live.url}/staff")
    row = page.locator("tr[data-username=main-cashier]")
    row.get_by_label("Reason").fill("left")
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_role("button", name="Deactivate").click()
    expect(row.get_by_role("button", name="Deactivate")).to_be_visible()
    page.reload()
    expect(page.locator("tr[data-username=main-cashier]")).not_to_contain_text("deactivated")
