"""The dealers' roster over the JSON API (R62-R64, R60, R61): the roster with each dealer's state
and next step, check-in and out by the coordinator and by a dealer for themselves, the rotation
plan and its push, the coordinator's override with its reason, and a table's down card with the
hands dealt in each down. Refusals are JSON naming the rule, with nothing written."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from roomops.actors import console
from roomops.audit.models import AuditEvent
from roomops.dealers.models import DealerOverride, DealerShift
from roomops.hands.services import record_hand
from roomops.rooms.staff import create_staff, issue_api_token
from tests.factories import PASSWORD, Room_, as_staff
from tests.http.test_api import Api, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act, sweep

MIN = timedelta(minutes=1)


def _same(text: str | None, at: datetime) -> bool:
    """An answer's time is ``at`` (whatever the offset it is written with)."""
    return text is not None and datetime.fromisoformat(text) == at


def _dealer(room: Room_, session, now, n: int):
    return act(session, console(room.room.id), now, create_staff, username=f"d{n}", password=PASSWORD,
               roles=("dealer",), display_name=f"Dealer {n}")


@pytest.fixture()
def rotating(room, session, now):
    """The room running its rotation here, with one raked table of seated players; the room's
    dealer and two more."""
    room.room.dealer_rotation = True
    _game, table, _holds = seated_holds(room, session, now)
    dealers = [room.staff["dealer"], _dealer(room, session, now, 1), _dealer(room, session, now, 2)]
    session.commit()
    return table, dealers


def _count(session, model) -> int:
    session.expire_all()
    return session.scalar(select(func.count()).select_from(model))


def test_r62_the_roster_shows_every_dealer_with_their_state_and_next_step(api, rotating, now):
    table, (d0, d1, d2) = rotating
    assert {d["state"] for d in api.get("/dealers").json["dealers"]} == {"out"}
    assert api.post(f"/dealers/{d0.id}/check-in").status_code == 201
    assert api.post(f"/dealers/{d1.id}/check-in").status_code == 201
    roster = api.get("/dealers").json
    assert roster["rotation"] is True
    lines = {d["dealer_id"]: d for d in roster["dealers"]}
    assert set(lines) == {d0.id, d1.id, d2.id}  # dealers only: no supervisor or cashier
    dealing, waiting, out = lines[d0.id], lines[d1.id], lines[d2.id]
    assert (dealing["state"], dealing["table_id"], dealing["table"]) == ("dealing", table.id, table.name)
    assert _same(dealing["since"], now) and _same(dealing["until"], now + 30 * MIN)  # R63: 30 minutes
    assert _same(dealing["next"]["start"], now + 60 * MIN)  # back after the other's down (R64)
    assert (waiting["state"], waiting["table_id"]) == ("waiting", None) and _same(waiting["since"], now)
    # R64: the one waiting pushes at the down's end
    assert waiting["next"]["kind"] == "down" and waiting["next"]["table_id"] == table.id
    assert _same(waiting["next"]["start"], now + 30 * MIN)
    assert (out["state"], out["next"], out["since"]) == ("out", None, None)
    assert out["name"] == "Dealer 2"


def test_r62_the_coordinator_checks_a_dealer_in_and_out(app, client, room, session, rotating, now):
    table, (d0, _d1, _d2) = rotating
    coordinator = act(session, console(room.room.id), now, create_staff, username="coord",
                      password=PASSWORD, roles=("coordinator",))
    coord = Api(client, issue_api_token(session, coordinator, room.room.id))
    session.commit()
    shift = coord.post(f"/dealers/{d0.id}/check-in")
    assert shift.status_code == 201, shift.text
    body = shift.json
    assert body["dealer_id"] == d0.id and _same(body["checked_in_at"], now) and body["checked_out_at"] is None
    # R63: the open table with no dealer takes them at once
    assert (body["dealer"]["state"], body["dealer"]["table_id"]) == ("dealing", table.id)
    refused(coord.post(f"/dealers/{d0.id}/check-in"), 409, "R62")
    done = coord.post(f"/dealers/{d0.id}/check-out")
    assert done.status_code == 200 and done.json["id"] == body["id"]
    assert _same(done.json["checked_out_at"], now)
    assert done.json["dealer"]["state"] == "out"
    refused(coord.post(f"/dealers/{d0.id}/check-out"), 409, "R62")
    # a cashier is no dealer; nor is an id of no staff
    refused(coord.post(f"/dealers/{room.staff['cashier'].id}/check-in"), 404, "R62")
    refused(coord.post("/dealers/999999/check-in"), 404, "R62")
    assert _count(session, DealerShift) == 1
    assert coord.get("/dealers").status_code == 200 and coord.get("/dealers/plan").status_code == 200


def test_r62_a_dealer_made_inactive_mid_shift_stays_on_the_roster_until_checked_out(api, session,
                                                                                    rotating):
    _table, (d0, d1, _d2) = rotating
    api.post(f"/dealers/{d0.id}/check-in")
    d0.active = d1.active = False
    session.commit()
    listed = [d["dealer_id"] for d in api.get("/dealers").json["dealers"]]
    assert d0.id in listed and d1.id not in listed


def test_r61_r62_a_dealer_checks_themselves_in_but_not_another(dealer, room, session, rotating):
    _table, (d0, d1, _d2) = rotating
    mine = dealer.post("/me/check-in")
    assert mine.status_code == 201 and mine.json["dealer_id"] == d0.id
    refused(dealer.post("/me/check-in"), 409, "R62")
    refused(dealer.post(f"/dealers/{d1.id}/check-in"), 403, "R61")
    refused(dealer.post(f"/dealers/{d0.id}/check-out"), 403, "R61")  # the coordinator's route
    refused(dealer.get("/dealers"), 403, "R61")
    assert dealer.post("/me/check-out").json["checked_out_at"] is not None
    refused(dealer.post("/me/check-out"), 409, "R62")
    assert _count(session, DealerShift) == 1


def test_r62_a_supervisor_who_deals_no_downs_cannot_check_themselves_in(api, rotating):
    refused(api.post("/me/check-in"), 404, "R62")


@pytest.mark.parametrize(("method", "path"), [
    ("get", "/dealers"), ("get", "/dealers/plan"), ("post", "/dealers/{d}/check-in"),
    ("post", "/dealers/{d}/check-out"), ("post", "/me/check-in"), ("post", "/me/check-out"),
    ("post", "/tables/{t}/next-dealer"), ("get", "/tables/{t}/dealer-downs")])
def test_r61_a_cashier_is_refused_every_dealers_route(cashier, session, rotating, method, path):
    table, (d0, _d1, _d2) = rotating
    url = path.format(d=d0.id, t=table.id)
    resp = cashier.get(url) if method == "get" else cashier.post(url, json={"dealer_id": d0.id,
                                                                            "reason": "x"})
    refused(resp, 403, "R61")
    assert _count(session, DealerShift) == 0


def test_r64_r60_the_coordinators_override_with_a_reason(api, session, rotating, now):
    table, (d0, d1, d2) = rotating
    for d in (d0, d1, d2):
        api.post(f"/dealers/{d.id}/check-in")
    [dealing] = [d for d in api.get("/dealers").json["dealers"] if d["state"] == "dealing"]
    chosen = next(d.id for d in (d2, d1) if d.id != dealing["dealer_id"])
    made = api.post(f"/tables/{table.id}/next-dealer", json={"dealer_id": chosen, "reason": "  training  "})
    assert made.status_code == 201, made.text
    assert (made.json["table_id"], made.json["dealer_id"]) == (table.id, chosen)
    assert made.json["reason"] == "training"
    assert made.json["used_at"] is None and _same(made.json["made_at"], now)
    push = [s for s in api.get("/dealers/plan").json["steps"] if s["table_id"] == table.id
            and _same(s["start"], now + 30 * MIN)]
    assert [s["dealer_id"] for s in push] == [chosen]  # R64: the choice takes the next push
    audit = session.scalars(select(AuditEvent).where(AuditEvent.action == "dealer.override")).all()
    assert len(audit) == 1 and audit[0].reason == "training"  # R60


def test_r64_r60_an_override_without_a_reason_is_refused(api, session, rotating):
    table, (d0, d1, _d2) = rotating
    for d in (d0, d1):
        api.post(f"/dealers/{d.id}/check-in")
    for sent in ({"dealer_id": d1.id}, {"dealer_id": d1.id, "reason": "   "},
                 {"dealer_id": d1.id, "reason": ""}):
        refused(api.post(f"/tables/{table.id}/next-dealer", json=sent), 422, "R60")
    refused(api.post(f"/tables/{table.id}/next-dealer", json={"reason": "training"}), 422, "R64")
    refused(api.post("/tables/999999/next-dealer", json={"dealer_id": d1.id, "reason": "x"}), 404, None)
    assert _count(session, DealerOverride) == 0


def test_r64_an_override_names_a_checked_in_dealer(api, session, rotating):
    table, (_d0, _d1, d2) = rotating
    refused(api.post(f"/tables/{table.id}/next-dealer", json={"dealer_id": d2.id, "reason": "x"}), 409, "R62")


def test_r64_the_plan_lists_the_push_at_the_downs_end(api, rotating, now):
    table, (d0, d1, _d2) = rotating
    api.post(f"/dealers/{d0.id}/check-in")
    api.post(f"/dealers/{d1.id}/check-in")
    plan = api.get("/dealers/plan").json
    assert plan["rotation"] is True and plan["short"] == 0 and plan["gaps"] == []
    assert _same(plan["now"], now)
    first, pushed = plan["steps"][0], plan["steps"][1]
    assert (first["dealer_id"], first["kind"], first["table_id"], first["table"]) == (
        d0.id, "down", table.id, table.name)
    assert _same(first["start"], now) and _same(first["end"], now + 30 * MIN)
    # R64: the next dealer pushes at the end of the down, by name
    assert (pushed["dealer_id"], pushed["dealer"], pushed["table_id"]) == (d1.id, "Dealer 1", table.id)
    assert _same(pushed["start"], now + 30 * MIN)


def test_r63_the_plan_counts_the_tables_short_of_a_dealer(api, room, session, rotating, now):
    table, (_d0, _d1, _d2) = rotating
    plan = api.get("/dealers/plan").json
    assert plan["short"] == 1 and [g["table_id"] for g in plan["gaps"]] == [table.id]
    assert plan["steps"] == [] and _same(plan["gaps"][0]["start"], now)


def test_r62_a_room_keeping_its_rotation_on_paper_plans_nothing(api, room, session, rotating):
    room.room.dealer_rotation = False
    session.commit()
    _table, (d0, _d1, _d2) = rotating
    assert api.post(f"/dealers/{d0.id}/check-in").json["dealer"]["state"] == "waiting"
    plan = api.get("/dealers/plan").json
    assert (plan["rotation"], plan["short"], plan["steps"], plan["gaps"]) == (False, 0, [], [])
    assert all(d["next"] is None for d in api.get("/dealers").json["dealers"])


def test_r63_dealer_downs_counts_the_hands_dealt_in_each_down(api, clock, room, session, rotating, now):
    table, (d0, d1, _d2) = rotating
    api.post(f"/dealers/{d0.id}/check-in")
    api.post(f"/dealers/{d1.id}/check-in")
    dealer = as_staff(session, d0.username)
    for no in (1, 2):
        act(session, dealer, now + no * MIN, record_hand, table.id, hand_no=no,
            high_card_seat=1 if no == 1 else None)
    sweep(session, now + 30 * MIN)  # the push: Dealer 1 relieves the room's dealer
    act(session, room.sup, now + 31 * MIN, record_hand, table.id, hand_no=3)
    session.commit()
    clock.advance(minutes=32)
    card = api.get(f"/tables/{table.id}/dealer-downs").json
    assert card["table_id"] == table.id
    newest, first = card["downs"]
    assert (newest["dealer_id"], newest["dealer"], newest["hands"], newest["ended_at"]) == (
        d1.id, "Dealer 1", 1, None)
    assert (first["dealer_id"], first["hands"], first["end_reason"]) == (d0.id, 2, "pushed")
    assert _same(first["started_at"], now) and _same(first["ended_at"], now + 30 * MIN)


def test_r63_another_rooms_table_has_no_down_card(api, session, now):
    other = Room_(session, now, slug="other")
    table = other.table(now, other.game(now), "9")
    session.commit()
    refused(api.get(f"/tables/{table.id}/dealer-downs"), 404, "R63")
