"""Issue 21: the board shows each game's typical wait for a player joining now, learned from the
room's history (roomops.waits), and keeps its statement counts (docs/board.md)."""

from __future__ import annotations

import re
from datetime import timedelta

from roomops.board.views import WAITS
from roomops.holds import queries
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import seats
from roomops.waits.services import TTL
from tests.http.test_board import Statements, section
from tests.http.test_live_games import URL as FEED
from tests.services.helpers import fill_table, live_offer
from tests.units import act

S, M = timedelta(seconds=1), timedelta(minutes=1)
RANGE = r'~(\d+) min \((?:(\d+)-|up to )(\d+)\)'  # "~25 min (15-40)", "~10 min (up to 15)"
ANY_RANGE = r'~\d+ min \((?:\d+-|up to )\d+\+?\)'  # and "~120 min (40-180+)"
TYPICAL = re.compile(rf'<p class="typical-wait">Typical wait {RANGE}</p>')
ESTIMATED = re.compile(rf'<p class="estimate">Estimated wait {RANGE}</p>')


def minutes(found):
    """(median, low, high) of a range found by ``TYPICAL`` or ``ESTIMATED``; "up to" is from 0."""
    return int(found.group(1)), int(found.group(2) or 0), int(found.group(3))


def turnover(room, session, start, cycles, every=10 * M):
    """A full table where, every ``every``, a player leaves and the next on the list takes the seat
    (R14, R21): ``cycles`` seats opened and offers claimed."""
    game = room.game(start)
    table = room.table(start, game, "1")
    fill_table(room, session, start, game, table, free=0)
    at = start
    for i, player in enumerate(room.players(start, cycles, "T")):
        at = start + (i + 1) * every
        act(session, room.sup, at - S, lists.join, player_id=player.id, game_id=game.id)
        act(session, room.sup, at, seats.leave, queries.live_holds(session, [table.id])[0].id, 0)
        act(session, room.sup, at + S, seats.claim, live_offer(session, player.id).id, game.min_buyin)
    session.commit()
    return game, table, at


def test_r10_a_new_room_shows_an_early_estimate(client, room, session, now):
    """From the first night (issue 43): from priors, and saying so."""
    game = room.game(now)
    fill_table(room, session, now, game, room.table(now, game, "1"), free=0)
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
    other = room.game(now, variant="Omaha")
    fill_table(room, session, now, other, room.table(now, other, "9"), free=3, prefix="O")
    session.commit()
    page = client.get("/board/main").text
    assert re.search(rf'<p class="typical-wait">Typical wait {ANY_RANGE}, early estimate</p>',
                     section(page, game))
    assert "Seats open now" in section(page, other)  # a fact, not an estimate: no history needed
    wait = next(g["typical_wait"] for g in client.get(FEED).json["games"] if g["id"] == game.id)
    assert wait["early"] and wait["text"].endswith(", early estimate")  # the feed says so too
    assert 0 <= wait["low_minutes"] <= wait["median_minutes"] <= wait["high_minutes"]


def test_issue21_board_shows_a_typical_wait_that_grows_with_the_list(client, room, session, clock):
    game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + M)
    first = TYPICAL.search(section(client.get("/board/main").text, game))
    assert first, "a full table and nobody waiting: the next player waits for the next seat"
    median, low, high = minutes(first)
    assert low <= median <= high
    assert 5 <= median <= 30  # a seat opened every ten minutes
    for i, p in enumerate(room.players(at, 6, "W")):
        act(session, room.sup, at + (i + 1) * S, lists.join, player_id=p.id, game_id=game.id)
    session.commit()
    later = TYPICAL.search(section(client.get("/board/main").text, game))
    assert later and int(later.group(1)) > median  # six more ahead (R13)


def test_issue21_board_says_seats_open_now(client, room, session, clock):
    _game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + M)
    other = room.game(at, variant="Omaha")
    fill_table(room, session, at, other, room.table(at, other, "9"), free=3, prefix="O")
    session.commit()
    assert '<p class="typical-wait">Seats open now</p>' in section(client.get("/board/main").text, other)


def test_issue21_wait_history_costs_two_statements_once_per_ttl(app, client, room, session, clock, engine):
    _game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + M)

    def page_statements():
        with Statements(engine) as st:
            assert client.get("/board/main").status_code == 200
        return len(st.sql)
    first, again = page_statements(), page_statements()
    clock.advance(minutes=5)
    assert (first, again, page_statements()) == (12, 10, 10)  # with the jackpot schemes' (R67)
    clock.advance(seconds=TTL.total_seconds())
    assert page_statements() == 12
    assert app.extensions[WAITS].reads == 2


def test_issue21_unchanged_poll_gets_new_waits_every_quarter_hour(client, room, session, clock):
    _game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + M)
    tag = client.get("/board/main/live").headers["ETag"]
    assert client.get("/board/main/live", headers={"If-None-Match": tag}).status_code == 304
    clock.advance(minutes=15)
    assert client.get("/board/main/live", headers={"If-None-Match": tag}).status_code == 200


def test_issue21_the_players_own_page_estimates_their_wait(client, room, session, clock):
    """The personal page shows each waiting entry's estimated wait, learned as the board's is;
    the further down the list (R13), the longer; none while the room has too little history."""
    act(session, room.sup, clock.now(), update_policy, remote_entries=True)
    game, _table, at = turnover(room, session, clock.now(), 30)
    clock.set(at + M)
    for i, p in enumerate(room.players(at, 4, "W")):
        act(session, room.sup, at + (i + 1) * S, lists.join, player_id=p.id, game_id=game.id)
    session.commit()
    resp = client.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Ann",
                                                  "last_name": "", "phone": "07700 900123"})
    assert resp.status_code == 303, resp.text
    mine = ESTIMATED.search(client.get("/board/main/me").text)
    assert mine, "five ahead of a full table that turns over every ten minutes"
    median, low, high = minutes(mine)
    assert low <= median <= high and median >= 10
    typical = TYPICAL.search(section(client.get("/board/main").text, game))
    assert typical and int(typical.group(1)) >= median  # a newcomer joins behind Ann


def test_r10_the_players_page_of_a_new_room_shows_an_early_estimate(client, room, session, now):
    act(session, room.sup, now, update_policy, remote_entries=True)
    game = room.game(now)
    fill_table(room, session, now, game, room.table(now, game, "1"), free=0)
    session.commit()
    client.post("/board/main/join", data={"game_id": [str(game.id)], "first_name": "Ann",
                                          "last_name": "", "phone": "07700 900123"})
    page = client.get("/board/main/me").text
    assert "Place <strong>1</strong>" in page
    assert re.search(rf'<p class="estimate">Estimated wait {ANY_RANGE}, early estimate</p>', page)
