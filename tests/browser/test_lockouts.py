"""The staff screen's lockouts (R61, R60; issue 40): an admin sees who is locked out by wrong
passwords, from which address and until when, and clears it with one button."""

from __future__ import annotations

from datetime import timedelta

from playwright.sync_api import expect

from roomops.lockouts.rules import Limits
from roomops.lockouts.services import failed
from tests.browser.conftest import SHOTS, log_in

ATTACKER = "203.0.113.7"


def test_r61_an_admin_sees_a_lockout_and_clears_it(live, page):
    def guessed(room, session, now):
        for _ in range(10):
            failed(session, now, "login", "main-cashier", ATTACKER,
                   Limits(10, 30, timedelta(minutes=15)))

    live.build(guessed)
    log_in(page, live, "main-admin")
    page.goto(f"{live.url}/staff")
    row = page.locator(".lockouts-table tbody tr")
    expect(row).to_have_count(1)
    for words in ("main-cashier", "log-in", ATTACKER, "10", "20:15"):
        expect(row).to_contain_text(words)
    row.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "staff-lockouts.png"))
    row.get_by_role("button", name="Clear").click()
    expect(page.locator(".flash.ok")).to_contain_text("Lockout cleared: main-cashier")
    expect(page.locator(".lockouts")).to_contain_text("No one is locked out")
