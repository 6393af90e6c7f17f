"""Money reads as money on every screen (R32, R4): the room's currency in its locale, on the
desk, the board, the cage, in the forms (typed in the room's decimal sign) and in refusals."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import select

from roomops.games.models import Game
from roomops.holds.models import SeatHold
from tests.http.test_api import refused

EURO_GAME = {"variant": "NL Hold'em", "small_blind": "0,50", "big_blind": "1", "ante": "",
             "min_buyin": "50", "max_buyin": "1234,5", "seats_per_table": "9", "fee_kind": "hourly",
             "time_fee": "7,5", "rake_bp": "0", "rake_cap": "0", "max_straddles": "0",
             "time_fee_by_players": "2:5; 7:6,25"}


def _euro(room, session, locale="de_DE"):
    room.room.currency, room.room.locale = "EUR", locale
    session.commit()


def test_r32_the_policy_sets_how_money_is_written(sup_client, room, session):
    page = sup_client.get("/desk/policy").text
    assert 'name="locale" value="en_GB"' in page and "£1,234.56" in page
    assert sup_client.post("/desk/policy", data={"locale": "de-DE", "auto_offer": "on"}).status_code == 303
    session.expire_all()
    assert room.room.locale == "de_DE"
    assert "1.234,56\xa0€" not in sup_client.get("/desk/policy").text  # still pounds: the currency
    assert "1.234,56\xa0£" in sup_client.get("/desk/policy").text     # stays, only its writing moves
    bad = sup_client.post("/desk/policy", data={"locale": "klingon"})
    assert bad.status_code == 422 and "not a locale" in html.unescape(bad.text)
    session.expire_all()
    assert room.room.locale == "de_DE"


def test_r4_r32_a_euro_room_types_and_reads_its_own_way(sup_client, client, room, session):
    _euro(room, session)
    resp = sup_client.post("/desk/games", data=EURO_GAME)
    assert resp.status_code == 303, resp.text
    game = session.scalar(select(Game))
    assert (game.small_blind, game.big_blind, game.max_buyin, game.time_fee) == (50, 100, 123450, 750)
    assert game.time_fee_by_players == [{"players": 2, "fee": 500}, {"players": 7, "fee": 625}]
    desk = html.unescape(sup_client.get("/desk").text)
    assert "Opened NL Hold'em 0,50/1." in desk  # R4: stakes as players say them
    assert "buy-in 50,00\xa0€\u20131.234,50\xa0€" in desk
    assert 'value="0,50"' in desk and 'value="1234,50"' in desk and 'value="2:5; 7:6,25"' in desk
    bad = sup_client.post("/desk/games", data={**EURO_GAME, "small_blind": "0.50"})
    assert bad.status_code == 422 and "is not an amount in EUR" in bad.text
    assert 'title="Room rule">R4<' in bad.text  # the rule the amount is typed for
    room.table(room.room.created_at, game, "1")
    session.commit()
    board = html.unescape(client.get("/board").text)
    assert ">0,50/1<" in board and "50,00\xa0€ to 1.234,50\xa0€" in board
    assert "Time: 7,50\xa0€ per hour, 5,00\xa0€ from 2 players, 6,25\xa0€ from 7 players" in board


@pytest.fixture()
def seat_for(room, session, now):
    """A player and an empty seat 1 of a game whose buy-in is 100-400 in the room's currency."""
    game = room.game(now, min_buyin=10000, max_buyin=40000)
    table = room.table(now, game, "1")
    (player,) = room.players(now, 1, "P")
    session.commit()
    return {"table_id": table.id, "seat_no": 1, "player_id": player.id}


def _seat_on_the_desk(sup_client, seat, buy_in):
    return sup_client.post("/desk/seat", data={**{k: str(v) for k, v in seat.items()},
                                               "buy_in": buy_in})


def test_r30_r32_a_refusal_names_amounts_in_the_rooms_money(api, room, session, seat_for):
    _euro(room, session, "fr_FR")
    body = refused(api.post("/seats", json={**seat_for, "buy_in": 5000}), 422, "R30")
    assert body["error"] == "buy-in 50,00\xa0€ is below the table minimum 100,00\xa0€"
    assert body["amounts"] == {"amount": 5000, "minimum": 10000}
    assert session.scalar(select(SeatHold.id)) is None  # nothing written


def test_r30_a_refusal_on_a_desk_form_reads_in_pounds(sup_client, seat_for):
    resp = _seat_on_the_desk(sup_client, seat_for, "50")
    text = html.unescape(resp.text)
    assert resp.status_code == 422 and "buy-in £50.00 is below the table minimum £100.00" in text
    assert "5000" not in text


def test_r60_r32_the_audit_trail_shows_amounts_in_the_rooms_money(sup_client, seat_for):
    assert _seat_on_the_desk(sup_client, seat_for, "250.50").status_code == 303
    trail = html.unescape(sup_client.get("/audit?action=ledger.").text)
    assert "amount: £250.50" in trail and "25050" not in trail
    assert "method: table" in trail  # what is not an amount stays as it is
