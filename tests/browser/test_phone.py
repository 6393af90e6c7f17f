"""A player's phone in Chromium (390x844): join two games from the phone page, see the place and
the check-in countdown, the desk sees both as remote and checks one in, the player leaves the
other (R12, R13, R16, R61). The server's clock is frozen; nothing sleeps."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from roomops.lists import services as lists
from roomops.push.embedded import KEY
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.browser.conftest import SHOTS, Live, log_in
from tests.units import act

PHONE = {"width": 390, "height": 844}


def _room(room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    for variant, name in (("NL Hold'em", "1"), ("PL Omaha", "2")):
        game = room.game(now, variant=variant)
        table = room.table(now, game, name)
        for i, p in enumerate(room.players(now, 9, f"S{name}-"), start=1):
            act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i,
                player_id=p.id, buy_in=20000)
    waiting = room.player(now, "Wes", "Ahead")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)


def test_r12_r16_join_two_games_from_the_phone_desk_checks_one_in_player_leaves_the_other(
        live, browser, page):
    live.build(_room)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    blocked: list[str] = []
    context.on("console", lambda msg: blocked.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    phone = context.new_page()
    phone.goto(f"{live.url}/board/main")
    phone.get_by_role("link", name="Join a list").click()
    phone.get_by_label(re.compile("NL Hold'em")).check()
    phone.get_by_label(re.compile("PL Omaha")).check()
    phone.get_by_label("First name").fill("Nora")
    phone.get_by_label(re.compile("Last name")).fill("Quinn")
    phone.get_by_label("Phone number").fill("07700 900123")
    phone.get_by_role("button", name="Join").click()
    expect(phone).to_have_url(f"{live.url}/board/main/me")
    entries = phone.locator("section.entry")
    expect(entries).to_have_count(2)
    nlh, plo = entries.nth(0), entries.nth(1)
    expect(nlh.locator(".place")).to_contain_text("Place 1 on the list: you are next")
    expect(plo.locator(".place")).to_contain_text("Place 2 on the list: 1 player ahead")
    expect(nlh.locator(".checkin .countdown")).to_have_text(re.compile(r"^(30:00|29:5\d)$"))
    live.clock.advance(minutes=4)
    phone.reload()
    expect(nlh.locator(".checkin .countdown")).to_have_text(re.compile(r"^(26:00|25:5\d)$"))
    expect(phone.locator(".link")).to_contain_text("/p/")
    phone.screenshot(path=str(SHOTS / "phone-entries.png"), full_page=True)

    log_in(page, live)
    remote = page.locator("#desk-live tr.entry", has=page.locator(".tag.remote"))
    expect(remote).to_have_count(2)
    expect(remote.first.locator(".countdown")).to_have_text(re.compile(r"^(26:00|25:5\d)$"))
    nlh_row = page.locator("#desk-live tr.entry[data-name='Nora Quinn']").first
    nlh_row.locator("button[data-act=entry]").click()
    page.get_by_role("button", name="Checked in at the desk").click()
    expect(page.locator(".flash.ok")).to_be_visible()

    phone.reload()
    expect(nlh.locator(".checkin")).to_have_text("Checked in")
    nlh.locator("summary").click()
    expect(nlh.locator(".history")).to_contain_text("You checked in at the desk.")
    plo.get_by_role("button", name="Leave this list").click()
    expect(phone.get_by_role("button", name="Leave this list")).to_have_count(1)
    expect(phone.locator("section.entry.removed .history")).to_contain_text(
        "You left this list.")
    page.reload()
    expect(page.locator("#desk-live tr.entry", has=page.locator(".tag.remote"))).to_have_count(1)
    context.close()
    assert not blocked, f"the CSP blocked: {blocked}"


def phone_table(room, session, now):
    """A full NL Hold'em table; the room takes entries from phones (R12)."""
    act(session, room.sup, now, update_policy, remote_entries=True)
    game = room.game(now)
    table = room.table(now, game, "1")
    return [act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i,
                player_id=p.id, buy_in=20000).id
            for i, p in enumerate(room.players(now, 9, "S"), start=1)]


def joins_nl_holdem(phone: Page, live: Live, first: str, number: str) -> None:
    """The player joins the NL Hold'em list from the phone page (R12) and lands on their own."""
    phone.goto(f"{live.url}/board/main/join")
    phone.get_by_label(re.compile("NL Hold'em")).check()
    phone.get_by_label("First name").fill(first)
    phone.get_by_label("Phone number").fill(number)
    phone.get_by_role("button", name="Join").click()
    expect(phone).to_have_url(f"{live.url}/board/main/me")
    # the address changes before the page's script has run: its mode is asked of it after
    phone.wait_for_function("() => window.roomopsPhone !== undefined")


# Records what the page asks the phone to do (a headless browser neither buzzes nor plays).
RECORD = """() => {
  window.__buzz = [];
  navigator.vibrate = pattern => { window.__buzz.push(pattern); return true; };
  window.__beeps = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...a) { window.__beeps += 1; return start.apply(this, a); };
}"""


def test_r20_the_seat_offered_reaches_the_players_open_page_at_once_with_a_buzz_and_a_beep(
        live, browser, page):
    """The moment the seat is offered, the player's open page shows it with the claim countdown,
    pushed (the room's stream names the game; no poll ran), and the phone vibrates and beeps
    once the player has turned alerts on."""
    holds = live.build(phone_table)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.add_init_script(f"({RECORD})()")
    joins_nl_holdem(phone, live, "Nora", "07700 900123")
    phone.wait_for_function("() => window.roomopsPhone.mode() === 'push'")
    phone.get_by_role("button", name="Sound and vibration when my seat is ready").click()
    expect(phone.get_by_text("Sound and vibration are on")).to_be_visible()
    reads: list[str] = []
    phone.on("request", lambda r: reads.append(r.url) if r.url.endswith("/me") else None)

    log_in(page, live)
    page.locator("#desk-live tr.entry[data-name='Nora']").first.locator(
        "button[data-act=entry]").click()
    page.get_by_role("button", name="Checked in at the desk").click()
    expect(page.locator(".flash.ok")).to_be_visible()
    live.act("main-supervisor", seats.leave, holds[3], 20000)  # the publisher hears of it
    call = phone.locator(".call")
    # pushed: well before the 5 s poll would read it, with room for a loaded machine
    expect(call).to_contain_text("Seat offered: table 1 seat 4, claim within", timeout=3000)
    expect(call.locator(".countdown")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    assert phone.evaluate("() => window.__buzz") == [50, [400, 150, 400, 150, 400]]
    assert phone.evaluate("() => window.__beeps") == 2
    assert phone.title().startswith("Your seat is ready")
    # a read begun before the call was shown (the push and the poll crossing) buzzes no more
    phone.evaluate("() => document.querySelectorAll('#mine .call').forEach(c => c.remove())")
    phone.evaluate("() => window.roomopsPhone.refresh()")
    expect(call).to_contain_text("Seat offered: table 1 seat 4")
    assert phone.evaluate("() => window.__buzz") == [50, [400, 150, 400, 150, 400]]
    assert 1 <= len(reads) <= 3  # read again because its game changed, not every 5 s
    phone.screenshot(path=str(SHOTS / "phone-seat-ready.png"))
    context.close()


def test_a_phone_refused_its_stream_asks_again_a_minute_later(live, browser):
    """A player's page whose stream is refused (a push server restarted before the room was
    published again; the app past its limit) polls, and asks for the stream again a minute later."""
    live.build(phone_table)
    push = live.app.extensions[KEY]
    served, push.streams = push.streams, 0
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.clock.install()  # the page's timers: the minute is moved on, not waited for
    joins_nl_holdem(phone, live, "Ola", "07700 900124")
    phone.wait_for_function("() => window.roomopsPhone.mode() === 'poll'")
    push.streams = served
    phone.clock.run_for(75_000)  # past the minute and the fifth more it may wait
    phone.wait_for_function("() => window.roomopsPhone.mode() === 'push'")
    context.close()
