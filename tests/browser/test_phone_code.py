"""Issue 40 (R12) in Chromium on a 390x844 phone: where the room texts codes, a join from the
phone completes only when the code texted to the number is typed on the phone page; a wrong code
is said with the tries left; the desk then sees the entry as the number's own player, with no
"unverified" mark. The server's clock is frozen; the texts go to a local fake Twilio."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in
from tests.fake_twilio import FakeTwilio, fake_twilio, twilio_settings
from tests.units import act

PHONE = {"width": 390, "height": 844}


@pytest.fixture()
def twilio() -> Iterator[FakeTwilio]:
    with fake_twilio() as fake:
        yield fake


@pytest.fixture()
def live_settings(twilio: FakeTwilio) -> dict[str, object]:
    return {"twilio": twilio_settings(twilio.url, timeout_seconds=10.0)}


def _room(room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    game = room.game(now, variant="NL Hold'em")
    table = room.table(now, game, "1")
    for i, p in enumerate(room.players(now, 9, "S-"), start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i,
            player_id=p.id, buy_in=20000)
    bea = room.player(now, "Bea", "Known")
    bea.phone = "+447700900123"


def test_issue40_the_phone_joins_with_the_code_texted_to_the_number(live, browser, page, twilio):
    live.build(_room)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{live.url}/board/main/join")
    phone.get_by_label(re.compile("NL Hold'em")).check()
    phone.get_by_label("First name").fill("B")
    phone.get_by_label("Phone number").fill("07700 900123")
    phone.get_by_role("button", name="Join").click()
    expect(phone).to_have_url(f"{live.url}/board/main/join/code")
    expect(phone.locator("main")).to_contain_text("ending 123")
    live.texted()
    (seen,) = twilio.requests
    assert seen.form["To"] == "+447700900123"
    code = re.search(r"\b(\d{6})\b", seen.form["Body"]).group(1)
    phone.get_by_label("Code").fill("000000" if code != "000000" else "111111")
    phone.get_by_role("button", name="Join").click()
    expect(phone.locator(".refusal")).to_have_text("That code is not right: 4 tries left.")
    phone.get_by_label("Code").fill(code)
    phone.get_by_role("button", name="Join").click()
    expect(phone).to_have_url(f"{live.url}/board/main/me")
    expect(phone.locator("section.entry")).to_have_count(1)
    phone.screenshot(path=str(SHOTS / "phone-code-joined.png"), full_page=True)

    log_in(page, live)
    row = page.locator("#desk-live tr.entry", has=page.locator(".tag.remote"))
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Bea Known")  # the number's own player, proved
    expect(row.locator(".tag.unverified")).to_have_count(0)
    context.close()
