"""Words, not rule numbers (issue 40): players' pages (the TV board, the phone's board, the join
page and its refusal, the personal link with its history and its call) never show a rule id in
English, German or Italian; no staff screen's button says "(R<n>)". The rule stays in the
refusal's data-rule, the API's JSON and the audit trail."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.seating import seats
from tests.browser.conftest import log_in
from tests.browser.test_desk import populated_desk
from tests.browser.test_phone import phone_table

# Every button's words, shown or not (a dialog's too): its text and a submit input's value.
BUTTONS = """() => [...document.querySelectorAll('button, input[type=submit], input[type=button]')]
  .map(b => (b.textContent || b.value || '').trim()).filter(t => /\\(R\\d/.test(t))"""
RULE = re.compile(r"\(R\d")


def _no_rule(page: Page) -> None:
    text = page.locator("body").inner_text()
    assert not RULE.search(text), (page.url, RULE.findall(text), text[:400])


@pytest.mark.parametrize("locale,join", [("en-GB", "Join"), ("de-DE", "Eintragen"),
                                         ("it-IT", "Iscriviti")])
def test_players_pages_show_no_rule_ids(live, browser, locale, join):
    holds = live.build(phone_table)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
    phone = context.new_page()
    phone.goto(f"{live.url}/board/main")
    _no_rule(phone)
    phone.goto(f"{live.url}/board/main/join")
    phone.locator("input[name=game_id]").first.check()
    phone.locator("input[name=first_name]").fill("Nora")
    phone.locator("input[name=phone]").fill("12")
    phone.get_by_role("button", name=join).click()
    expect(phone.locator(".refusal")).to_have_attribute("data-rule", "R12")
    _no_rule(phone)
    phone.locator("input[name=phone]").fill("07700 900123")
    phone.get_by_role("button", name=join).click()
    expect(phone).to_have_url(f"{live.url}/board/main/me")
    with live.app.extensions["roomops"].sessions() as session:
        entry_id = session.query(ListEntry).one().id
    live.act("main-supervisor", lists.check_in, entry_id)
    live.act("main-supervisor", seats.leave, holds[3], 20000)  # Nora is called
    phone.reload()
    expect(phone.locator(".call")).to_be_visible()
    phone.locator("section.entry summary").click()
    expect(phone.locator(".history li")).to_have_count(3)  # joined, checked in, called
    _no_rule(phone)
    tv = context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(f"{live.url}/board/main")
    expect(tv.locator(".called")).to_be_visible()
    _no_rule(tv)
    context.close()


@pytest.mark.parametrize("who,screens", [
    ("main-admin", ("/desk", "/desk/phones", "/desk/policy", "/staff", "/audit", "/account")),
    ("main-cashier", ("/desk/cage", "/desk/fees", "/desk/cage/report")),
    ("main-dealer", ("/dealer",))])
def test_no_staff_button_names_a_rule(live, page, who, screens):
    populated_desk(live)
    log_in(page, live, who)
    for screen in screens:
        page.goto(f"{live.url}{screen}")
        assert page.evaluate(BUTTONS) == [], screen
