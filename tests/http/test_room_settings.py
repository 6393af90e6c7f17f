"""Issue 20, the settings rooms differ on, over HTTP: the policy screen (words and rule ids, each
value saved and shown back), PATCH /api/v1/policy, a game's own posting (R36) and lockups (R13)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.games.models import Game
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.models import Room
from tests.factories import POLICY_TICKED
from tests.http.test_api import refused
from tests.units import act

# every value of each setting, as the desk's form sends it, and what the room then holds
DESK_VALUES = [
    ({"call_ins": "on"}, {"call_ins": True}),
    ({}, {"call_ins": False}),  # an unticked box is not sent
    ({"break_expiry": "always"}, {"break_expiry": "always"}),
    ({"break_expiry": "if_waiting"}, {"break_expiry": "if_waiting"}),
    ({"must_move_when": "at_once"}, {"must_move_when": "at_once"}),
    ({"must_move_when": "big_blind"}, {"must_move_when": "big_blind"}),
    ({"return_tolerance": "0"}, {"return_tolerance": 0, "return_tolerance_unit": "amount"}),
    ({"return_tolerance": "50.00"}, {"return_tolerance": 5000, "return_tolerance_unit": "amount"}),
    ({"return_tolerance": "10%"}, {"return_tolerance": 10, "return_tolerance_unit": "percent"}),
    ({"lockup_minutes": "0"}, {"lockup_minutes": 0}),
    ({"lockup_minutes": "15"}, {"lockup_minutes": 15}),
    ({"post_behind_button": "on"}, {"post_behind_button": True}),  # issue 40, R35
    ({}, {"post_behind_button": False}),
]
WORDS = {  # what the screen says of each value, beside its rule id
    "break_expiry": {"always": "the seat is lost at once",
                     "if_waiting": "the seat is lost only when someone is waiting for it"},
    "must_move_when": {"at_once": "moves as soon as a main-table seat opens, and comes in free",
                       "big_blind": "moves when the big blind reaches them, and posts a big "
                                    "blind at the main table"},
}


@pytest.mark.parametrize("form,stored", DESK_VALUES)
def test_policy_screen_saves_each_value_and_shows_it_back(sup_client, room, session, form, stored):
    """R3 with R12, R13, R17, R24, R27: each value typed on the policy screen is stored, audited
    and shown back selected, in words, beside its rule id."""
    resp = sup_client.post("/desk/policy", data={"auto_offer": "on", "reversal_two_person": "on",
                                                 "call_ins": "on", **POLICY_TICKED, **form}
                           if "call_ins" not in stored else form | {
                               "auto_offer": "on", "reversal_two_person": "on", **POLICY_TICKED})
    assert resp.status_code == 303, resp.text
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert {k: getattr(r, k) for k in stored} == stored
    html = sup_client.get("/desk/policy").text
    for rule in ("R12", "R13", "R17", "R24", "R27"):
        assert rule in html
    for name, words in WORDS.items():
        if name in stored:
            assert f'<option value="{stored[name]}" selected>{words[stored[name]]}</option>' in html
    if "post_behind_button" in stored:  # R35: the box, ticked as stored
        box = ('<input type="checkbox" name="post_behind_button" checked>'
               if stored["post_behind_button"] else
               '<input type="checkbox" name="post_behind_button" >')
        assert box in html and "between the button and the small blind may post there" in html
    if stored.get("return_tolerance_unit") == "percent":
        assert 'value="10%"' in html
    if stored.get("return_tolerance") == 5000:
        assert 'name="return_tolerance" autocomplete="off" value="50"' in html
    changed = [a for a in session.scalars(select(AuditEvent).where(
        AuditEvent.action == "policy.changed"))]
    defaults = {"call_ins": True, "break_expiry": "always", "must_move_when": "at_once",
                "return_tolerance": 0, "return_tolerance_unit": "amount", "lockup_minutes": 0,
                "post_behind_button": False}
    moved = {k for k, v in stored.items() if defaults[k] != v}
    assert (set(changed[-1].detail["after"]) if changed else set()) == moved


def test_policy_screen_refuses_a_bad_tolerance(sup_client, room, session):
    """R27: a tolerance that is neither an amount nor a whole percent, or above 100%, is a 422."""
    for typed in ("ten%", "150%"):
        resp = sup_client.post("/desk/policy", data={"return_tolerance": typed, "call_ins": "on",
                                                     "auto_offer": "on", "reversal_two_person": "on",
                                                     **POLICY_TICKED})
        assert resp.status_code == 422 and "R27" in resp.text
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert (r.return_tolerance, r.return_tolerance_unit) == (0, "amount")


@pytest.mark.parametrize("body", [
    {"call_ins": False}, {"call_ins": True}, {"break_expiry": "if_waiting"},
    {"break_expiry": "always"}, {"must_move_when": "big_blind"}, {"must_move_when": "at_once"},
    {"return_tolerance_unit": "percent", "return_tolerance": 25},
    {"return_tolerance_unit": "amount", "return_tolerance": 2500}, {"lockup_minutes": 20},
    {"lockup_minutes": 0}, {"post_behind_button": True}, {"post_behind_button": False}])
def test_api_patch_policy_each_value(sup, room, session, body):
    """R3: PATCH /policy sets each value and GET /policy reads it back."""
    resp = sup.patch("/policy", json=body)
    assert resp.status_code == 200, resp.text
    assert {k: resp.json[k] for k in body} == body == {k: sup.get("/policy").json[k] for k in body}


@pytest.mark.parametrize("body,rule", [
    ({"break_expiry": "sometimes"}, None), ({"must_move_when": "later"}, None),
    ({"lockup_minutes": 121}, None), ({"return_tolerance": -1}, None),
    ({"post_behind_button": "yes"}, None), ({"post_behind_button": 1}, None),
    ({"return_tolerance_unit": "percent", "return_tolerance": 101}, "R27")])
def test_api_patch_policy_refuses_values_out_of_range(sup, room, session, body, rule):
    """R3: values out of range are 422s; nothing changes."""
    resp = sup.patch("/policy", json=body)
    assert resp.status_code == 422, resp.text
    if rule:
        refused(resp, 422, rule)
    assert sup.get("/policy").json["lockup_minutes"] == 0


@pytest.mark.parametrize("posting", ["room", "post_or_wait", "free"])
def test_r36_api_a_game_opens_and_changes_with_its_own_posting(sup, room, session, posting):
    """R36/R6: a game's new-player posting, each value, on opening and on change."""
    opened = sup.post("/games", json={"variant": "NLH", "small_blind": 100, "big_blind": 200,
                                      "min_buyin": 10000, "max_buyin": 40000,
                                      "new_player_posting": posting})
    assert opened.status_code == 201 and opened.json["new_player_posting"] == posting
    other = "free" if posting != "free" else "room"
    changed = sup.patch(f"/games/{opened.json['id']}", json={"new_player_posting": other})
    assert changed.json["new_player_posting"] == other
    assert session.get_one(Game, opened.json["id"]).new_player_posting == other


def test_r36_desk_game_form_offers_the_three_postings(sup_client, room, session, now):
    """R36: the game form says each posting in words; a change is saved."""
    game = room.game(now)
    session.commit()
    html = sup_client.get("/desk").text
    for words in ("as the room policy says", "waits for the big blind or posts one",
                  "pays only in turn"):
        assert words in html
    resp = sup_client.post(f"/desk/games/{game.id}/change", data={"new_player_posting": "free"})
    assert resp.status_code == 303
    session.refresh(game)
    assert game.new_player_posting == "free"


def test_r13_api_lockup_and_back(sup, room, session, now):
    """R13: POST /entries/<id>/lockup (with a deposit), then /lockup/end; refused where the room
    takes no lockups."""
    game = room.game(now)
    p = room.player(now, "Lou")
    session.commit()
    entry = sup.post("/entries", json={"player_id": p.id, "game_id": game.id}).json
    refused(sup.post(f"/entries/{entry['id']}/lockup", json={}), 409, "R13")
    sup.patch("/policy", json={"lockup_minutes": 10})
    locked = sup.post(f"/entries/{entry['id']}/lockup", json={"deposit": 2000})
    assert locked.status_code == 200, locked.text
    assert locked.json["lockup_deposit"] == 2000 and locked.json["locked_until"]
    refused(sup.post(f"/entries/{entry['id']}/lockup", json={"deposit": 0}), 422, "R13")
    back = sup.post(f"/entries/{entry['id']}/lockup/end")
    assert back.json["locked_until"] is None
    assert session.get_one(ListEntry, entry["id"]).locked_until is None


def test_r12_api_call_in_refused_where_the_room_takes_none(sup, room, session, now):
    """R12: with call-ins off a phone entry is a 409 naming R12."""
    game = room.game(now)
    p = room.player(now, "Cal")
    session.commit()
    sup.patch("/policy", json={"call_ins": False})
    refused(sup.post("/entries", json={"player_id": p.id, "game_id": game.id, "source": "phone"}),
            409, "R12")


@pytest.mark.parametrize("call_ins", [True, False])
def test_r12_desk_list_form_offers_by_phone_only_with_call_ins(sup_client, room, session, now,
                                                              call_ins):
    """R12: the desk's "put on a list" form offers "by phone" only where call-ins are taken."""
    room.game(now)
    room.room.call_ins = call_ins
    session.commit()
    html = sup_client.get("/desk").text
    assert ('name="source" value="phone"' in html) is call_ins
    assert 'name="source" value="in_person"' in html


def test_r13_desk_lockup_with_a_deposit_and_back(sup_client, room, session, now):
    """R13: the entry dialog offers a lockup only where the room has them; the deposit is typed
    in the room's money; the row says "locked up until"; back ends it."""
    game = room.game(now)
    p = room.player(now, "Lou")
    entry = act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    session.commit()
    assert "Lock up" not in sup_client.get("/desk").text
    room.room.lockup_minutes = 10
    session.commit()
    assert "Lock up" in sup_client.get("/desk").text
    resp = sup_client.post(f"/desk/entries/{entry.id}/lockup", data={"deposit": "20"})
    assert resp.status_code == 303, resp.text
    session.refresh(entry)
    assert entry.lockup_deposit == 2000 and entry.locked_until is not None
    assert "locked up until 20:10" in sup_client.get("/desk").text
    assert sup_client.post(f"/desk/entries/{entry.id}/lockup/end").status_code == 303
    session.refresh(entry)
    assert entry.locked_until is None
    assert "locked up until" not in sup_client.get("/desk").text
