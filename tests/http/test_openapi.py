"""The served OpenAPI document: valid OpenAPI 3.1, covers every /api/v1 route, and the API keeps to
it under fuzzing (schemathesis, positive and negative inputs) on every configured database."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.api.openapi import openapi_path
from roomops.lists import services as lists
from roomops.rooms.services import bar_pair
from roomops.rooms.staff import issue_api_token
from roomops.seating import seats
from roomops.seating.models import SeatHold
from tests.factories import Room_

CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance,
          content_type_conformance]


def test_document_is_openapi_3_1(client):
    resp = client.get("/api/openapi.json")
    assert resp.status_code == 200 and resp.is_json
    doc = resp.json
    assert doc["openapi"] == "3.1.0"
    assert set(doc["components"]["securitySchemes"]) == {"bearer", "cookie"}
    assert "$defs" not in str(doc)  # every ref points into #/components/schemas
    for ref in re.findall(r"'\$ref': '([^']+)'", str(doc)):
        assert ref.removeprefix("#/components/schemas/") in doc["components"]["schemas"], ref
    # schemathesis refuses to load an invalid document and lists every operation
    schema = schemathesis.openapi.from_dict(doc)
    assert len(list(schema.get_all_operations())) == sum(len(p) for p in doc["paths"].values())


def test_every_api_route_is_documented(app: Flask, client):
    doc = client.get("/api/openapi.json").json
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    served = {(openapi_path(rule.rule.removeprefix("/api")), method)
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == documented
    # R50: a whole table's session fees and a hand's drop made it 64; R36's seat changes 68
    assert len([p for p, _ in served if p.startswith("/api/v1/")]) == 68


def test_every_operation_documents_the_error_body(client):
    doc = client.get("/api/openapi.json").json
    error = doc["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"error", "rule"}
    for path, ops in doc["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for op in ops.values():
            for code in ("400", "401", "403", "404", "409", "422"):
                assert op["responses"][code]["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"}
            assert op["security"] if "security" in op else doc["security"]


# --- the fuzz test -------------------------------------------------------------------------------

@dataclass
class FuzzRoom:
    token: str
    ids: dict[str, list[int]] = field(default_factory=dict)


# Path parameters and body fields that name rows: half the time they are pointed at real rows of
# the room, so the fuzzer reaches the services and not only the 404s.
POOLS = {"entry_id": "entry", "offer_id": "offer", "hold_id": "hold", "game_id": "game",
         "table_id": "table", "player_id": "player", "player_a": "player", "player_b": "player"}


@pytest.fixture()
def fuzz_room(room: Room_, session: Session, now: Any) -> FuzzRoom:
    """A game with a table that has seated players, an open seat offered to the first waiting
    player, a second table with open seats, waiting and reserve entries and a barred pair."""
    game = room.game(now)
    main, side = room.table(now, game, "1"), room.table(now, game, "2")
    players = room.players(now, 14, "F")
    for i, p in enumerate(players[:8], start=1):
        seats.seat_directly(session, room.sup, now, table_id=main.id, seat_no=i, player_id=p.id,
                            buy_in=10000)
    for i, p in enumerate(players[8:10], start=1):
        seats.seat_directly(session, room.sup, now, table_id=side.id, seat_no=i, player_id=p.id,
                            buy_in=10000)
    entries = [lists.join(session, room.sup, now, player_id=p.id, game_id=game.id)
               for p in players[10:12]]
    entries.append(lists.join(session, room.sup, now, player_id=players[12].id, table_id=main.id,
                              source="phone"))
    bar_pair(session, room.sup, now, players[13].id, players[0].id, "fuzz")
    holds = list(session.scalars(select(SeatHold).where(SeatHold.room_id == room.room.id)))
    token = issue_api_token(session, room.staff["supervisor"], room.room.id)
    session.commit()
    return FuzzRoom(token, {
        "game": [game.id], "table": [main.id, side.id], "player": [p.id for p in players],
        "entry": [e.id for e in entries], "offer": [h.id for h in holds if h.kind == "offer"],
        "hold": [h.id for h in holds if h.kind == "seated"],
    })


@pytest.fixture()
def api_schema(app: Flask, fuzz_room: FuzzRoom) -> Any:
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


schema = schemathesis.pytest.from_fixture("api_schema")


def _real(value: Any, pool: list[int]) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and pool and value % 2 == 0:
        return pool[(value // 2) % len(pool)]
    return value


def point_at_real_rows(case: Any, room: FuzzRoom) -> None:
    for name, value in (case.path_parameters or {}).items():
        case.path_parameters[name] = _real(value, room.ids.get(POOLS.get(name, ""), []))
    for name, value in (case.query or {}).items():
        if name in POOLS:
            case.query[name] = _real(value, room.ids[POOLS[name]])
    if isinstance(case.body, dict):
        for name, value in case.body.items():
            if name in POOLS:
                case.body[name] = _real(value, room.ids[POOLS[name]])


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_keeps_to_its_document(case: Any, fuzz_room: FuzzRoom) -> None:
    point_at_real_rows(case, fuzz_room)
    case.call_and_validate(headers={"Authorization": f"Bearer {fuzz_room.token}"}, checks=CHECKS)
