"""R2, R3, R23-R26 over HTTP: the desk's break and away forms and the JSON API, with their
refusals (a 4xx naming the rule, nothing half-written)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from roomops.absences.models import Absence
from roomops.audit.models import AuditEvent
from roomops.holds.models import SeatHold
from roomops.rooms.models import Room
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game
from tests.units import sweep

HOUR = timedelta(hours=1)


def _counts(session) -> tuple[int, int]:
    session.expire_all()
    return (session.scalar(select(func.count()).select_from(AuditEvent)),
            session.scalar(select(func.count()).select_from(Absence)))


def _holds(room, session, now, free=1):
    _game, table = full_game(room, session, now, free=free)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    session.commit()
    return holds


def _desk_refused(resp, status, rule):
    assert resp.status_code == status, resp.text
    assert "Nothing was changed" in resp.text and rule in resp.text
    return resp


# ---- desk -------------------------------------------------------------------------------------


def test_desk_break_shows_time_left_and_return(sup_client, room, session, now, clock):
    holds = _holds(room, session, now)
    clock.advance(hours=1)
    resp = sup_client.post(f"/desk/seats/{holds[0].id}/break", data={"stack": "234.50"})
    assert resp.status_code == 303, resp.text
    absence = session.scalar(select(Absence))
    assert (absence.kind, absence.stack) == ("break", 23450)
    clock.advance(minutes=15)
    html = sup_client.get("/desk").text
    # the time left is desk.js's, from data-until and the server's clock; the page says until when
    until = int((now + timedelta(hours=2)).timestamp() * 1000)
    assert 'data-absence="break"' in html and f'data-until="{until}"' in html
    assert "break until 22:00" in html
    assert sup_client.post(f"/desk/seats/{holds[0].id}/back").status_code == 303
    session.refresh(absence)
    assert absence.outcome == "returned"


def test_desk_break_past_deadline_reads_over_before_the_sweep(sup_client, room, session, now, clock):
    holds = _holds(room, session, now)
    clock.advance(hours=1)
    sup_client.post(f"/desk/seats/{holds[0].id}/break", data={"stack": "100"})
    clock.advance(hours=1)
    assert "break over" in sup_client.get("/desk/fragment").text
    before = _counts(session)
    _desk_refused(sup_client.post(f"/desk/seats/{holds[0].id}/back"), 409, "R24")
    assert _counts(session) == before


def test_desk_break_refusals_name_the_rule_and_change_nothing(sup_client, room, session, now, clock):
    holds = _holds(room, session, now)
    before = _counts(session)
    _desk_refused(sup_client.post(f"/desk/seats/{holds[0].id}/break", data={"stack": "100"}), 409,
                  "R23")  # not 60 minutes of play yet
    _desk_refused(sup_client.post("/desk/seats/999999/break", data={"stack": "100"}), 404, "R23")
    resp = sup_client.post(f"/desk/seats/{holds[0].id}/break", data={})
    assert resp.status_code == 422 and "stack" in resp.text
    assert _counts(session) == before


def test_desk_away_note_needed_then_noted(sup_client, room, session, now, clock):
    holds = _holds(room, session, now)
    assert sup_client.post(f"/desk/seats/{holds[0].id}/away", data={"stack": ""}).status_code == 303
    # R25: due 30 minutes after the player went, drawn hidden until then (desk.js shows it when
    # due, with nothing else changing); a desk drawn from then on shows it at once
    tag = f'class="tag note-needed" data-due="{int((now + timedelta(minutes=30)).timestamp() * 1000)}"'
    clock.advance(minutes=29, seconds=59)
    html = sup_client.get("/desk/fragment").text
    assert 'data-absence="away"' in html and "away since 20:00" in html and f"{tag} hidden title=" in html
    clock.advance(seconds=1)
    assert f"{tag} title=" in sup_client.get("/desk/fragment").text
    resp = sup_client.post(f"/desk/seats/{holds[0].id}/note", data={"note": "at the bar"})
    assert resp.status_code == 303
    assert "note-needed" not in sup_client.get("/desk/fragment").text
    row = session.scalar(select(AuditEvent).where(AuditEvent.action == "away.noted"))
    assert row.reason == "at the bar"
    _desk_refused(sup_client.post(f"/desk/seats/{holds[1].id}/note", data={"note": "x"}), 409, "R25")


def test_desk_policy_edits_break_and_away_policies(sup_client, room, session):
    session.commit()
    html = sup_client.get("/desk/policy").text
    assert "Break length" in html and 'name="gaming_day_start" value="06:00"' in html
    resp = sup_client.post("/desk/policy", data={
        "gaming_day_start": "07:30", "break_minutes": "45", "break_after_play_minutes": "90",
        "breaks_per_gaming_day": "2", "max_breaks_per_table": "1", "away_notify_minutes": "20",
        "max_away_minutes": "40", "max_missed_bb": "0", "auto_offer": "on"})
    assert resp.status_code == 303
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert (r.gaming_day_start.isoformat(), r.break_minutes, r.break_after_play_minutes,
            r.breaks_per_gaming_day, r.max_breaks_per_table, r.away_notify_minutes,
            r.max_away_minutes, r.max_missed_bb) == ("07:30:00", 45, 90, 2, 1, 20, 40, None)
    row = session.scalar(select(AuditEvent).where(AuditEvent.action == "policy.changed"))
    assert "max_missed_bb" not in row.detail["after"]  # 0 = off = unchanged
    assert sup_client.post("/desk/policy", data={"max_away_minutes": "0", "auto_offer": "on"}
                           ).status_code == 303
    session.refresh(r)
    assert r.max_away_minutes is None
    for bad in ({"break_minutes": "0"}, {"max_away_minutes": "481"}, {"gaming_day_start": "25:00"}):
        assert sup_client.post("/desk/policy", data=bad).status_code == 422


# ---- API --------------------------------------------------------------------------------------


def test_api_break_and_back(client, room, session, now, clock):
    holds = _holds(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    clock.advance(hours=1)
    resp = api.post(f"/seats/{holds[0].id}/break", json={"stack": 15000})
    assert resp.status_code == 201, resp.text
    body = resp.json
    assert body["kind"] == "break" and body["stack"] == 15000 and body["outcome"] is None
    assert body["gaming_day"] == "2026-11-21"
    seat = api.get("/room").json["games"][0]["tables"][0]["seats"][0]
    assert seat["absence"]["kind"] == "break" and seat["absence"]["seconds_left"] == 3600
    assert api.post(f"/seats/{holds[0].id}/back").json["outcome"] == "returned"
    refused(api.post(f"/seats/{holds[0].id}/back"), 409, "R25")


def test_api_break_refusals(client, room, session, now, clock):
    holds = _holds(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    before = _counts(session)
    refused(api.post(f"/seats/{holds[0].id}/break", json={"stack": 100}), 409, "R23")
    refused(api.post("/seats/999999/break", json={"stack": 100}), 404, "R23")
    refused(api.post(f"/seats/{holds[0].id}/break", json={}), 422, "R23")
    refused(api.post(f"/seats/{holds[0].id}/break", json={"stack": -1}), 422, "R23")
    refused(api.post(f"/seats/{holds[0].id}/note", json={"note": "x"}), 409, "R25")
    cashier = Api(client, token_for(room, session, "cashier"))
    refused(cashier.post(f"/seats/{holds[0].id}/away", json={}), 403, "R61")
    assert _counts(session) == before


def test_api_away_pickup_by_the_sweep(client, room, session, now, clock):
    holds = _holds(room, session, now, free=0)
    api = Api(client, token_for(room, session, "supervisor"))
    assert api.patch("/policy", json={"max_away_minutes": 20}).json["max_away_minutes"] == 20
    away = api.post(f"/seats/{holds[0].id}/away", json={"stack": 5000}).json
    assert away["deadline"] is not None
    clock.advance(minutes=20)
    sweep(session, clock.now())
    session.commit()
    seats = api.get("/room").json["games"][0]["tables"][0]["seats"]
    assert seats[0]["state"] == "empty"
    waiting = api.get("/room").json["games"][0]["waiting"]
    assert [w["player_id"] for w in waiting] == [holds[0].player_id]
    assert api.patch("/policy", json={"max_away_minutes": 0}).json["max_away_minutes"] is None


def test_api_missed_big_blinds_pick_the_seat_up(client, room, session, now, clock):
    holds = _holds(room, session, now, free=0)
    api = Api(client, token_for(room, session, "supervisor"))
    refused(api.post(f"/seats/{holds[0].id}/missed-big-blind"), 409, "R25")  # not absent
    api.patch("/policy", json={"max_missed_bb": 2})
    api.post(f"/seats/{holds[0].id}/away", json={"stack": 5000})
    first = api.post(f"/seats/{holds[0].id}/missed-big-blind")
    assert first.status_code == 200, first.text
    assert (first.json["missed_bb"], first.json["outcome"]) == (1, None)
    second = api.post(f"/seats/{holds[0].id}/missed-big-blind").json
    assert (second["missed_bb"], second["outcome"]) == (2, "released")  # R26
    seats = api.get("/room").json["games"][0]["tables"][0]["seats"]
    assert seats[0]["state"] == "empty"
    refused(api.post(f"/seats/{holds[0].id}/missed-big-blind"), 409, "R25")
    cashier = Api(client, token_for(room, session, "cashier"))
    refused(cashier.post(f"/seats/{holds[1].id}/missed-big-blind"), 403, "R61")


def test_desk_missed_big_blind(sup_client, room, session, now, clock):
    holds = _holds(room, session, now)
    sup_client.post(f"/desk/seats/{holds[0].id}/away", data={})
    resp = sup_client.post(f"/desk/seats/{holds[0].id}/missed-bb", follow_redirects=True)
    assert "has missed 1 big blind (R26)" in resp.text
    assert session.scalar(select(Absence.missed_bb)) == 1
    _desk_refused(sup_client.post(f"/desk/seats/{holds[1].id}/missed-bb"), 409, "R25")


def test_api_policy_has_the_break_policies(client, room, session):
    api = Api(client, token_for(room, session, "supervisor"))
    policy = api.get("/policy").json
    assert (policy["gaming_day_start"], policy["break_minutes"], policy["break_after_play_minutes"],
            policy["breaks_per_gaming_day"], policy["max_breaks_per_table"],
            policy["away_notify_minutes"], policy["max_away_minutes"], policy["max_missed_bb"]) == (
        "06:00", 60, 60, 1, 3, 30, None, None)
    refused(api.patch("/policy", json={"gaming_day_start": "6am"}), 422, "R3")
    assert api.patch("/policy", json={"gaming_day_start": "05:00"}).json["gaming_day_start"] == "05:00"
