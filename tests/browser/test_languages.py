"""Issue 21 in Chromium: a German phone joins a list and follows its entry in German (the refusal,
the place, the check-in countdown, the history, the seat offered with its claim countdown and the
tab's title);
a TV set to Italian shows the board in Italian and takes a pushed change in Italian. The server's
clock is frozen; nothing sleeps."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_phone import phone_table
from tests.browser.test_push import desk_adds, room_with_a_game

PHONE = {"width": 390, "height": 844}


def test_issue21_a_german_phone_joins_and_follows_its_entry_in_german(live, browser, page):
    holds = live.build(phone_table)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE")
    blocked: list[str] = []
    context.on("console", lambda msg: blocked.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    phone = context.new_page()
    phone.goto(f"{live.url}/board/main")
    expect(phone.locator("html")).to_have_attribute("lang", "de")
    # the legend's longer German words wrap: nothing runs off the phone's side
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.get_by_role("link", name="Auf die Warteliste").click()
    phone.get_by_label(re.compile("NL Hold'em")).check()
    phone.get_by_label("Vorname").fill("Nora")
    phone.get_by_label("Telefonnummer").fill("12")
    phone.get_by_role("button", name="Eintragen").click()
    expect(phone.locator(".refusal")).to_contain_text("ist keine lesbare Telefonnummer")
    expect(phone.locator(".refusal")).to_have_attribute("data-rule", "R12")
    phone.screenshot(path=str(SHOTS / "phone-join-refused-de.png"), full_page=True)
    phone.get_by_label("Telefonnummer").fill("07700 900123")
    phone.get_by_role("button", name="Eintragen").click()
    expect(phone).to_have_url(f"{live.url}/board/main/me")
    entry = phone.locator("section.entry")
    expect(entry.locator(".place")).to_contain_text(
        "Position 1 auf der Liste: Sie sind als Nächster dran")
    expect(entry.locator(".checkin")).to_contain_text("Melden Sie sich am Desk innerhalb von")
    expect(entry.locator(".checkin .countdown")).to_have_text(re.compile(r"^(30:00|29:5\d)$"))
    entry.locator("summary").click()
    expect(entry.locator(".history")).to_contain_text(
        "Sie haben sich per Handy auf die Warteliste gesetzt.")
    phone.screenshot(path=str(SHOTS / "phone-entries-de.png"), full_page=True)
    phone.wait_for_function("() => window.roomopsPhone.mode() === 'push'")

    log_in(page, live)
    page.locator("#desk-live tr.entry[data-name='Nora']").first.locator(
        "button[data-act=entry]").click()
    page.get_by_role("button", name="Checked in at the desk").click()
    expect(page.locator(".flash.ok")).to_be_visible()  # the desk stays English
    live.act("main-supervisor", seats.leave, holds[3], 20000)
    call = phone.locator(".call")
    expect(call).to_contain_text("Platz frei für Sie: Tisch 1, Platz 4", timeout=1500)
    expect(call.locator(".countdown")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    expect(phone).to_have_title(re.compile("^Ihr Platz ist frei · "))
    phone.screenshot(path=str(SHOTS / "phone-seat-ready-de.png"))
    context.close()
    assert not blocked, f"the CSP blocked: {blocked}"


def test_issue21_a_tv_set_to_italian_shows_and_takes_pushed_changes_in_italian(live, page, browser):
    game_id = live.build(room_with_a_game)
    page.goto(f"{live.url}/board/main?lang=it")
    expect(page.locator("html")).to_have_attribute("lang", "it")
    expect(page.locator(".waiting h4")).to_have_text("Lista d'attesa")
    expect(page.locator(".waiting .empty")).to_have_text("Nessuno in attesa.")
    expect(page.locator(".languages strong")).to_have_text("IT")
    page.wait_for_function("() => window.roomopsBoard.mode() === 'push'")
    desk_adds(browser, live, game_id, "Xena")
    expect(page.locator(".waiting .place .who")).to_have_text(["Xena P."], timeout=1500)
    expect(page.locator(".game .summary")).to_contain_text("1 in attesa")
    expect(page.locator(".waiting h4")).to_have_text("Lista d'attesa")  # the pushed game, Italian
    page.screenshot(path=str(SHOTS / "board-it.png"))
    page.get_by_role("link", name="EN").click()
    expect(page.locator(".waiting h4")).to_have_text("Waiting list")
