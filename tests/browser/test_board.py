"""The public board in Chromium: a 1080p TV and a 390 px phone (R20, R22, R40, R53, R61).

No real time is slept: the server's clock is frozen and advanced by the test; the page is waited
for with Playwright's expect (which polls the DOM up to a timeout)."""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import pairwise

from playwright.sync_api import expect
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.floor.unit import UnitOfWork
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.rooms.services import add_player
from roomops.seating import seats
from tests.browser.conftest import SHOTS
from tests.factories import as_staff
from tests.units import act

TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ana Silva", "Ben Okafor", "Chen Wei", "Dara Byrne", "Eli Cohen", "Fatima Khan", "Gus Moreau",
         "Hana Sato", "Ivan Petrov", "Jo Murphy", "Kofi Mensah", "Lena Vogel", "Marco Rossi", "Nina Berg",
         "Omar Haddad", "Pia Lund", "Quinn Shaw", "Rosa Diaz", "Sam Patel", "Tara Quinn", "Uma Novak",
         "Victor Lund", "Wen Zhou", "Yusuf Ali", "Zoe Kim"]


def change(live, fn):
    """A desk action after the page has loaded: ``fn(unit)`` as the supervisor, committed."""
    ext = live.app.extensions["roomops"]
    with ext.sessions() as session, \
            ext.unit_of_work(session, as_staff(session, "main-supervisor")) as unit:
        result = unit.run(fn)
        unit.commit()
    return result


def fill(room, session, now, game, name, seated, prefix):
    table = room.table(now, game, name)
    for i, p in enumerate(room.players(now, seated, f"{prefix}"), 1):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i, player_id=p.id,
            buy_in=game.min_buyin)
    return table


def populated(room, session, now):
    """A Saturday night: three games with tables, called seats, reserve and waiting lists."""
    people = iter(enumerate(NAMES))

    def person(source="in_person"):
        n, name = next(people)
        first, last = name.split()
        return act(session, room.sup, now, add_player, first_name=first, last_name=last,
                   phone=f"+44 7700 900{100 + n}")  # R10: one phone each

    nlh = room.game(now, variant="NL Hold'em", small_blind=100, big_blind=200, min_buyin=10000,
                    max_buyin=40000, fee_kind="rake", rake_bp=500, rake_cap=500,
                    straddle_allowed=True, max_straddles=1)
    plo = room.game(now, variant="PL Omaha", small_blind=200, big_blind=500, min_buyin=20000,
                    max_buyin=100000, fee_kind="hourly", time_fee=1000, straddle_allowed=True,
                    max_straddles=3, button_straddle=True)
    big = room.game(now, variant="NL Hold'em", small_blind=500, big_blind=1000, min_buyin=50000,
                    max_buyin=250000, fee_kind="hourly", time_fee=1500, seats_per_table=10)
    dc = room.game(now, variant="Dealer's Choice", small_blind=100, big_blind=200, min_buyin=10000,
                   max_buyin=30000)
    t1 = fill(room, session, now, nlh, "1", 9, "a")
    fill(room, session, now, nlh, "2", 7, "b")
    fill(room, session, now, nlh, "3", 9, "c")
    fill(room, session, now, plo, "5", 8, "d")
    fill(room, session, now, big, "8", 10, "e")
    for i in range(6):  # the first two are called to table 2's open seats (R14, R20)
        act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=person().id, game_id=nlh.id)
    act(session, room.sup, now + timedelta(seconds=7), lists.join, player_id=person().id, game_id=nlh.id,
        source="phone")
    for i in range(2):
        act(session, room.sup, now + timedelta(seconds=10 + i), lists.join, player_id=person().id,
            table_id=t1.id)
    for i in range(3):  # the first is called to table 5's open seat
        act(session, room.sup, now + timedelta(seconds=20 + i), lists.join, player_id=person().id,
            game_id=plo.id)
    for i in range(3):
        act(session, room.sup, now + timedelta(seconds=30 + i), lists.join, player_id=person().id,
            game_id=big.id)
    for i in range(4):
        act(session, room.sup, now + timedelta(seconds=40 + i), lists.join, player_id=person().id,
            game_id=dc.id)
    return nlh


def test_r20_tv_shows_called_seats_with_a_live_countdown(live, page):
    live.build(populated)
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board")
    called = page.locator(".called").first
    expect(called).to_contain_text("Seat 8 called")
    expect(called).to_contain_text("Ana S.")
    countdown = called.locator(".countdown")
    expect(countdown).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    # It ticks each second on the client, from the server's (frozen) time plus the elapsed time.
    expect(countdown).to_have_text(re.compile(r"^9:[0-5]\d$"), timeout=4000)
    # R40/R53 terms are on screen, R61: no last names under the default policy, no phone numbers.
    body = page.locator("body")
    expect(body).to_contain_text("Straddle: UTG only")
    expect(body).to_contain_text("Rake: 5%, max £5.00 a pot")
    expect(body).to_contain_text("Time: £10.00 per hour")
    text = body.inner_text()
    assert "Silva" not in text and "7700" not in text
    # Read from 5 m (issue 21): names and seat numbers at least 28 px on a 1080p TV; nothing to
    # scroll: what does not fit is paged sideways (this room fits one page: games flow on in
    # the column where the last one ended).
    for sel in (".place .who", ".called .who", ".seatmap .s"):
        size = page.evaluate(f"() => parseFloat(getComputedStyle(document.querySelector('{sel}')).fontSize)")
        assert size >= 28, (sel, size)
    dims = page.evaluate("() => [document.documentElement.scrollHeight, "
                         "document.documentElement.scrollWidth]")
    assert dims[0] <= TV["height"] and dims[1] <= TV["width"]
    expect(page.locator("#pager")).to_be_hidden()
    page.screenshot(path=str(SHOTS / "board-tv.png"))


def test_r22_expiry_shows_before_the_sweep_then_the_next_player_is_called(live, page):
    live.build(populated)
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/main")
    first = page.locator(".table[data-table='2'] .called").first
    expect(first).to_have_attribute("data-state", "offered")
    live.clock.advance(minutes=10)  # past the deadline; the sweep has not run
    expect(first).to_have_attribute("data-state", "expired", timeout=5000)
    expect(first.locator(".countdown")).to_have_text("expired")
    expect(first.locator(".label")).to_have_text("Seat 8 re-calling")
    expect(page.locator(".table[data-table='2'] .seatmap [data-seat='8']")).to_have_class("s s-expired")
    expect(page.locator(".game").first.locator(".waiting .place").first).to_contain_text(
        "missed table 2 seat 8, re-calling")
    live.sweep()  # now the seat goes to the next on the list (R14, R22)
    expect(page.locator(".table[data-table='2'] .called .who").first).to_have_text("Chen W.", timeout=5000)


def test_a_change_after_load_appears_within_5_seconds_without_a_reload(live, page):
    game = live.build(populated)
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board")
    page.evaluate("() => { window.__loaded = 'still here'; }")
    waiting = page.locator(".game").first.locator(".waiting .place .who")
    expect(waiting).to_have_count(7)

    def newcomer(unit: UnitOfWork):
        p = add_player(unit, first_name="Xena", last_name="Warrior", phone="555 0101")
        lists.join(unit, player_id=p.id, game_id=game.id)

    live.clock.advance(minutes=1)  # after everyone already on the list (R10: order of joining)
    change(live, newcomer)
    expect(waiting.last).to_have_text("Xena W.", timeout=5000)
    expect(waiting).to_have_count(8)
    assert page.evaluate("() => window.__loaded") == "still here"  # no full reload


def test_phone_is_one_readable_column(live, page):
    live.build(populated)
    page.set_viewport_size(PHONE)
    page.goto(f"{live.url}/board")
    games = page.locator(".game")
    expect(games).to_have_count(4)
    boxes = [games.nth(i).bounding_box() for i in range(4)]
    for above, below in pairwise(boxes):
        assert below["x"] == above["x"] and below["y"] >= above["y"] + above["height"]  # stacked
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.place .who')).fontSize)")
    assert size >= 16
    expect(page.locator(".called .countdown").first).to_have_text(re.compile(r"^\d+:\d\d$"))
    page.screenshot(path=str(SHOTS / "board-phone.png"), full_page=True)


def test_large_room_pages_on_the_tv_without_scrolling(live, page):
    def large(room, session, now):
        for g in range(12):
            game = room.game(now, variant=f"Game {g + 1}", small_blind=100, big_blind=200 + g)
            for t in range(2):
                fill(room, session, now, game, f"{g + 1}{'ab'[t]}", 8, f"g{g}{t}-")
            for i, p in enumerate(room.players(now, 6, f"w{g}-")):
                act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=p.id,
                    game_id=game.id)

    live.build(large)
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board")
    pager = page.locator("#pager")
    expect(pager).to_have_text(re.compile(r"^Page 1 of [2-9]$"))
    pages = int(pager.inner_text().rsplit(" ", 1)[1])
    seen: set[str] = set()
    for n in range(1, pages + 1):
        expect(pager).to_have_text(f"Page {n} of {pages}")
        # every table's name and seats in the games' box are wholly in it (never cut across
        # pages; the rest of a table may go on in the next column); the QR code's side is right
        edge = page.evaluate("() => document.getElementById('games').getBoundingClientRect().right")
        boxes = page.evaluate("""() => Array.from(document.querySelectorAll('.table h3, .seatmap')).map(t => {
            const r = t.getBoundingClientRect();
            return [t.closest('.game').dataset.key, r.left, r.right, r.bottom]; })""")
        shown = {key for key, left, right, _b in boxes if right > 0 and left < edge}
        for _key, left, right, bottom in boxes:
            if right > 0 and left < edge:
                assert left >= 0 and right <= edge and bottom <= TV["height"]
        assert shown - seen  # each page shows games not seen yet
        seen |= shown
        page.evaluate("() => window.roomopsBoard.next()")  # what the page timer does every 12 s
    assert len(seen) == 12
    expect(pager).to_have_text(f"Page 1 of {pages}")
    dims = page.evaluate("() => [document.documentElement.scrollHeight, "
                         "document.documentElement.scrollWidth]")
    assert dims[0] <= TV["height"] and dims[1] <= TV["width"]


def test_r23_r24_r25_break_counts_down_reads_over_then_the_sweep_calls_the_next_player(live, page):
    def room_with_table(room, session, now):
        game = room.game(now)
        fill(room, session, now, game, "1", 9, "f")
        act(session, room.sup, now, lists.join, player_id=room.player(now, "Walter", "White").id,
            game_id=game.id)
        return game

    live.build(room_with_table)
    live.clock.advance(hours=1)  # R23: a break after an hour of play

    def absent(unit: UnitOfWork):
        held = {h.seat_no: h.id for h in unit.session.scalars(select(SeatHold).where(
            SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))}
        absences.grant_break(unit, held[3], stack=10000)
        absences.mark_away(unit, held[5])

    change(live, absent)
    page.set_viewport_size(TV)
    page.goto(f"{live.url}/board/main")
    line = page.locator(".absence[data-seat='3']")
    expect(line).to_have_attribute("data-state", "break")
    expect(line.locator(".countdown")).to_have_text(re.compile(r"^(60:00|59:[0-5]\d)$"))
    expect(page.locator(".absence[data-seat='5']")).to_have_text("Seat 5 away")
    expect(page.locator(".seatmap [data-seat='3']")).to_have_class("s s-break")
    expect(page.locator(".seatmap [data-seat='5']")).to_have_class("s s-away")
    live.clock.advance(hours=1)  # past the deadline; no write, no sweep: the page's countdown ends it
    expect(line).to_have_attribute("data-state", "over", timeout=5000)
    expect(line).to_have_text("Seat 3: break over")
    expect(page.locator(".seatmap [data-seat='3']")).to_have_class("s s-over")
    live.sweep()  # R24: the seat is released and offered to the next player on the list (R14)
    called = page.locator(".called[data-seat='3']")
    expect(called).to_contain_text("Walter W.", timeout=5000)
    expect(called).to_have_attribute("data-state", "offered")
    expect(page.locator(".absence[data-seat='3']")).to_have_count(0)
    # R24: the player on the break is at the bottom of the waiting list
    expect(page.locator(".game").first.locator(".waiting .place").last).to_contain_text("f3 P.")
