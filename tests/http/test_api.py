"""The JSON API: each route's happy path and its refusals with rule ids, on every configured
database. Requests carry a supervisor's Bearer token unless a test says otherwise."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.models import Player
from roomops.rooms.services import bar_pair
from roomops.rooms.staff import issue_api_token
from roomops.seating import seats
from tests.factories import PASSWORD, Room_
from tests.units import act


class Api:
    """The test client with a Bearer token on every request."""

    def __init__(self, client: FlaskClient, token: str | None) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get("/api/v1" + path, headers=self.headers, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> Any:
        return self.client.post("/api/v1" + path, json=json, headers=self.headers, **kw)

    def patch(self, path: str, json: Any = None, **kw: Any) -> Any:
        return self.client.patch("/api/v1" + path, json=json, headers=self.headers, **kw)


def token_for(room: Room_, session: Session, role: str) -> str:
    token = issue_api_token(session, room.staff[role], room.room.id)
    session.commit()
    return token


def refused(resp: Any, status: int, rule: str | None) -> dict[str, Any]:
    assert resp.status_code == status, resp.text
    assert resp.is_json, resp.text
    body = resp.json
    assert set(body) - {"amounts"} == {"error", "rule"} and body["error"]
    assert body["rule"] == rule, body
    for name, amount in body.get("amounts", {}).items():  # minor units apart; the text in money
        assert type(amount) is int and "{" + name + "}" not in body["error"], body
    return body


def counts(session: Session) -> tuple[int, ...]:
    session.expire_all()
    return tuple(session.scalar(select(func.count()).select_from(m))
                 for m in (AuditEvent, SeatHold, ListEntry, Player))


def fill(room: Room_, session: Session, now: Any, table: Any, seats_free: int = 1) -> list[SeatHold]:
    return [act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=i,
                player_id=p.id, buy_in=10000)
            for i, p in enumerate(room.players(now, 9 - seats_free, "S"), start=1)]


# --- auth ----------------------------------------------------------------------------------------

def test_no_credentials_is_401_json(client, room, session):
    session.commit()
    body = refused(client.get("/api/v1/room"), 401, "R61")
    assert "Bearer" in body["error"]
    refused(client.post("/api/v1/players", json={"first_name": "Ann"}), 401, "R61")


def test_token_auth_and_unknown_or_revoked_token(client, room, session):
    token = token_for(room, session, "supervisor")
    assert Api(client, token).get("/policy").status_code == 200
    refused(Api(client, "not-a-token").get("/policy"), 401, "R61")
    refused(client.get("/api/v1/policy", headers={"Authorization": f"Basic {token}"}), 401, "R61")
    token_for(room, session, "supervisor")  # a new token revokes the old one
    refused(Api(client, token).get("/policy"), 401, "R61")


def test_inactive_staff_token_is_401(client, room, session):
    token = token_for(room, session, "supervisor")
    room.staff["supervisor"].active = False
    session.commit()
    refused(Api(client, token).get("/room"), 401, "R61")


def test_bearer_request_sets_no_session_cookie(api):
    resp = api.get("/room")
    assert resp.status_code == 200
    assert "Set-Cookie" not in resp.headers


def _session_login(app, client: FlaskClient) -> str:
    """Log in through the form with CSRF switched on; returns the session's CSRF token, read from
    a page after the login (the login starts a new session, CSRF token and all)."""
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get("/login").text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = client.post("/login", data={"username": "main-supervisor", "password": PASSWORD,
                                       "csrf_token": csrf})
    assert resp.status_code == 302, resp.text
    after = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/desk").text).group(1)
    assert after != csrf  # nothing of the session before the login survives it
    return after


def test_session_caller_needs_csrf_on_unsafe_methods(app, client, room, session):
    session.commit()
    csrf = _session_login(app, client)
    assert client.get("/api/v1/room").status_code == 200  # safe methods need no token
    before = counts(session)
    resp = client.post("/api/v1/players", json={"first_name": "Ann"})
    assert resp.status_code == 400 and resp.is_json and "CSRF" in resp.json["error"]
    resp = client.post("/api/v1/players", json={"first_name": "Ann"}, headers={"X-CSRFToken": "x"})
    assert resp.status_code == 400 and resp.is_json
    assert counts(session) == before
    resp = client.post("/api/v1/players", json={"first_name": "Ann"}, headers={"X-CSRFToken": csrf})
    assert resp.status_code == 201, resp.text


def test_logged_in_session_works_without_a_token(sup_client):
    assert sup_client.get("/api/v1/policy").status_code == 200
    assert sup_client.post("/api/v1/players", json={"first_name": "Ann"}).status_code == 201


def test_token_caller_needs_no_csrf_even_with_csrf_on(app, api):
    app.config["WTF_CSRF_ENABLED"] = True
    assert api.post("/players", json={"first_name": "Ann"}).status_code == 201


def test_bad_token_with_a_session_cookie_is_still_401(app, client, room, session):
    session.commit()
    _session_login(app, client)
    refused(Api(client, "stolen-or-stale").get("/room"), 401, "R61")


# --- malformed input -----------------------------------------------------------------------------

def test_malformed_json_and_wrong_content_type_are_400_json(api):
    body = refused(api.client.post("/api/v1/players", data="{not json", headers={
        **api.headers, "Content-Type": "application/json"}), 400, None)
    assert "JSON" in body["error"]
    body = refused(api.client.post("/api/v1/players", data={"first_name": "Ann"},
                                   headers=api.headers), 400, None)
    assert "application/json" in body["error"]
    refused(api.client.post("/api/v1/players", headers=api.headers), 400, None)


@pytest.mark.parametrize("raw", [
    b"[" * 100000, b'{"first_name": ' * 50000, b"\xff\xfe{}", b"null", b"",
])
def test_unparseable_json_is_400_not_500(api, raw):
    resp = api.client.post("/api/v1/players", data=raw,
                           headers={**api.headers, "Content-Type": "application/json"})
    refused(resp, 400, None)


@pytest.mark.parametrize("raw", [
    b'{"first_name": "\\ud800"}', b'{"first_name": 1e999}', b'{"first_name": NaN}',
])
def test_unstorable_json_values_are_422(api, raw):
    resp = api.client.post("/api/v1/players", data=raw,
                           headers={**api.headers, "Content-Type": "application/json"})
    assert resp.status_code == 422 and resp.is_json, resp.text


@pytest.mark.parametrize("payload", [
    [], "Ann", 7, {"first_name": ""}, {"first_name": "A" * 61}, {"first_name": "Ann", "x": 1},
    {"first_name": "A\u0000nn"}, {"first_name": 12},
])
def test_bad_player_bodies_are_422(api, session, payload):
    before = counts(session)
    resp = api.post("/players", json=payload)
    assert resp.status_code == 422 and resp.is_json, resp.text
    assert counts(session) == before


@pytest.mark.parametrize("path", [
    "/entries/2147483648/remove", "/entries/99999999999999999999999/check-in", "/entries/0/check-in",
    "/entries/-1/check-in", "/entries/abc/check-in", "/games/1e3", "/nope",
])
def test_ids_out_of_range_or_not_ints_are_404_json(api, path):
    resp = api.post(path, json={"reason": "x"})
    if resp.status_code == 405:  # PATCH-only route
        resp = api.patch(path, json={"variant": "x"})
    assert resp.status_code == 404 and resp.is_json, resp.text


@pytest.mark.parametrize("payload", [
    {"variant": "NLH", "small_blind": 10**30, "big_blind": 200, "min_buyin": 1, "max_buyin": 2},
    {"variant": "NLH", "small_blind": 10**12 + 1, "big_blind": 10**12 + 1, "min_buyin": 1,
     "max_buyin": 2},  # over MAX_AMOUNT
    {"variant": "NLH", "small_blind": "100", "big_blind": "lots", "min_buyin": 1, "max_buyin": 2},
    {"variant": "NLH", "small_blind": 1.5, "big_blind": 2, "min_buyin": 1, "max_buyin": 2},
])
def test_huge_or_wrong_numbers_are_422(api, payload):
    refused(api.post("/games", json=payload), 422, "R4")


def test_unknown_ids_are_404(api, room, session, now):
    other = Room_(session, now, slug="other")
    game = other.game(now)
    entry = act(session, other.sup, now, lists.join, player_id=other.player(now, "Zed").id,
                game_id=game.id)
    session.commit()
    refused(api.post(f"/entries/{entry.id}/check-in"), 404, None)  # another room's entry (R1)
    refused(api.get(f"/entries/{entry.id}/history"), 404, None)
    refused(api.post("/offers/999999/claim", json={"buy_in": 10000}), 404, None)
    refused(api.post("/seats/999999/leave", json={"leave_amount": 0}), 404, None)
    refused(api.patch("/games/999999", json={"ante": 5}), 404, None)
    refused(api.post("/tables/999999/close"), 404, None)
    refused(api.post("/entries", json={"player_id": 999999, "game_id": game.id}), 404, None)


# --- players and barred pairs --------------------------------------------------------------------

def test_add_player(api, session):
    resp = api.post("/players", json={"first_name": " Ann ", "last_name": "Lee",
                                      "phone": "07700 900123"})
    assert resp.status_code == 201, resp.text
    body = resp.json
    assert body["first_name"] == "Ann" and body["full_name"] == "Ann Lee" and body["id"] > 0
    player = session.get(Player, body["id"])
    assert (player.last_name, player.phone) == ("Lee", "+447700900123")  # E.164 (R12)
    assert session.scalar(select(AuditEvent).where(AuditEvent.action == "player.added",
                                                   AuditEvent.entity_id == body["id"]))


def test_issue40_the_api_refuses_what_is_no_phone_number(api, session):
    """The same reader as the desk's and the phone page's (R12): "12ab" is no number."""
    body = refused(api.post("/players", json={"first_name": "Bob", "phone": "12ab"}), 422, "R12")
    assert "'12ab' is not a phone number we can read" in body["error"]
    assert session.scalar(select(Player).where(Player.first_name == "Bob")) is None


def test_bar_pair_r15(api, room, session, now):
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    session.commit()
    resp = api.post("/barred-pairs", json={"player_a": b.id, "player_b": a.id, "reason": "fight"})
    assert resp.status_code == 201, resp.text
    assert resp.json["player_low_id"] == min(a.id, b.id) and resp.json["reason"] == "fight"
    refused(api.post("/barred-pairs", json={"player_a": a.id, "player_b": b.id, "reason": "again"}),
            409, "R15")
    refused(api.post("/barred-pairs", json={"player_a": a.id, "player_b": a.id, "reason": "x"}),
            422, "R15")
    refused(api.post("/barred-pairs", json={"player_a": a.id, "player_b": b.id, "reason": " "}),
            422, "R15")


# --- lists ---------------------------------------------------------------------------------------

def test_join_waiting_and_reserve_lists(api, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    fill(room, session, now, table, seats_free=0)
    ann, bob = room.player(now, "Ann"), room.player(now, "Bob")
    session.commit()
    resp = api.post("/entries", json={"player_id": ann.id, "game_id": game.id})
    assert resp.status_code == 201, resp.text
    assert resp.json["kind"] == "waiting" and resp.json["status"] == "active"
    resp = api.post("/entries", json={"player_id": bob.id, "table_id": table.id, "source": "phone"})
    assert resp.status_code == 201, resp.text
    assert resp.json["kind"] == "reserve" and resp.json["checkin_deadline"] is not None
    refused(api.post("/entries", json={"player_id": ann.id, "game_id": game.id}), 409, "R10")
    refused(api.post("/entries", json={"player_id": ann.id}), 422, "R10")
    refused(api.post("/entries", json={"player_id": ann.id, "game_id": game.id,
                                       "table_id": table.id}), 422, "R10")


def test_join_closed_table_is_refused_r5(api, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    p = room.player(now, "Ann")
    session.commit()
    assert api.post(f"/tables/{table.id}/close").status_code == 200
    before = counts(session)
    refused(api.post("/entries", json={"player_id": p.id, "table_id": table.id}), 409, "R5")
    assert counts(session) == before


def _waiting(room, session, now, names=("Ann", "Bob", "Cy")):
    game = room.game(now)
    table = room.table(now, game, "1")
    fill(room, session, now, table, seats_free=0)
    entries = [act(session, room.sup, now + timedelta(seconds=i), lists.join, player_id=p.id,
                   game_id=game.id)
               for i, p in enumerate(room.player(now, n) for n in names)]
    session.commit()
    return game, table, entries


def test_remove_needs_reason_r16_and_keeps_history(api, room, session, now):
    _game, _table, (ann, *_rest) = _waiting(room, session, now)
    before = counts(session)
    refused(api.post(f"/entries/{ann.id}/remove", json={}), 422, "R16")
    refused(api.post(f"/entries/{ann.id}/remove", json={"reason": "   "}), 422, "R16")
    assert counts(session) == before
    resp = api.post(f"/entries/{ann.id}/remove", json={"reason": "went home"})
    assert resp.status_code == 200, resp.text
    assert resp.json["status"] == "removed" and resp.json["end_reason"] == "went home"
    refused(api.post(f"/entries/{ann.id}/remove", json={"reason": "again"}), 409, "R16")
    hist = api.get(f"/entries/{ann.id}/history").json
    assert [e["action"] for e in hist["events"]] == ["entry.joined", "entry.removed"]
    assert hist["events"][-1]["reason"] == "went home" and hist["entry"]["id"] == ann.id


def test_reorder_needs_reason_r13(api, room, session, now):
    _game, _table, (ann, bob, cy) = _waiting(room, session, now)
    before = counts(session)
    refused(api.post(f"/entries/{cy.id}/reorder", json={"position": 1}), 422, "R13")
    refused(api.post(f"/entries/{cy.id}/reorder", json={"position": 1, "reason": ""}), 422, "R13")
    refused(api.post(f"/entries/{cy.id}/reorder", json={"position": 9, "reason": "x"}), 422, "R13")
    assert counts(session) == before
    resp = api.post(f"/entries/{cy.id}/reorder", json={"position": 1, "reason": "called ahead"})
    assert resp.status_code == 200, resp.text
    waiting = api.get("/room").json["games"][0]["waiting"]
    assert [w["entry_id"] for w in waiting] == [cy.id, ann.id, bob.id]
    assert [w["position"] for w in waiting] == [1, 2, 3]
    hist = api.get(f"/entries/{cy.id}/history").json["events"]
    assert hist[-1]["action"] == "entry.reordered" and hist[-1]["reason"] == "called ahead"


def test_check_in_r12(api, room, session, now):
    game = room.game(now)
    phone = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id,
                game_id=game.id, source="phone")
    walk_in = act(session, room.sup, now, lists.join, player_id=room.player(now, "Bob").id,
                  game_id=game.id)
    session.commit()
    resp = api.post(f"/entries/{phone.id}/check-in")
    assert resp.status_code == 200 and resp.json["checked_in_at"] is not None
    refused(api.post(f"/entries/{phone.id}/check-in"), 409, "R12")
    refused(api.post(f"/entries/{walk_in.id}/check-in"), 409, "R12")


# --- offers, claims, seats -----------------------------------------------------------------------

def _open_seat_with_offer(room, session, now):
    """A full table, Ann and Bob waiting, seat 4 leaves: Ann is offered it (R14)."""
    game, table, (ann, bob) = _waiting(room, session, now, ("Ann", "Bob"))
    leaving = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                    SeatHold.seat_no == 4))
    act(session, room.sup, now, seats.leave, leaving.id, 15000)
    session.commit()
    offer = session.scalar(select(SeatHold).where(SeatHold.entry_id == ann.id,
                                                  SeatHold.ended_at.is_(None)))
    return game, table, ann, bob, offer


def test_claim_seats_the_player_r21(api, room, session, now):
    _game, table, ann, _bob, offer = _open_seat_with_offer(room, session, now)
    refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 5}), 422, "R30")
    resp = api.post(f"/offers/{offer.id}/claim", json={"buy_in": 12000})
    assert resp.status_code == 200, resp.text
    assert resp.json["kind"] == "seated" and resp.json["seat_no"] == 4
    assert resp.json["table_id"] == table.id and resp.json["buy_in"] == 12000
    refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 12000}), 409, "R20")
    assert api.get(f"/entries/{ann.id}/history").json["entry"]["status"] == "seated"


def test_claim_after_deadline_is_refused_r22_and_writes_nothing(api, room, session, now, clock):
    _game, _table, _ann, _bob, offer = _open_seat_with_offer(room, session, now)
    clock.advance(minutes=10)  # exactly at the deadline the offer is gone (R22)
    seat = api.get("/room").json["games"][0]["tables"][0]["seats"][3]
    assert seat["state"] == "expired" and seat["seconds_left"] == 0
    before = counts(session)
    refused(api.post(f"/offers/{offer.id}/claim", json={"buy_in": 12000}), 409, "R22")
    assert counts(session) == before


def test_decline_is_a_missed_call_and_next_is_offered_r22(api, room, session, now):
    _game, _table, ann, bob, offer = _open_seat_with_offer(room, session, now)
    resp = api.post(f"/offers/{offer.id}/decline")
    assert resp.status_code == 200 and resp.json["outcome"] == "declined"
    refused(api.post(f"/offers/{offer.id}/decline"), 409, "R20")
    table = api.get("/room").json["games"][0]["tables"][0]
    assert table["seats"][3]["state"] == "offered" and table["seats"][3]["player"] == "Bob Player"
    assert [e["action"] for e in api.get(f"/entries/{ann.id}/history").json["events"]][-1] == \
        "entry.removed"
    assert bob.id  # Bob is now offered the seat


def test_manual_offer_out_of_order_needs_reason_r13(api, room, session, now):
    room.room.auto_offer = False
    game, table, (ann, bob) = _waiting(room, session, now, ("Ann", "Bob"))
    leaving = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                    SeatHold.seat_no == 2))
    act(session, room.sup, now, seats.leave, leaving.id, 0)
    session.commit()
    before = counts(session)
    body = refused(api.post("/offers", json={"table_id": table.id, "seat_no": 2,
                                             "entry_id": bob.id}), 409, "R13")
    assert body["error"].startswith("Ann Player is next for this seat")  # a name, not an id
    assert counts(session) == before
    resp = api.post("/offers", json={"table_id": table.id, "seat_no": 2, "entry_id": bob.id,
                                     "reason": "Ann asked to wait"})
    assert resp.status_code == 201, resp.text
    assert resp.json["kind"] == "offer" and resp.json["deadline"] is not None
    refused(api.post("/offers", json={"table_id": table.id, "seat_no": 2, "entry_id": ann.id}),
            409, "R20")
    refused(api.post("/offers", json={"table_id": table.id, "seat_no": 11, "entry_id": ann.id}),
            422, "R4")
    assert game.id


def test_seat_player_taken_r20_barred_r15_and_leave(api, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    room.room.auto_offer = False
    ann, bob, cy = room.player(now, "Ann"), room.player(now, "Bob"), room.player(now, "Cy")
    act(session, room.sup, now, bar_pair, ann.id, cy.id, "argued")
    session.commit()
    resp = api.post("/seats", json={"table_id": table.id, "seat_no": 1, "player_id": ann.id,
                                    "buy_in": 10000})
    assert resp.status_code == 201, resp.text
    hold = resp.json
    before = counts(session)
    refused(api.post("/seats", json={"table_id": table.id, "seat_no": 1, "player_id": bob.id,
                                     "buy_in": 10000}), 409, "R20")
    refused(api.post("/seats", json={"table_id": table.id, "seat_no": 2, "player_id": cy.id,
                                     "buy_in": 10000}), 409, "R15")
    refused(api.post("/seats", json={"table_id": table.id, "seat_no": 2, "player_id": bob.id,
                                     "buy_in": 10**9}), 422, "R30")
    assert counts(session) == before
    resp = api.post(f"/seats/{hold['id']}/leave", json={"leave_amount": 23000})
    assert resp.status_code == 200 and resp.json["outcome"] == "left"
    assert resp.json["leave_amount"] == 23000
    refused(api.post(f"/seats/{hold['id']}/leave", json={"leave_amount": 0}), 409, "R21")
    refused(api.post(f"/seats/{hold['id']}/leave", json={"leave_amount": -1}), 422, "R27")


def test_cashier_may_not_run_the_floor_r61(cashier, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    p = room.player(now, "Ann")
    session.commit()
    before = counts(session)
    refused(cashier.post("/players", json={"first_name": "Ann"}), 403, "R61")
    refused(cashier.post("/seats", json={"table_id": table.id, "seat_no": 1, "player_id": p.id,
                                         "buy_in": 10000}), 403, "R61")
    refused(cashier.post("/entries", json={"player_id": p.id, "game_id": game.id}), 403, "R61")
    refused(cashier.patch("/policy", json={"claim_minutes": 5}), 403, "R61")
    refused(cashier.post(f"/tables/{table.id}/close"), 403, "R61")
    refused(cashier.get("/audit"), 403, "R61")
    assert counts(session) == before
    # the floor is not the cashier's screen (R61): money is
    refused(cashier.get("/room"), 403, "R61")
    assert cashier.get("/transits/open").status_code == 200


# --- games and tables ----------------------------------------------------------------------------

GAME = {"variant": "PL Omaha", "small_blind": 200, "big_blind": 500, "min_buyin": 20000,
        "max_buyin": 100000, "fee_kind": "rake", "rake_bp": 500, "rake_cap": 1000,
        "straddle_allowed": True, "max_straddles": 1}


def test_open_change_and_close_game(api, session):
    resp = api.post("/games", json=GAME)
    assert resp.status_code == 201, resp.text
    game = resp.json
    assert game["status"] == "open" and game["seats_per_table"] == 9 and game["rake_cap"] == 1000
    resp = api.patch(f"/games/{game['id']}", json={"ante": 100, "variant": None})
    assert resp.status_code == 200, resp.text
    assert resp.json["ante"] == 100 and resp.json["variant"] == "PL Omaha"  # only fields sent (R6)
    change = session.scalar(select(AuditEvent).where(AuditEvent.action == "game.changed"))
    assert change.detail == {"before": {"ante": 0}, "after": {"ante": 100}}
    refused(api.patch(f"/games/{game['id']}", json={}), 422, None)
    refused(api.patch(f"/games/{game['id']}", json={"big_blind": 100}), 422, "R4")
    refused(api.patch(f"/games/{game['id']}", json={"seats_per_table": 10}), 422, "R6")
    table = api.post("/tables", json={"game_id": game["id"], "name": "7"})
    assert table.status_code == 201, table.text
    refused(api.post("/tables", json={"game_id": game["id"], "name": "7"}), 409, "R5")
    refused(api.post(f"/games/{game['id']}/close"), 409, "R5")
    assert api.post(f"/tables/{table.json['id']}/close").json["status"] == "closed"
    refused(api.post(f"/tables/{table.json['id']}/close"), 409, "R5")
    resp = api.post(f"/games/{game['id']}/close")
    assert resp.status_code == 200 and resp.json["status"] == "closed"
    refused(api.post("/tables", json={"game_id": game["id"], "name": "8"}), 409, "R5")


def test_close_table_with_players_is_refused_r5(api, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    fill(room, session, now, table, seats_free=8)
    session.commit()
    before = counts(session)
    refused(api.post(f"/tables/{table.id}/close"), 409, "R5")
    assert counts(session) == before


# --- policy, room, audit -------------------------------------------------------------------------

def test_policy_get_and_patch_r3(api, session):
    policy = api.get("/policy").json
    assert policy["claim_minutes"] == 10 and policy["on_claim_expiry"] == "remove"
    resp = api.patch("/policy", json={"claim_minutes": 5, "on_claim_expiry": "bottom"})
    assert resp.status_code == 200, resp.text
    assert resp.json["claim_minutes"] == 5 and resp.json["placement"] == "most_need"
    refused(api.patch("/policy", json={"timezone": "Mars/Olympus"}), 422, "R3")
    refused(api.patch("/policy", json={"claim_minutes": 0}), 422, "R3")
    assert session.scalar(select(func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "policy.changed")) == 1


def test_room_snapshot(api, room, session, now, clock):
    game = room.game(now, straddle_allowed=True, max_straddles=2, fee_kind="hourly", time_fee=600)
    table = room.table(now, game, "1")
    fill(room, session, now, table, seats_free=1)
    ann = room.player(now, "Ann", "Lee")
    entry = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)  # offered seat 9
    bob = act(session, room.sup, now, lists.join, player_id=room.player(now, "Bob").id, game_id=game.id)
    session.commit()
    clock.advance(seconds=30)
    snap = api.get("/room").json
    assert snap["now"].startswith("2026-11-21T20:00:30") and snap["version"] > 0
    assert snap["policy"]["claim_minutes"] == 10
    (g,) = snap["games"]
    assert g["fees"] == {"kind": "hourly", "time_fee": 600, "hourly_fee": 600,
                         "time_fee_by_players": None, "drop_fee": 0, "drop_by_players": None,
                         "rake_bp": 0, "rake_cap": 0, "smallest_chip": 100, "rake_min_one_chip": False,
                         "rake_schedule": None, "rake_caps_by_players": None}
    assert g["straddles"] == {"allowed": True, "max_straddles": 2, "button_straddle": False,
                              "sanction": False}
    (t,) = g["tables"]
    assert t["name"] == "1" and t["seated"] == 8 and len(t["seats"]) == 9
    assert t["seats"][0]["state"] == "seated" and t["seats"][0]["hold_id"]
    offered = t["seats"][8]
    assert offered["state"] == "offered" and offered["player"] == "Ann Lee"
    assert offered["seconds_left"] == 570 and offered["deadline"].startswith("2026-11-21T20:10:00")
    assert [(w["entry_id"], w["position"]) for w in g["waiting"]] == [(entry.id, 1), (bob.id, 2)]
    assert g["waiting"][0]["offer_id"] == offered["hold_id"]
    assert api.get("/room").json["version"] == snap["version"]  # nothing changed


def test_audit_trail_r60(api, room, session, now):
    for i in range(5):
        room.player(now, f"P{i}")
    session.commit()
    page = api.get("/audit?action=player.&limit=3").json
    assert [e["action"] for e in page["events"]] == ["player.added"] * 3
    assert page["events"][0]["id"] > page["events"][-1]["id"]  # newest first
    rest = api.get(f"/audit?action=player.&before_id={page['next_before_id']}&limit=3").json
    assert len(rest["events"]) == 2 and rest["next_before_id"] is None
    assert api.get("/audit?actor=main-supervisor").json["events"]
    assert api.get("/audit?actor=nobody").json["events"] == []
    refused(api.get("/audit?limit=0"), 422, "R60")
    refused(api.get("/audit?before_id=abc"), 422, "R60")
    refused(api.get("/audit?before_id=99999999999999"), 422, "R60")
    refused(api.get("/audit?action=offer%00"), 422, "R60")


def test_refused_request_writes_nothing(api, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    fill(room, session, now, table, seats_free=1)  # seat 9 open
    ann = room.player(now, "Ann")
    session.commit()
    before = counts(session)
    lists_before = api.get("/room").json
    refused(api.post("/seats", json={"table_id": table.id, "seat_no": 1, "player_id": ann.id,
                                     "buy_in": 10000}), 409, "R20")
    # update_game changes the row before it finds the conflict: the rollback undoes that (R6).
    refused(api.patch(f"/games/{game.id}", json={"min_buyin": 10**9}), 422, "R4")
    assert counts(session) == before
    assert api.get("/room").json == lists_before
