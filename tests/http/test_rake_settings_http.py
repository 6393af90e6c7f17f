"""R51/R53 over HTTP: the game form takes a percent with decimals and the smallest chip, the board
shows "5.5%", the dealer's screen asks the most rake of a typed pot before the rake is typed, and
the dealer page and the API refuse more naming the amount in the room's money."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import select

from roomops.games.models import Game
from roomops.hands.services import record_hand
from tests.conftest import login
from tests.http.test_api import refused
from tests.http.test_desk import GAME_FORM
from tests.http.test_money_pages import EURO_GAME
from tests.services.ledger_helpers import seated_holds
from tests.units import act

JSON = {"Accept": "application/json"}


@pytest.fixture()
def raked(room, session, now):
    """5.5% capped at 5.00 in 0.25 chips, cap 3.00 from 8 players dealt: hand 1 dealt to 8."""
    game, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=550, rake_cap=500,
                                   smallest_chip=25, rake_caps_by_players=[{"players": 8, "cap": 300}])
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    return game, table


def _game(session) -> Game:
    session.expire_all()
    return session.scalars(select(Game).where(Game.variant == "PL Omaha")).one()


def test_r51_the_game_form_takes_a_percent_with_decimals_and_the_smallest_chip(sup_client, session):
    form = {**GAME_FORM, "fee_kind": "rake", "rake_bp": "5.5", "smallest_chip": "0.25",
            "rake_min_one_chip": "on"}
    assert sup_client.post("/desk/games", data=form).status_code == 303
    game = _game(session)
    assert (game.rake_bp, game.smallest_chip, game.rake_min_one_chip) == (550, 25, True)
    page = sup_client.get("/desk").text  # the change form shows them as they are typed
    assert 'name="rake_bp" inputmode="decimal" value="5.5"' in page
    assert 'name="smallest_chip" inputmode="decimal" value="0.25"' in page
    change = {**form, "rake_bp": "5.25", "smallest_chip": "1"}
    assert sup_client.post(f"/desk/games/{game.id}/change", data=change).status_code == 303
    assert (_game(session).rake_bp, _game(session).smallest_chip) == (525, 100)


def test_r51_a_new_game_without_a_smallest_chip_takes_its_small_blind(sup_client, session):
    assert sup_client.post("/desk/games", data=GAME_FORM).status_code == 303
    assert _game(session).smallest_chip == 200  # the 2.00 small blind


@pytest.mark.parametrize("value", ["5.555", "101", "5,5", "-1", "x"])
def test_r51_a_percent_that_is_not_one_is_refused(sup_client, session, value):
    resp = sup_client.post("/desk/games", data={**GAME_FORM, "rake_bp": value})
    assert resp.status_code == 422 and "rake_bp" in resp.text
    assert session.scalar(select(Game).where(Game.variant == "PL Omaha")) is None


def test_r53_the_board_shows_a_percent_with_decimals(client, raked):
    page = html.unescape(client.get("/board").text)
    assert "Rake: 5.5%, max £5.00 a pot, max £3.00 from 8 players dealt in" in page


def test_r51_the_dealer_screen_shows_the_most_rake_of_the_typed_pot(client, raked):
    table = raked[1]
    dealer = login(client, "main-dealer")
    page = html.unescape(dealer.get(f"/dealer/tables/{table.id}").text)
    url = f"/dealer/tables/{table.id}/hands/1/rake-limit"
    assert f'data-limit-url="{url}"' in page and 'id="rake-limit"' in page
    assert "in £0.25 chips" in page and "dealer-rake.js" in page
    limit = dealer.get(url, query_string={"pot": "40"}, headers=JSON)
    assert limit.json["most"] == 200 and limit.json["text"] == (  # 5.5% of 40.00 is 2.20
        "Most rake for this pot: £2.00 (cap £3.00 with 8 dealt in)")
    assert dealer.get(url, query_string={"pot": "100"}, headers=JSON).json["most"] == 300
    no_flop = dealer.get(url, query_string={"pot": "100", "flop": "0"}, headers=JSON).json
    assert (no_flop["most"], no_flop["text"]) == (0, "No flop, no drop: no rake")
    bad = dealer.get(url, query_string={"pot": "lots"}, headers=JSON)
    assert bad.status_code == 422 and bad.is_json and "pot" in bad.json["error"]


def test_r51_the_dealer_page_refuses_more_naming_the_most_in_money(client, raked):
    table = raked[1]
    dealer = login(client, "main-dealer")
    form = {"hand_no": "1", "pot": "100", "flop": "on", "rake": "3.25", "idempotency_key": "k1"}
    over = dealer.post(f"/dealer/tables/{table.id}/rake", data=form)
    assert over.status_code == 409 and "at most £3.00" in html.unescape(over.text)


def test_r51_the_api_rake_limit_and_refusal(dealer, raked):
    table = raked[1]
    limit = dealer.get(f"/tables/{table.id}/hands/1/rake-limit", query_string={"pot": 4000})
    assert limit.status_code == 200 and limit.json == {
        "pot": 4000, "most": 200, "cap": 300, "players": 8, "smallest_chip": 25, "no_drop": False}
    refused(dealer.get(f"/tables/{table.id}/hands/1/rake-limit"), 422, "R51")  # no pot
    body = refused(dealer.post(f"/tables/{table.id}/hands/1/rake",
                               {"pot": 4000, "flop": True, "rake": 225}), 409, "R51")
    assert "at most £2.00" in body["error"] and body["amounts"]["most"] == 200


def test_r51_the_api_opens_a_game_with_its_percent_in_basis_points(sup):
    resp = sup.post("/games", {"variant": "NLH", "small_blind": 100, "big_blind": 200,
                               "min_buyin": 10000, "max_buyin": 40000, "fee_kind": "rake",
                               "rake_bp": 550, "rake_min_one_chip": True})
    assert resp.status_code == 201, resp.text
    assert {k: resp.json[k] for k in ("rake_bp", "smallest_chip", "rake_min_one_chip")} == {
        "rake_bp": 550, "smallest_chip": 100, "rake_min_one_chip": True}
    refused(sup.post("/games", {"variant": "NLH", "small_blind": 100, "big_blind": 200,
                                "min_buyin": 10000, "max_buyin": 40000, "rake_bp": 10001}), 422, "R4")


def test_r51_r53_a_comma_room_types_and_reads_the_percent_its_own_way(sup_client, client, room,
                                                                      session):
    room.room.currency, room.room.locale = "EUR", "de_DE"
    session.commit()
    form = {**EURO_GAME, "fee_kind": "rake", "rake_bp": "5,5", "rake_cap": "5"}
    assert sup_client.post("/desk/games", data=form).status_code == 303
    game = session.scalars(select(Game).where(Game.variant == EURO_GAME["variant"])).one()
    assert game.rake_bp == 550 and game.smallest_chip == 50  # the 0,50 small blind
    assert 'name="rake_bp" inputmode="decimal" value="5,5"' in sup_client.get("/desk").text
    assert "Rake: 5,5%" in html.unescape(client.get("/board").text)
    bad = sup_client.post("/desk/games", data={**form, "rake_bp": "5.5"})
    assert bad.status_code == 422 and "5,5" in html.unescape(bad.text)
