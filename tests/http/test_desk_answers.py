"""What a desk action answers (R60: one change, audited, then its message): desk.js asks for JSON
and gets the message, then re-reads only the live part, and the page's forms when the games or
tables they list changed; a form sent without JavaScript gets the desk again with the message as
a flash. A player added is answered with the message and the player, whom desk.js puts among the
page's suggestions."""

from __future__ import annotations

import re

import pytest

from roomops.games import services as games
from roomops.lists import services as lists
from tests.services.helpers import full_game
from tests.units import act

JSON = {"Accept": "application/json"}


@pytest.fixture()
def waiting(room, session, now):
    """A full table and one player on its game's list."""
    game, table = full_game(room, session, now, free=0)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Nora", "Quinn").id,
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
    return f"/desk/games/{game.id}/change", {"max_buyin": "900"}, "Changed NL Hold'em: max_buyin"


def _shape(html: str) -> str:
    found = re.search(r'data-shape="([^"]+)"', html)
    assert found, html[:300]
    return found[1]


@pytest.mark.parametrize("form", [_open_table, _change_game])
def test_r60_an_action_that_changes_the_forms_answers_its_message_and_the_forms_follow(
        sup_client, waiting, form):
    """The page's forms list the games and tables (the move, list and open-table forms): after
    these desk.js is answered like any action, and the live part's shape then names forms that
    ``/desk/forms`` draws anew (desk.js swaps them in, docs/desk.md)."""
    game, table, _entry = waiting
    before = _shape(sup_client.get("/desk/fragment").text)
    url, data, said = form(game, table)
    resp = sup_client.post(url, data=data, headers=JSON)
    assert resp.status_code == 200 and resp.json["done"].startswith(said), resp.text
    after = _shape(sup_client.get("/desk/fragment").text)
    forms = sup_client.get("/desk/forms")
    assert forms.status_code == 200 and after != before
    assert _shape(forms.text) == after  # the forms say which shape they were drawn for


def test_r5_the_forms_drawn_again_list_a_table_opened(sup_client, waiting, room, session, now):
    """The move dialog's tables and the lists' reserve boxes, with the viewer's CSRF token."""
    game, _table, _entry = waiting
    act(session, room.sup, now, games.open_table, game.id, "7")
    session.commit()
    html = sup_client.get("/desk/forms").text
    assert re.search(r'<option value="\d+">T7 · ', html) and "> T7</label>" in html
    assert '<input type="hidden" name="csrf_token" value="">' not in html
    assert 'id="desk-live"' not in html  # the forms only: the live part is read apart


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
