"""What a desk action answers (R60: one change, audited, then its message): desk.js asks for JSON
and gets the message, then re-reads only the live part; a form sent without JavaScript, and an
action that changes the page outside the live part (the games and tables its forms list), gets
the desk again with the message as a flash. A player added is answered with the
message and the player, whom desk.js puts among the page's suggestions."""

from __future__ import annotations

import pytest

from roomops.lists import services as lists
from tests.services.helpers import full_game

JSON = {"Accept": "application/json"}


@pytest.fixture()
def waiting(room, session, now):
    """A full table and one player on its game's list."""
    game, table = full_game(room, session, now, free=0)
    entry = lists.join(session, room.sup, now, player_id=room.player(now, "Nora", "Quinn").id,
                       game_id=game.id)
    session.commit()
    return game, table, entry


def test_r60_an_action_asked_in_json_answers_its_message_and_leaves_no_flash(sup_client, waiting):
    _game, _table, entry = waiting
    resp = sup_client.post(f"/desk/entries/{entry.id}/reorder", data={"position": "1", "reason": "asked"},
                           headers=JSON)
    assert resp.status_code == 200, resp.text
    assert resp.json == {"done": "Moved Nora Quinn to position 1: asked."}
    assert "Moved Nora Quinn" not in sup_client.get("/desk").text  # said once, by desk.js


def test_r60_the_same_action_sent_plainly_shows_the_desk_with_its_message(sup_client, waiting):
    _game, _table, entry = waiting
    resp = sup_client.post(f"/desk/entries/{entry.id}/reorder", data={"position": "1", "reason": "asked"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/desk")
    assert "Moved Nora Quinn to position 1: asked." in sup_client.get("/desk").text


def _open_table(game, _table):
    return "/desk/tables", {"game_id": str(game.id), "name": "7"}, "Opened table 7"


def _close_table(game, table):
    return f"/desk/tables/{table.id}/close", {}, "R5"  # refused: players sit there


def _change_game(game, _table):
    return f"/desk/games/{game.id}/change", {"max_buyin": "900"}, "Changed"


@pytest.mark.parametrize("form", [_open_table, _change_game])
def test_r60_an_action_that_changes_the_page_loads_the_desk_again_even_for_desk_js(
        sup_client, waiting, form):
    """The page outside the live part lists the games and tables (the move, list and open-table
    forms): after these, desk.js loads the page again (a redirect)."""
    game, table, _entry = waiting
    url, data, said = form(game, table)
    resp = sup_client.post(url, data=data, headers=JSON)
    assert resp.status_code == 303, resp.text
    assert said in sup_client.get("/desk").text


def test_r5_a_refused_page_change_answers_in_json_where_it_was_tried(sup_client, waiting):
    game, table, _entry = waiting
    url, data, rule = _close_table(game, table)
    resp = sup_client.post(url, data=data, headers=JSON)
    assert resp.status_code == 409 and resp.json["rule"] == rule, resp.text


def test_r10_a_player_added_is_answered_with_the_player_for_the_suggestions(sup_client, waiting):
    game, _table, _entry = waiting
    form = {"first_name": "Ola", "last_name": "New", "game_id": str(game.id)}
    resp = sup_client.post("/desk/players", data=form, headers=JSON)
    assert resp.status_code == 200, resp.text
    player = resp.json["player"]
    assert resp.json == {"done": "Put Ola New on 1 list.", "player": {"id": player["id"], "name": "Ola New"}}
    assert f'value="Ola New #{player["id"]}"' in sup_client.get("/desk").text


def test_r10_a_player_added_without_javascript_shows_the_desk_with_its_message(sup_client, waiting):
    game, _table, _entry = waiting
    resp = sup_client.post("/desk/players", data={"first_name": "Ola", "game_id": str(game.id)})
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/desk")
    assert "Put Ola on 1 list." in sup_client.get("/desk").text
