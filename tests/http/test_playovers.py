"""R29 over HTTP: the desk's playover forms and the JSON API, with their refusals (a 4xx naming
the rule, nothing half-written), and "no playover" to the second on the desk's clock."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from roomops.absences import services as absences
from roomops.audit.models import AuditEvent
from roomops.desk.views import describe
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from roomops.rooms.models import Player
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game
from tests.units import act

HOUR = timedelta(hours=1)


def _counts(session) -> tuple[int, int]:
    session.expire_all()
    return (session.scalar(select(func.count()).select_from(AuditEvent)),
            session.scalar(select(func.count()).select_from(Playover)))


def _on_break(room, session, now, clock):
    """A full table; seat 3's owner on a break an hour on; Ada then Bo waiting."""
    game, table = full_game(room, session, now, free=0)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    entries = [act(session, room.sup, now + timedelta(seconds=i),
                   lists.join,
                   player_id=room.player(now, name, "Wait").id, game_id=game.id)
               for i, name in enumerate(("Ada", "Bo"))]
    clock.advance(hours=1)
    act(session, room.sup, clock.now(), absences.grant_break, holds[2].id, 23450)
    session.commit()
    return holds, entries


def _desk_refused(resp, status, rule, *words):
    assert resp.status_code == status, resp.text
    assert "Nothing was changed" in resp.text and rule in resp.text
    for word in words:
        assert word in resp.text
    return resp


# ---- desk -------------------------------------------------------------------------------------


def test_desk_playover_shown_then_the_owner_back_tells_the_overplayer_to_leave(sup_client, room,
                                                                               session, now, clock):
    holds, _entries = _on_break(room, session, now, clock)
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/playover", data={"buy_in": "150", "entry_id": ""},
                           follow_redirects=True)
    assert "Ada Wait plays over seat 3 at table 1 with £150.00" in resp.text
    html = sup_client.get("/desk/fragment").text
    assert 'data-playover="Ada Wait"' in html and "played over: Ada Wait" in html
    # the desk's "back" form of a played-over seat asks for the overplayer's counted stack (R27)
    assert 'name="overplayer_stack"' in sup_client.get("/desk").text
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/back", data={"overplayer_stack": "175"},
                           follow_redirects=True)
    assert "Ada Wait must leave at the end of the hand (R29)" in resp.text
    assert "played over" not in sup_client.get("/desk/fragment").text
    playover = session.scalar(select(Playover))
    assert (playover.outcome, playover.leave_amount) == ("owner_back", 17500)


def test_desk_playover_refusals_name_r29_and_change_nothing(sup_client, room, session, now, clock):
    holds, entries = _on_break(room, session, now, clock)
    before = _counts(session)
    _desk_refused(sup_client.post(f"/desk/seats/{holds[0].id}/playover", data={"buy_in": "150"}),
                  409, "R29", "not on a break or away")
    _desk_refused(sup_client.post(f"/desk/seats/{holds[2].id}/playover",
                                  data={"buy_in": "150", "entry_id": str(entries[1].id)}),
                  409, "R29", "out of list order")
    assert sup_client.post(f"/desk/seats/{holds[2].id}/playover", data={}).status_code == 422
    assert _counts(session) == before
    assert sup_client.post("/desk/policy", data={"playover_needs_consent": "on", "auto_offer": "on",
                                                 "no_playover_max_minutes": "5"}).status_code == 303
    _desk_refused(sup_client.post(f"/desk/seats/{holds[2].id}/playover", data={"buy_in": "150"}),
                  409, "R29", "consent")
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/playover",
                           data={"buy_in": "150", "owner_consents": "on"})
    assert resp.status_code == 303
    before = _counts(session)
    _desk_refused(sup_client.post(f"/desk/seats/{holds[2].id}/playover",
                                  data={"buy_in": "150", "owner_consents": "on"}), 409, "R29",
                  "already playing over this seat")
    assert _counts(session) == before
    assert sup_client.post(f"/desk/seats/{holds[2].id}/playover/end").status_code == 422  # R27
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/playover/end", data={"stack": "120"},
                           follow_redirects=True)
    assert "Ada Wait leaves seat 3 at table 1 at the end of the hand with £120.00" in resp.text


def test_desk_no_playover_to_the_second(sup_client, room, session, now, clock):
    holds, _entries = _on_break(room, session, now, clock)
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/no-playover", data={"minutes": "7"},
                           follow_redirects=True)
    until = (clock.now() + timedelta(minutes=7)).strftime("%H:%M")
    assert f"No playover on seat 3 at table 1 until {until}" in resp.text
    assert f"no playover until {until}" in sup_client.get("/desk/fragment").text
    clock.advance(minutes=6, seconds=59)
    _desk_refused(sup_client.post(f"/desk/seats/{holds[2].id}/playover", data={"buy_in": "150"}),
                  409, "R29", "no playover until")
    clock.advance(seconds=1)
    assert "no playover until" not in sup_client.get("/desk/fragment").text
    assert sup_client.post(f"/desk/seats/{holds[2].id}/playover",
                           data={"buy_in": "150"}).status_code == 303
    _desk_refused(sup_client.post(f"/desk/seats/{holds[2].id}/no-playover", data={"minutes": "3"}),
                  409, "R29")
    assert sup_client.post(f"/desk/seats/{holds[2].id}/no-playover",
                           data={"minutes": "61"}).status_code == 422


# ---- API --------------------------------------------------------------------------------------


def test_api_playover_start_room_view_and_end(client, room, session, now, clock):
    holds, entries = _on_break(room, session, now, clock)
    api = Api(client, token_for(room, session, "supervisor"))
    resp = api.post(f"/seats/{holds[2].id}/playover", json={"buy_in": 15000})
    assert resp.status_code == 201, resp.text
    body = resp.json
    assert (body["entry_id"], body["buy_in"], body["outcome"]) == (entries[0].id, 15000, None)
    seat = api.get("/room").json["games"][0]["tables"][0]["seats"][2]
    assert seat["playover"]["player"] == "Ada Wait" and seat["playover"]["buy_in"] == 15000
    assert seat["absence"]["kind"] == "break"
    refused(api.post(f"/seats/{holds[2].id}/playover/end", json={}), 422, "R29")  # the stack
    refused(api.post(f"/seats/{holds[2].id}/playover/end", json={"stack": -1}), 422, "R29")
    ended = api.post(f"/seats/{holds[2].id}/playover/end", json={"stack": 0})  # lost it all
    assert ended.status_code == 200 and ended.json["outcome"] == "stopped"
    assert ended.json["leave_amount"] == 0
    refused(api.post(f"/seats/{holds[2].id}/playover/end", json={"stack": 0}), 409, "R29")
    assert api.get("/room").json["games"][0]["tables"][0]["seats"][2]["playover"] is None


def test_api_no_playover_and_refusals(client, room, session, now, clock):
    holds, entries = _on_break(room, session, now, clock)
    api = Api(client, token_for(room, session, "supervisor"))
    policy = api.get("/policy").json
    assert (policy["playover_needs_consent"], policy["no_playover_max_minutes"]) == (False, 10)
    before = _counts(session)
    refused(api.post(f"/seats/{holds[2].id}/no-playover", json={"minutes": 11}), 409, "R29")
    refused(api.post(f"/seats/{holds[2].id}/no-playover", json={"minutes": 0}), 422, "R29")
    refused(api.post(f"/seats/{holds[0].id}/no-playover", json={}), 409, "R29")
    refused(api.post(f"/seats/{holds[0].id}/playover", json={"buy_in": 15000}), 409, "R29")
    refused(api.post(f"/seats/{holds[2].id}/playover", json={"buy_in": 0}), 422, "R30")
    refused(api.post(f"/seats/{holds[2].id}/playover", json={"buy_in": 15000,
                                                            "entry_id": entries[1].id}), 409, "R29")
    refused(api.post("/seats/999999/playover", json={"buy_in": 15000}), 404, "R29")
    cashier = Api(client, token_for(room, session, "cashier"))
    refused(cashier.post(f"/seats/{holds[2].id}/playover", json={"buy_in": 15000}), 403, "R61")
    assert _counts(session) == before
    resp = api.post(f"/seats/{holds[2].id}/no-playover", json={})
    assert resp.status_code == 200, resp.text
    assert resp.json["no_playover_until"].startswith((clock.now() + timedelta(minutes=10)).strftime(
        "%Y-%m-%dT%H:%M:%S"))
    seat = api.get("/room").json["games"][0]["tables"][0]["seats"][2]
    assert seat["absence"]["no_playover_until"] is not None
    refused(api.post(f"/seats/{holds[2].id}/playover", json={"buy_in": 15000}), 409, "R29")


# ---- seating a player who plays over a seat (R29, R27, R52; issue 40) --------------------------


def _playing_over_and_a_plo_seat(room, session, now, clock, listed=True):
    """Ada plays over seat 3 (with 150.00 of her own); a PLO game's table 7 has its seats open;
    ``listed``: she is on the PLO game's list, so she is called to one."""
    holds, _entries = _on_break(room, session, now, clock)
    at = clock.now()
    act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=15000)
    plo = room.game(at, variant="PLO")
    table = room.table(at, plo, "7")
    ada = session.scalar(select(Playover)).player_id
    if listed:
        act(session, room.sup, at, lists.join, player_id=ada, game_id=plo.id)
    session.commit()
    return holds, table, ada


def test_desk_seating_an_overplayer_asks_for_their_stack(sup_client, room, session, now, clock):
    _holds, table, ada = _playing_over_and_a_plo_seat(room, session, now, clock, listed=False)
    assert f'data-playover-player="{ada}"' in sup_client.get("/desk/fragment").text
    assert sup_client.get("/desk").text.count('name="overplayer_stack"') >= 3  # back, claim, seat
    before = _counts(session)
    form = {"table_id": str(table.id), "seat_no": "9", "player_id": f"Ada Wait #{ada}",
            "buy_in": "150"}
    _desk_refused(sup_client.post("/desk/seat", data=form), 422, "R29",
                  "Ada Wait is playing over seat 3 at table 1", "count the chips")
    assert _counts(session) == before
    resp = sup_client.post("/desk/seat", data={**form, "overplayer_stack": "162.50"},
                           follow_redirects=True)
    assert "Seated Ada Wait in seat 9 at table 7" in resp.text
    session.expire_all()
    playover = session.scalar(select(Playover))
    assert (playover.outcome, playover.leave_amount) == ("seated", 16250)


def test_api_claim_by_an_overplayer_needs_their_stack(client, room, session, now, clock):
    _holds, table, ada = _playing_over_and_a_plo_seat(room, session, now, clock)
    api = Api(client, token_for(room, session, "supervisor"))
    offer = session.scalar(select(SeatHold).where(SeatHold.player_id == ada,
                                                  SeatHold.kind == "offer"))
    before = _counts(session)
    body = refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 15000}), 422, "R29")
    assert "Ada Wait is playing over seat 3 at table 1" in body["error"]
    refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 15000, "overplayer_stack": -1}),
            422, "R29")
    assert _counts(session) == before
    resp = api.post(f"/offers/{offer.id}/claim", json={"buy_in": 15000, "overplayer_stack": 9000})
    assert resp.status_code == 200, resp.text
    session.expire_all()
    playover = session.scalar(select(Playover))
    assert (playover.outcome, playover.leave_amount) == ("seated", 9000)
    # a stack for a player who plays over no seat is refused, naming them (409)
    bo = session.scalar(select(Player.id).where(Player.first_name == "Bo"))
    body = refused(api.post("/seats", json={"table_id": table.id, "seat_no": 8, "player_id": bo,
                                            "buy_in": 15000, "overplayer_stack": 100}), 409, "R29")
    assert "Bo Wait is not playing over a seat" in body["error"]


def test_r29_r16_the_desk_history_says_a_call_missed_while_playing_over_kept_the_place():
    for action, how in (("offer.expired", "expired"), ("offer.declined", "declined")):
        assert describe(action, {"policy": "playing_over"}, {}) == (
            f"Call {how} while playing over a seat: keeps their place (R29)")
    assert describe("offer.expired", {"policy": "remove"}, {}) == (
        "Missed call: offer expired, removed from the list")
