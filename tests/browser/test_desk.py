"""The desk in a real browser: adding a player, the offered seat with its countdown (R20), the claim
(R21), and a missed call after the deadline with the next player offered (R22). The server's clock
is frozen; the tests advance it instead of waiting."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import expect

from roomops.absences import services as absences
from roomops.lists import services as lists
from roomops.rooms.services import add_player
from roomops.seating import seats
from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_board import change, fill
from tests.factories import as_staff
from tests.units import act


def _one_free_seat(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    for i, p in enumerate(room.players(now, 8, "Seat"), start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i, player_id=p.id,
            buy_in=20000)
    return game.id


def test_r20_r21_add_player_see_offer_countdown_and_claim(live, page):
    game_id = live.build(_one_free_seat)
    log_in(page, live)
    form = page.locator("form[data-form=add-player]")
    form.locator("input[name=first_name]").fill("Nora")
    form.locator("input[name=last_name]").fill("Quinn")
    form.locator(f"input[name=game_id][value='{game_id}']").check()
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Put Nora Quinn on 1 list")
    seat = page.locator("#desk-live .seat[data-seat-no='9']")
    expect(seat).to_have_class(re.compile("state-offered"))
    expect(seat).to_contain_text("Nora Quinn")
    expect(seat.locator(".countdown")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    # The countdown follows the server's clock, not the browser's: 3 minutes on, 7 minutes left.
    live.clock.advance(minutes=3)
    page.reload()
    expect(seat.locator(".countdown")).to_have_text(re.compile(r"^(7:00|6:5\d)$"))
    seat.locator("button").click()
    dialog = page.locator("dialog#act")
    expect(dialog).to_be_visible()
    # R40/R53: the straddle settings and the fee, for the player before they sit
    expect(page.locator("#act-sub")).to_contain_text("Tell the player (R40, R53): No straddles.")
    claim = dialog.locator("section[data-for=seat-offered] form").first
    expect(claim.locator("input[name=buy_in]")).to_have_value("100")  # the game's minimum
    claim.locator("input[name=buy_in]").fill("250")
    claim.locator("button[type=submit]").click()
    expect(page.locator(".flash.ok")).to_contain_text("Nora Quinn took seat 9 at table 1 with £250.00")
    expect(seat).to_have_class(re.compile("state-seated"))
    expect(seat).to_contain_text("250")


def test_r22_missed_call_then_next_player_offered_by_the_poll(live, page):
    def build(room, session, now):
        game_id = _one_free_seat(room, session, now)
        for i, name in enumerate(("Olga", "Pete")):
            p = room.player(now, name, "Late")
            act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=p.id, game_id=game_id)
        return game_id

    live.build(build)
    log_in(page, live)
    seat = page.locator("#desk-live .seat[data-seat-no='9']")
    expect(seat).to_contain_text("Olga Late")
    expect(seat).to_have_class(re.compile("state-offered"))
    live.clock.advance(minutes=10, seconds=1)
    # Before the sweep: the poll (a 304) brings the server's time and the seat reads as expired.
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(seat).to_have_class(re.compile("state-expired"))
    expect(seat).to_contain_text("Olga Late")
    live.sweep()
    # The sweep is audited: the next poll swaps in the seat offered to the next player.
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(seat).to_contain_text("Pete Late")
    expect(seat).to_have_class(re.compile("state-offered"))
    expect(page.locator("#desk-live")).not_to_contain_text("Olga Late")  # removed (default policy)
    page.goto(f"{live.url}/audit?action=offer.expired")
    expect(page.locator("table.audit")).to_contain_text("scheduler")
    page.locator("table.audit a").first.click()
    expect(page.locator("table.history")).to_contain_text("Missed call: offer expired")
    expect(page.locator("table.history")).to_contain_text("Offered seat 9 at table 1")


def test_poll_does_not_swap_while_a_dialog_is_open(live, page):
    game_id = live.build(_one_free_seat)
    log_in(page, live)
    page.locator("#desk-live .seat[data-seat-no='1'] button").click()
    dialog = page.locator("dialog#act")
    leave = dialog.locator("section[data-for=seat-seated] input[name=leave_amount]")
    leave.fill("123")

    def join(sup, session, now):
        p = act(session, sup, now, add_player, first_name="Quin", last_name="Poll")
        act(session, sup, now, lists.join, player_id=p.id, game_id=game_id)

    _in_room(live, join)
    page.evaluate("() => window.roomopsDesk.poll()")  # a poll now: the dialog and what was typed stay
    expect(leave).to_have_value("123")
    expect(page.locator("#desk-live")).not_to_contain_text("Quin Poll")
    dialog.locator(".act-close button").click()
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(page.locator("#desk-live")).to_contain_text("Quin Poll")


def _in_room(live, fn):
    """Like live.build, for a room that already exists: fn(actor, session, now), then commit."""
    ext = live.app.extensions["roomops"]
    with ext.sessions() as session:
        fn(as_staff(session, "main-supervisor"), session, live.clock.now())
        session.commit()


def populated_desk(live):
    """Two games, offers running, one expired, lists: the desk of docs/screenshots/desk.png."""
    names = iter(["Ana Silva", "Ben Okafor", "Chen Wei", "Dara Byrne", "Eli Cohen", "Fatima Khan",
                  "Gus Moreau", "Hana Sato", "Ivan Petrov", "Jo Murphy", "Kofi Mensah", "Lena Vogel",
                  "Marco Rossi", "Nina Berg", "Omar Haddad", "Pia Lund", "Quinn Shaw", "Rosa Diaz",
                  "Sam Patel", "Tara Quinn", "Uma Reid", "Vic Hale", "Wes Ford", "Xia Lin", "Yara Cole",
                  "Zane Holt", "Abe Lott", "Bea Marr", "Cy Dunn", "Dot Ames", "Ed Pike", "Flo Grant",
                  "Gil Snow", "Ida Rusk", "Jem Wolfe", "Kat Bloom", "Lou Vance", "Mo Frey", "Ned Clay",
                  "Opal Dean", "Pat Roe", "Rex Bond"])

    def person(room, now):
        first, last = next(names).split()
        return room.player(now, first, last)

    def build(room, session, now):
        nlh = room.game(now, fee_kind="rake", rake_bp=500, rake_cap=500, straddle_allowed=True,
                        max_straddles=1)
        plo = room.game(now, variant="PL Omaha", small_blind=200, big_blind=500, min_buyin=20000,
                        max_buyin=100000, fee_kind="hourly", time_fee=1000)
        t1, t2, t3 = (room.table(now, nlh, n) for n in ("1", "2", "3"))
        t7 = room.table(now, plo, "7")
        for table, n in ((t1, 9), (t2, 7), (t3, 8), (t7, 5)):
            for s in range(1, n + 1):
                act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=s,
                    player_id=person(room, now).id, buy_in=20000 + 2500 * (s % 5))
        later = now - timedelta(minutes=7)
        early = person(room, later)
        act(session, room.sup, later, lists.join, player_id=early.id, game_id=nlh.id)  # expired by now
        for i in range(5):
            act(session, room.sup, now + timedelta(minutes=i), lists.join, player_id=person(room, now).id,
                game_id=nlh.id, source="phone" if i == 3 else "in_person")
        for i in range(2):
            act(session, room.sup, now + timedelta(minutes=i), lists.join, player_id=person(room, now).id,
                table_id=t1.id)
        for i in range(3):
            act(session, room.sup, now + timedelta(minutes=2 + i), lists.join, player_id=person(room, now).id,
                game_id=plo.id)

    live.clock.advance(minutes=-4)
    live.build(build)
    live.clock.advance(minutes=4)


def test_screenshot_of_a_populated_desk(live, page):
    """docs/screenshots/desk.png (1600x900): two games, offers running, one expired, lists."""
    populated_desk(live)
    log_in(page, live)
    expect(page.locator("#desk-live .seat.state-offered").first).to_be_visible()
    expect(page.locator("#desk-live .seat.state-expired").first).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "desk.png"))
    page.locator("#desk-live .seat.state-offered button").first.click()
    expect(page.locator("dialog#act")).to_be_visible()
    page.screenshot(path=str(SHOTS / "desk-dialog.png"))
    page.keyboard.press("Escape")
    for width in (1024, 1280, 1366, 1441, 1920):  # no sideways scrolling from a tablet to 1920 px
        page.set_viewport_size({"width": width, "height": 900})
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        logout = page.get_by_role("button", name="Log out").bounding_box()
        assert logout and logout["x"] + logout["width"] <= width
        # a seated player's first and last name whole on the seat, the 1366 px laptop included
        cut = page.evaluate("""() => [...document.querySelectorAll('#desk-live .seat.state-seated .who')]
          .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth)
          .map(e => e.textContent.trim())""")
        assert cut == [], (width, cut)
        page.screenshot(path=f"/tmp/desk-{width}.png")


def test_a_change_leaves_the_game_in_view_where_it_was(live, page):
    """Games off the screen are not drawn (content-visibility): when a change redraws the desk,
    each game keeps the height it had, so the game a supervisor scrolled to stays put."""
    variants = ["NL Hold'em", "PL Omaha", "Short Deck", "Limit Hold'em", "Dealer's Choice",
                "PL Omaha Hi-Lo", "Big O", "Mixed", "Razz", "Stud"]

    def build(room, session, now):
        games = [room.game(now, variant=v) for v in variants]
        for i, game in enumerate(games):
            fill(room, session, now, game, str(i + 1), 9, f"G{i}x")
            for k in range(i % 3 * 12):  # lists of 0, 12 and 24: sections of different heights
                act(session, room.sup, now, lists.join, player_id=room.player(now, f"W{i}x{k}").id,
                    game_id=game.id)
        return [g.id for g in games]

    ids = live.build(build)
    log_in(page, live)
    shown = page.locator(f"#game-{ids[8]}")
    shown.evaluate("s => window.scrollTo(0, s.getBoundingClientRect().top + window.scrollY - 100)")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    top = shown.evaluate("s => s.getBoundingClientRect().top")
    change(live, lambda unit: lists.join(unit, player_id=add_player(
        unit, first_name="Late", last_name="Joiner").id, game_id=ids[0]))
    page.evaluate("window.roomopsDesk.poll()")
    expect(page.locator(f"#game-{ids[0]} .waiting")).to_contain_text("Late Joiner")
    assert abs(shown.evaluate("s => s.getBoundingClientRect().top") - top) <= 2


def test_r25_note_needed_shows_when_due_with_nothing_else_changing(live, page):
    """A player away for ``away_notify_minutes`` (30) with no note: the desk shows "note needed"
    then, though nothing in the room changed (its re-read is a 304), on the server's clock."""
    def one_away(room, session, now):
        held = act(session, room.sup, now, seats.seat_directly, table_id=room.table(now, room.game(now),
                                                                                    "1").id,
                   seat_no=1, player_id=room.player(now, "Wanda").id, buy_in=20000)
        act(session, room.sup, now, absences.mark_away, held.id)

    live.build(one_away)
    log_in(page, live)
    note = page.locator("#desk-live .seat[data-seat-no='1'] .tag.note-needed")
    expect(page.locator("#desk-live .seat[data-seat-no='1']")).to_contain_text("away 0m")
    expect(note).to_be_hidden()
    live.clock.advance(minutes=29, seconds=58)
    page.evaluate("() => window.roomopsDesk.poll()")
    expect(page.locator("#desk-live .seat[data-seat-no='1']")).to_contain_text("away 29m")
    expect(note).to_be_hidden()
    live.clock.advance(seconds=2)
    page.evaluate("() => window.roomopsDesk.poll()")  # nothing changed: a 304, the clock moves
    expect(note).to_be_visible()
