"""R27 over HTTP, on every configured database: the JSON API and the desk's forms refuse a
returning player's short buy-in with a 4xx naming the rule, show the requirement before the
player sits, take an override with a reason, and edit the return window policy (R3)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.lists import services as lists
from roomops.rooms.models import Room
from roomops.seating import seats
from tests.http.test_api import counts, refused
from tests.services.helpers import live_offer, live_seat
from tests.units import act

LEFT_WITH = 65000  # 650.00, above the 400.00 table maximum
WHY = "returning within 2 h: at least £650.00 (left table 1 at 20:00)"


@pytest.fixture()
def left(room, session, now, clock):
    """Ann left table 1 with 650.00 at 20:00; it is now 20:30 and Bob, who never played, is here."""
    room.room.auto_offer = False
    game = room.game(now)
    table = room.table(now, game, "1")
    ann, bob = room.player(now, "Ann"), room.player(now, "Bob")
    hold = act(session, room.sup, now - timedelta(hours=1), seats.seat_directly, table_id=table.id,
               seat_no=1, player_id=ann.id, buy_in=10000)
    act(session, room.sup, now, seats.leave, hold.id, LEFT_WITH)
    clock.advance(minutes=30)
    session.commit()
    return game, table, ann, bob


def _overrides(session):
    session.expire_all()
    return list(session.scalars(select(AuditEvent).where(
        AuditEvent.action == "seat.return_rule_overridden")))


# ---- JSON API -----------------------------------------------------------------------------------


def test_r27_api_return_requirement(api, left):
    game, _table, ann, bob = left
    resp = api.get(f"/players/{ann.id}/return-requirement?game_id={game.id}")
    assert resp.status_code == 200, resp.text
    body = resp.json
    assert (body["rule"], body["minimum"], body["maximum"], body["left_amount"]) == (
        "R27", LEFT_WITH, LEFT_WITH, LEFT_WITH)
    assert body["left_table"] == "1" and body["left_at"].startswith("2026-11-21T20:00:00")
    assert body["why"] == "returning within 2 h: at least £650.00 (left table 1 at 20:00)"
    normal = api.get(f"/players/{bob.id}/return-requirement?game_id={game.id}").json
    assert (normal["rule"], normal["minimum"], normal["maximum"], normal["why"]) == (
        "R30", 10000, 40000, None)
    refused(api.get(f"/players/{ann.id}/return-requirement"), 422, "R27")
    refused(api.get(f"/players/{ann.id}/return-requirement?game_id=x"), 422, "R27")
    refused(api.get(f"/players/{ann.id}/return-requirement?game_id=999999"), 404, None)
    refused(api.get(f"/players/999999/return-requirement?game_id={game.id}"), 404, None)


def test_r27_api_seat_below_the_amount_is_409_and_writes_nothing(api, session, left):
    _game, table, ann, _bob = left
    seat = {"table_id": table.id, "seat_no": 2, "player_id": ann.id}
    before = counts(session)
    body = refused(api.post("/seats", json={**seat, "buy_in": 40000}), 409, "R27")
    assert "below the £650.00 the player left with" in body["error"] and "65000" not in body["error"]
    assert body["amounts"] == {"amount": 40000, "minimum": LEFT_WITH}
    assert "table 1 at 20:00" in body["error"]
    refused(api.post("/seats", json={**seat, "buy_in": LEFT_WITH + 1}), 422, "R30")
    refused(api.post("/seats", json={**seat, "buy_in": 40000, "override_reason": ""}), 422, "R27")
    assert counts(session) == before
    resp = api.post("/seats", json={**seat, "buy_in": LEFT_WITH})
    assert resp.status_code == 201, resp.text
    assert resp.json["buy_in"] == LEFT_WITH


def test_r27_api_claim_with_override_reason_is_audited(api, room, session, left):
    game, _table, ann, _bob = left
    room.room.auto_offer = True
    act(session, room.sup, room.room.created_at + timedelta(minutes=30), lists.join, player_id=ann.id,
        game_id=game.id)
    session.commit()
    offer = live_offer(session, ann.id)
    refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 20000}), 409, "R27")
    resp = api.post(f"/offers/{offer.id}/claim",
                    json={"buy_in": 20000, "override_reason": "owner's guest"})
    assert resp.status_code == 200, resp.text
    (row,) = _overrides(session)
    assert row.reason == "owner's guest" and row.detail["required"] == LEFT_WITH


def test_r3_api_return_window_policy(api, session):
    assert api.get("/policy").json["return_window"] == "minutes"
    resp = api.patch("/policy", json={"return_window": "gaming_day", "return_window_minutes": 90})
    assert resp.status_code == 200, resp.text
    assert (resp.json["return_window"], resp.json["return_window_minutes"]) == ("gaming_day", 90)
    refused(api.patch("/policy", json={"return_window_minutes": 0}), 422, "R3")
    refused(api.patch("/policy", json={"return_window_minutes": 1441}), 422, "R3")
    refused(api.patch("/policy", json={"return_window": "week"}), 422, "R3")


# ---- desk ---------------------------------------------------------------------------------------


def test_r27_desk_shows_the_requirement_on_the_offered_seat(sup_client, room, session, left):
    game, _table, ann, _bob = left
    room.room.auto_offer = True
    act(session, room.sup, room.room.created_at + timedelta(minutes=30), lists.join, player_id=ann.id,
        game_id=game.id)
    session.commit()
    page = sup_client.get("/desk/fragment").text
    assert 'data-return-min="650"' in page and f'data-return-why="{WHY}"' in page
    assert "return ≥ £650.00" in page
    assert f'data-return-why="{WHY}"' in sup_client.get("/desk").text


def test_r27_desk_seat_form_lookup(sup_client, left):
    game, _table, ann, bob = left
    resp = sup_client.get(f"/desk/players/{ann.id}/return?game_id={game.id}")
    assert resp.json == {"minimum": "650", "maximum": "650", "why": WHY}
    assert sup_client.get(f"/desk/players/{bob.id}/return?game_id={game.id}").json == {}
    assert sup_client.get(f"/desk/players/{ann.id}/return?game_id=x").status_code == 422
    assert sup_client.get(f"/desk/players/{ann.id}/return?game_id=999999").status_code == 404


def test_r27_desk_seat_refused_then_overridden(sup_client, session, left):
    _game, table, ann, _bob = left
    form = {"table_id": str(table.id), "seat_no": "2", "player_id": f"Ann Player #{ann.id}",
            "buy_in": "400"}
    resp = sup_client.post("/desk/seat", data=form)
    assert resp.status_code == 409 and "Nothing was changed" in resp.text
    assert "R27" in resp.text and "table 1 at 20:00" in resp.text
    assert live_seat(session, ann.id) is None
    assert sup_client.post("/desk/seat", data={**form, "buy_in": "650.01"}).status_code == 422
    resp = sup_client.post("/desk/seat", data={**form, "override_reason": "house comp"})
    assert resp.status_code == 303
    (row,) = _overrides(session)
    assert row.reason == "house comp" and row.detail["required"] == LEFT_WITH


def test_r27_desk_claim_at_the_amount_above_the_max(sup_client, room, session, left):
    game, _table, ann, _bob = left
    room.room.auto_offer = True
    act(session, room.sup, room.room.created_at + timedelta(minutes=30), lists.join, player_id=ann.id,
        game_id=game.id)
    session.commit()
    offer = live_offer(session, ann.id)
    resp = sup_client.post(f"/desk/offers/{offer.id}/claim", data={"buy_in": "649.99"})
    assert resp.status_code == 409 and "R27" in resp.text
    assert sup_client.post(f"/desk/offers/{offer.id}/claim", data={"buy_in": "650"}).status_code == 303
    assert live_seat(session, ann.id).buy_in == LEFT_WITH


def test_r3_desk_policy_page_edits_the_return_window(sup_client, room, session):
    session.commit()
    assert "Return window, minutes (R27)" in sup_client.get("/desk/policy").text
    resp = sup_client.post("/desk/policy", data={"return_window": "gaming_day",
                                                  "return_window_minutes": "180"})
    assert resp.status_code == 303
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert (r.return_window, r.return_window_minutes) == ("gaming_day", 180)
    assert sup_client.post("/desk/policy", data={"return_window_minutes": "1441"}).status_code == 422
