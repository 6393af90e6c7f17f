"""A table one over its seat count (issue 20: R4, R14, R20) through the API and the desk: refusals
are 4xx with the rule id and change nothing; the desk marks the table over."""

from __future__ import annotations

from sqlalchemy import select

from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.seating import seats
from tests.conftest import login
from tests.http.test_api import counts, refused
from tests.services.helpers import full_game
from tests.units import act

REASON = "long list tonight: the floor squeezes a chair in"


def _full(room, session, now):
    game, table = full_game(room, session, now, free=0)
    ten, later = room.player(now, "Ten", "Chair"), room.player(now, "Later", "One")
    act(session, room.sup, now, lists.join, player_id=ten.id, game_id=game.id)
    session.commit()
    return game, table, ten, later


def _seat_ten(table, player, **kw):
    return {"table_id": table.id, "seat_no": 10, "player_id": player.id, "buy_in": 10000, **kw}


def test_r4_api_seat_ten_needs_the_reason_then_the_table_reads_over(api, room, session, now):
    game, table, ten, later = _full(room, session, now)
    before = counts(session)
    body = refused(api.post("/seats", json=_seat_ten(table, ten)), 422, "R4")
    assert "written reason" in body["error"]
    refused(api.post("/seats", json=_seat_ten(table, ten, seat_no=11, over_reason=REASON)), 422,
            "R4")
    resp = api.post("/seats", json=_seat_ten(table, ten, over_reason=True))  # text, not a flag
    assert resp.status_code == 422 and resp.json["error"].startswith("over_reason:"), resp.text
    assert counts(session) == before
    resp = api.post("/seats", json=_seat_ten(table, ten, over_reason=REASON))
    assert resp.status_code == 201, resp.text
    assert (resp.json["seat_no"], resp.json["over_reason"]) == (10, REASON)
    (tv,) = api.get("/room").json["games"][0]["tables"]
    assert len(tv["seats"]) == 10 and tv["over_reason"] == REASON and tv["open_seats"] == []
    one = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                SeatHold.seat_no == 1, SeatHold.ended_at.is_(None)))
    assert api.post(f"/seats/{one.id}/leave", json={"leave_amount": 0}).status_code == 200
    refused(api.post("/seats", json=_seat_ten(table, later, seat_no=1)), 409, "R4")
    assert game.id


def test_r4_desk_marks_the_table_over_and_refuses_in_json_where_it_was_tried(
        sup_client, room, session, now):
    _game, table, ten, _later = _full(room, session, now)
    page = sup_client.get("/desk").text
    assert 'data-state="extra"' in page and "one over?" in page  # a full table may go one over
    form = {"table_id": str(table.id), "seat_no": "10", "player_id": str(ten.id), "buy_in": "100"}
    resp = sup_client.post("/desk/seat", data=form, headers={"Accept": "application/json"})
    assert resp.status_code == 422 and resp.json["rule"] == "R4", resp.text
    resp = sup_client.post("/desk/seat", data={**form, "over_reason": REASON})
    assert resp.status_code == 303, resp.text
    page = sup_client.get("/desk").text
    assert "10/9 · over by one · no offers until under 9" in page
    assert REASON in page and 'data-state="extra"' not in page
    act(session, room.sup, now, seats.leave, session.scalar(select(SeatHold.id).where(
        SeatHold.table_id == table.id, SeatHold.seat_no == 4, SeatHold.ended_at.is_(None))), 0)
    session.commit()
    assert "9/9 · extra seat in use · no offers until under 9" in sup_client.get("/desk").text


def test_r4_r33_the_dealer_screen_shows_ten_seats_at_a_nine_seat_table_one_over(
        client, room, session, now):
    _game, table, ten, _later = _full(room, session, now)
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=10, player_id=ten.id,
        buy_in=10000, over_reason=REASON)
    session.commit()
    page = login(client, "main-dealer").get(f"/dealer/tables/{table.id}").text
    assert 'data-seat="10"' in page and 'data-seat="11"' not in page
    assert '<option value="10">10: ' in page  # the high card may be drawn in seat 10 (R33)
