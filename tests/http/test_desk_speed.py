"""What the fast desk (static/desk.js) relies on from the server (issue 20): a form sent by the
page's script asking for JSON gets the refusal as JSON (the message and the rule) and nothing is
written; without the script the same post is a refusal page; destructive forms carry their
question for static/confirm.js; the keys' list is on the page."""

from __future__ import annotations

import re

from roomops.lists.models import ListEntry
from tests.http.test_desk import _table_with

JSON = {"Accept": "application/json"}


def test_r10_a_refused_desk_form_answers_json_when_the_page_asks(sup_client, room, session, now):
    """R10: joining an unknown player: a 422 with the message and the rule, nothing written."""
    game, _table = _table_with(room, session, now)
    session.commit()
    form = {"player_id": "Nobody Here", "game_id": str(game.id)}
    resp = sup_client.post("/desk/join", data=form, headers=JSON)
    assert resp.status_code == 422 and resp.json["rule"] == "R10"
    assert "Nobody Here" in resp.json["error"]
    assert session.query(ListEntry).count() == 0
    page = sup_client.post("/desk/join", data=form)  # no script: the refusal page, as before
    assert page.status_code == 422 and "Nothing was changed" in page.text and "R10" in page.text


def test_r5_r19_r22_destructive_forms_ask_first_and_the_keys_are_listed(sup_client, room, session, now):
    """Break a table (R19), close a table or a game (R5) and decline for a player (R22) carry a
    question (data-confirm); "?" opens the list of keys."""
    _table_with(room, session, now)
    session.commit()
    html = sup_client.get("/desk").text
    for action in (r"/desk/tables/0/break", r"/desk/tables/0/close", r"/desk/games/\d+/close",
                   r"/desk/offers/0/decline"):
        form = re.search(rf'<form method="post" data-action="{action}"[^>]*>|'
                         rf'<form method="post" action="{action}"[^>]*>', html)
        assert form and 'data-confirm="' in form[0], action
    assert '<dialog id="keys"' in html and "<kbd>?</kbd>" in html
