"""Issue 20 in a real browser: a supervisor sets each of the settings rooms differ on (R12, R13,
R17, R24, R27, and issue 40's R35 posting behind the button) on the policy screen, in words
beside their rule ids, with the players' pages' language and the phone page's own entries
(issue 21), saves, and reads them back. The screenshot is docs/screenshots/policy.png
(docs/desk.md) with ROOMOPS_SCREENSHOTS set."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import SHOTS, log_in


def test_policy_screen_sets_the_settings_rooms_differ_on(live, page):
    live.build(lambda room, session, now: None)
    log_in(page, live)
    page.goto(f"{live.url}/desk/policy")
    section = page.locator("#room-settings")
    for rule in ("R12", "R13", "R17", "R24", "R27"):
        expect(section).to_contain_text(rule)
    section.get_by_label("call-ins are taken").uncheck()
    page.get_by_label("Players' board and phone pages in").select_option(label="Italiano")
    section.get_by_label("players may join waiting lists themselves").check()
    section.locator("input[name=remote_entry_cap]").fill("2")
    section.locator("input[name=lockup_minutes]").fill("15")
    section.locator("select[name=break_expiry]").select_option(
        label="the seat is lost only when someone is waiting for it")
    section.locator("select[name=must_move_when]").select_option(
        label="moves when the big blind reaches them, and posts a big blind at the main table")
    section.locator("input[name=return_tolerance]").fill("10%")
    behind = page.get_by_label("between the button and the small blind may post there")  # R35
    expect(behind).not_to_be_checked()  # issue 40: off by default
    behind.check()
    page.get_by_role("button", name="Save policy").click()
    expect(page.locator(".flash.ok")).to_contain_text("break expiry")
    for words in ("call ins", "lockup minutes", "must move when", "return tolerance", "language",
                  "remote entries", "remote entry cap", "post behind button"):
        expect(page.locator(".flash.ok")).to_contain_text(words)
    expect(section.get_by_label("call-ins are taken")).not_to_be_checked()
    expect(page.locator("select[name=language] option:checked")).to_have_text("Italiano")
    expect(section.get_by_label("players may join waiting lists themselves")).to_be_checked()
    expect(section.locator("input[name=remote_entry_cap]")).to_have_value("2")
    expect(section.locator("input[name=lockup_minutes]")).to_have_value("15")
    expect(section.locator("select[name=must_move_when] option:checked")).to_have_text(
        "moves when the big blind reaches them, and posts a big blind at the main table")
    expect(behind).to_be_checked()
    expect(section.locator("input[name=return_tolerance]")).to_have_value("10%")
    section.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "policy.png"), full_page=True)
