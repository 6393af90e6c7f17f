"""The public live-games feed (R4, R10, R14, R20, R40, R53, R61): no log-in, every running game
with its terms, tables, open seats and players waiting, no player names; ETag, CORS, cacheable."""

from __future__ import annotations

import html
from datetime import timedelta

from roomops.lists import services as lists
from roomops.seating import seats
from tests.http.test_api import refused
from tests.services.helpers import full_game
from tests.units import act

URL = "/api/v1/public/rooms/main/games"


def _room(room, session, now):
    """A 1/2 game: table 1 with two seats free, one called for the one player waiting; a 5/10
    game with one table and nobody at it."""
    game, table = full_game(room, session, now, free=2, straddle_allowed=True, max_straddles=2,
                            button_straddle=True)
    act(session, room.sup, now + timedelta(seconds=1), lists.join, player_id=room.player(now, "Waiting").id,
        game_id=game.id)
    big = room.game(now, small_blind=500, big_blind=1000, min_buyin=50000, max_buyin=200000)
    room.table(now, big, "7")
    session.commit()
    return game, table


def test_the_feed_lists_each_running_game_with_counts_and_no_names(client, room, session, now):
    """R4 lowest stakes first; R14/R20: a called seat is not open; R10: the waiting count; R40 and
    R53 in the board's words; R61: no names, no ids of players."""
    _room(room, session, now)
    resp = client.get(URL)  # nobody logged in
    assert resp.status_code == 200 and resp.is_json
    feed = resp.json
    assert (feed["room"], feed["timezone"]) == ("Room main", "UTC")
    small, big = feed["games"]
    assert (small["stakes"]["small_blind"], small["stakes"]["big_blind"]) == (100, 200)
    assert small["stakes"]["currency"] == "GBP" and small["stakes"]["text"] == "1/2"
    assert (small["buy_in"]["minimum"], small["buy_in"]["maximum"]) == (10000, 40000)
    assert small["straddles"] == {"allowed": True, "max_straddles": 2, "button_straddle": True,
                                  "text": small["straddles"]["text"]}
    assert small["tables"] == [{"name": "1", "seats": 9, "seated": 7, "open_seats": 1}]
    assert (small["open_seats"], small["waiting"]) == (1, 1)  # seat 8 called, seat 9 open
    assert big["tables"] == [{"name": "7", "seats": 9, "seated": 0, "open_seats": 9}]
    assert (big["open_seats"], big["waiting"]) == (9, 0)
    # docs/waits.md: a seat free for a newcomer is a fact: seat 9, the waiting player being called
    # to seat 8 (R20); no history is needed for it
    for game in (small, big):
        assert game["typical_wait"]["text"] == "Seats open now" and game["typical_wait"]["seats_open"]
    board = html.unescape(client.get("/board/main").text)
    for words in (small["straddles"]["text"], small["fees"], big["fees"]):
        assert words in board
    assert "Waiting" not in resp.text and "S1-" not in resp.text and "player" not in resp.text


def test_the_feed_is_cacheable_by_etag_and_readable_from_other_sites(client, room, session, now):
    """One statement answers an unchanged poll (304); a change on the floor changes the ETag."""
    _game, table = _room(room, session, now)
    first = client.get(URL, headers={"Origin": "https://example.org"})
    assert first.headers["Access-Control-Allow-Origin"] == "*"
    assert first.headers["Cache-Control"] == "public, max-age=5"
    tag = first.headers["ETag"]
    again = client.get(URL, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["ETag"] == tag
    assert again.headers["Access-Control-Allow-Origin"] == "*"
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9,
        player_id=room.player(now, "Walk").id, buy_in=10000)
    session.commit()
    changed = client.get(URL, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert changed.json["games"][0]["open_seats"] == 0


def test_an_unknown_room_is_a_404_with_a_json_body(client, room):
    assert "no room called nowhere" in refused(
        client.get("/api/v1/public/rooms/nowhere/games"), 404, None)["error"]
