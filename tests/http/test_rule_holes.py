"""Issue 20's rule holes over HTTP, on every configured database: a seat lost to the room (R17,
R24) feeds the return rule (R27) through the API and the desk's forms, naming the cause."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from roomops.absences import services as absences
from roomops.audit.models import AuditEvent
from roomops.holds.models import SeatHold
from roomops.rooms.models import Player
from roomops.rooms.services import add_player, update_policy
from roomops.seating import moves, seats
from tests.http.test_api import counts, refused
from tests.services.helpers import full_game, live_offer
from tests.units import act, sweep

MIN = timedelta(minutes=1)


def _must_move(room, session, now, refusal="forced"):
    """T2 (main, one free seat) fed by T1, where Fay sits: she is called to T2."""
    act(session, room.sup, now, update_policy, must_move_refusal=refusal)
    game, main = full_game(room, session, now, free=1, name="2")
    feeder = room.table(now, game, "1")
    fay = room.player(now, "Fay")
    fed = act(session, room.sup, now + MIN, seats.seat_directly, table_id=feeder.id, seat_no=1,
              player_id=fay.id, buy_in=10000)
    act(session, room.sup, now + 2 * MIN, moves.set_must_move, feeder.id, main.id)
    offer = live_offer(session, fay.id)
    session.commit()
    return game, fed, offer


def test_r17_r27_api_forced_refusal_with_a_counted_stack(api, room, session, now):
    game, fed, offer = _must_move(room, session, now)
    before = counts(session)
    refused(api.post(f"/offers/{offer.id}/decline", json={"stack": -5}), 422, "R17")
    assert counts(session) == before
    resp = api.post(f"/offers/{offer.id}/decline", json={"stack": 41000})
    assert resp.status_code == 200 and resp.json["outcome"] == "declined", resp.text
    session.expire_all()
    assert (session.get_one(SeatHold, fed.id).leave_amount,
            session.get_one(SeatHold, fed.id).release_cause) == (41000, "must_move")
    body = api.get(f"/players/{fed.player_id}/return-requirement?game_id={game.id}").json
    assert (body["rule"], body["minimum"], body["left_cause"]) == ("R27", 41000, "must_move")
    assert "refused a must-move seat, R17" in body["why"]


def test_r17_api_a_stack_with_skip_is_refused_and_no_body_still_declines(api, room, session, now):
    _game, _fed, offer = _must_move(room, session, now, "skip")
    before = counts(session)
    refused(api.post(f"/offers/{offer.id}/decline", json={"stack": 100}), 422, "R17")
    assert counts(session) == before
    assert api.post(f"/offers/{offer.id}/decline").json["outcome"] == "declined"


def test_r24_r27_api_and_desk_refuse_a_short_return_naming_r24(api, sup_client, room, session, now,
                                                                clock):
    _game, table = full_game(room, session, now, free=0)
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                 SeatHold.seat_no == 1, SeatHold.kind == "seated"))
    absence = act(session, room.sup, now + 60 * MIN, absences.grant_break, hold.id, 23450)
    sweep(session, absence.deadline)
    session.commit()
    clock.advance(minutes=130)  # the break ran out at now + 2 h
    seat = {"table_id": table.id, "seat_no": 1, "player_id": hold.player_id}
    body = refused(api.post("/seats", json={**seat, "buy_in": 23449}), 409, "R27")
    assert "the break ran out, R24" in body["error"] and "lost the seat at table 1" in body["error"]
    page = sup_client.post("/desk/seat", data={**seat, "buy_in": "234.49"})
    assert page.status_code == 409 and "the break ran out, R24" in page.text
    assert api.post("/seats", json={**seat, "buy_in": 23450}).status_code == 201


def test_r17_desk_decline_form_takes_the_counted_stack(sup_client, room, session, now):
    _game, fed, offer = _must_move(room, session, now)
    assert sup_client.post(f"/desk/offers/{offer.id}/decline", data={"stack": "410"}).status_code == 303
    session.expire_all()
    assert session.get_one(SeatHold, fed.id).leave_amount == 41000
    assert 'name="stack"' in sup_client.get("/desk").text


# ---- R23 with R60: a break the rules refuse, granted with a written reason ----------------------


def _first_seat(room, session, now):
    _game, table = full_game(room, session, now, free=0)
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                 SeatHold.seat_no == 1, SeatHold.kind == "seated"))
    session.commit()
    return hold


def test_r23_api_a_refused_break_with_an_override_reason(api, room, session, now):
    hold = _first_seat(room, session, now)  # sat down just now: continuous play refuses (R23)
    before = counts(session)
    body = refused(api.post(f"/seats/{hold.id}/break", json={"stack": 9000}), 409, "R23")
    assert "a supervisor may grant it with a written reason" in body["error"]
    refused(api.post(f"/seats/{hold.id}/break", json={"stack": 9000, "override_reason": "  "}),
            422, "R23")
    assert counts(session) == before
    resp = api.post(f"/seats/{hold.id}/break", json={"stack": 9000, "override_reason": "family call"})
    assert resp.status_code == 201, resp.text
    session.expire_all()
    row = session.scalar(select(AuditEvent).where(AuditEvent.action == "break.rules_overridden"))
    assert row.reason == "family call" and row.detail["rule"] == "R23"


def test_r23_desk_break_form_grants_over_the_rules_with_a_reason(sup_client, room, session, now):
    hold = _first_seat(room, session, now)
    page = sup_client.post(f"/desk/seats/{hold.id}/break", data={"stack": "90"})
    assert page.status_code == 409 and "written reason" in page.text
    resp = sup_client.post(f"/desk/seats/{hold.id}/break",
                           data={"stack": "90", "override_reason": "family call"},
                           follow_redirects=True)
    assert resp.status_code == 200 and "granted over the break rules" in resp.text
    assert 'name="override_reason"' in sup_client.get("/desk").text


# ---- R10: "did you mean" instead of a twin ------------------------------------------------------


def _ann(room, session, now):
    ann = act(session, room.sup, now, add_player, first_name="Ann", last_name="Smith", phone="07700 900123")
    game = room.game(now)
    session.commit()
    return ann, game


def test_r10_api_answers_409_with_the_candidates_unless_create_anyway(api, room, session, now):
    ann, _game = _ann(room, session, now)
    before = counts(session)
    resp = api.post("/players", json={"first_name": "annie", "phone": "+44 7700 900123"})
    assert resp.status_code == 409, resp.text
    assert resp.json["rule"] == "R10" and "did you mean Ann Smith" in resp.json["error"]
    assert resp.json["candidates"] == [{"id": ann.id, "name": "Ann Smith", "matched": "phone"}]
    assert counts(session) == before
    resp = api.post("/players", json={"first_name": "annie", "phone": "+44 7700 900123",
                                      "create_anyway": True})
    assert resp.status_code == 201 and resp.json["id"] != ann.id


def test_r10_desk_shows_did_you_mean_and_either_choice_works(sup_client, room, session, now):
    ann, game = _ann(room, session, now)
    typed = {"first_name": "ANN", "last_name": "smith", "game_id": str(game.id), "source": "in_person"}
    before = counts(session)
    page = sup_client.post("/desk/players", data=typed)
    assert page.status_code == 409 and "Did you mean" in page.text and f"#{ann.id}, same name" in page.text
    assert counts(session) == before
    # the known player onto the lists chosen...
    assert f'name="player_id" value="{ann.id}"' in page.text
    resp = sup_client.post("/desk/join", data={"player_id": str(ann.id), "game_id": str(game.id),
                                              "source": "in_person"}, follow_redirects=True)
    assert "Put Ann Smith on 1 list" in resp.text
    # ...or someone else after all: the form as typed, with create_anyway
    assert 'name="create_anyway" value="1"' in page.text and 'name="first_name" value="ANN"' in page.text
    resp = sup_client.post("/desk/players", data={**typed, "create_anyway": "1"}, follow_redirects=True)
    assert resp.status_code == 200 and "Put ANN smith on 1 list" in resp.text
    session.expire_all()
    assert session.scalar(select(func.count()).select_from(Player).where(
        func.lower(Player.first_name) == "ann")) == 2


# ---- R15: barring two players who sit at one table warns and offers a move ---------------------


def _together(room, session, now):
    """T1 with six seated; T2 empty."""
    game, t1 = full_game(room, session, now, free=3)
    t2 = room.table(now, game, "2")
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == t1.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    session.commit()
    return game, t1, t2, holds


def test_r15_api_barring_two_at_one_table_answers_who_moves_where(api, room, session, now):
    game, t1, t2, holds = _together(room, session, now)
    resp = api.post("/barred-pairs", json={"player_a": holds[1].player_id,
                                           "player_b": holds[4].player_id, "reason": "a fight"})
    assert resp.status_code == 201, resp.text
    (move,) = resp.json["together"]
    assert move == {"hold_id": holds[4].id, "player_id": holds[4].player_id,
                    "barred_from": holds[1].player_id, "table_id": t1.id, "to_table": t2.id,
                    "seat_no": 1}
    assert api.get(f"/games/{game.id}/balance").json["barred_together"] == [move]
    apart_ = api.post("/barred-pairs", json={"player_a": holds[0].player_id,
                                             "player_b": room.player(now, "Zed").id, "reason": "x"})
    assert apart_.json["together"] == []


def test_r15_desk_warns_and_its_move_form_separates_them(sup_client, room, session, now):
    _game, _t1, t2, holds = _together(room, session, now)
    resp = sup_client.post("/desk/barred", data={"player_a": str(holds[1].player_id),
                                                 "player_b": str(holds[4].player_id),
                                                 "reason": "a fight"}, follow_redirects=True)
    assert "They sit at one table" in resp.text and "should move" in resp.text
    page = sup_client.get("/desk").text
    assert "barred-together" in page and "sit together at T1 (R15)" in page and "to T2 seat 1" in page
    moved = sup_client.post(f"/desk/seats/{holds[4].id}/move", data={
        "table_id": str(t2.id), "seat_no": "1", "stack": "120",
        "reason": "barred from a player at the table (R15)"})
    assert moved.status_code == 303
    assert "barred-together" not in sup_client.get("/desk").text
