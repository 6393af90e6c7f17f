"""The served OpenAPI document: valid OpenAPI 3.1, covers every /api/v1 route, its links name real
operations and parameters, and the API keeps to it on every configured database under fuzzing
(schemathesis): each operation alone with positive, negative and boundary inputs and undeclared
methods, and whole nights of calls that follow the document's links."""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import rule
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NotSet
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ensure_resource_availability,
    ignored_auth,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)
from sqlalchemy import Connection, Engine, select
from sqlalchemy.orm import Session

from roomops.api.links import given, taken
from roomops.api.openapi import openapi_path
from roomops.api.views import OPERATIONS, Operation
from roomops.clock import FrozenClock
from roomops.games.models import Table
from roomops.hands import services as hands
from roomops.holds.models import SeatHold
from roomops.ledger.dayclose import today
from roomops.ledger.models import LedgerEntry
from roomops.lists import services as lists
from roomops.rooms.models import Player
from roomops.rooms.services import bar_pair, update_policy
from roomops.rooms.staff import issue_api_token
from roomops.schemas import MAX_AMOUNT
from roomops.seating import seats
from tests.factories import Room_
from tests.units import act

# The stateful test's size: nights (scenarios) of up to STEPS calls each. Enough to find the
# review's faults on either database in well under a minute each (docs/security.md).
NIGHTS = 120
STEPS = 20


def test_document_is_openapi_3_1(client):
    resp = client.get("/api/openapi.json")
    assert resp.status_code == 200 and resp.is_json
    doc = resp.json
    assert doc["openapi"] == "3.1.0"
    assert set(doc["components"]["securitySchemes"]) == {"bearer", "cookie", "playerLink"}
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
    # R50: a whole table's session fees and a hand's drop made it 64; R13: lockups, 66; R36's
    # seat changes, 70; the public live-games feed, 71; R12: a player's own remote entries, 74;
    # issue 40: the code that completes a join from the phone, 75; R62-R64: the dealers' roster, 83;
    # R66: their tips, 85; R80: the manager's figures, 86; R67-R70: the jackpots, 99
    assert len([p for p, _ in served if p.startswith("/api/v1/")]) == 99


def test_every_operation_documents_the_error_body(client):
    doc = client.get("/api/openapi.json").json
    error = doc["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"error", "rule"}
    for path, ops in doc["paths"].items():
        if not path.startswith("/api/v1/"):
            continue
        for op in ops.values():
            # a public read (no log-in, no body) can only miss its room
            public = op.get("security") == []
            for code in ("404",) if public else ("400", "401", "403", "404", "409", "422"):
                assert op["responses"][code]["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"}
            # public: joining from the phone (R12) and the live-games feed; a player's link reads
            # and leaves its entries
            security = op["security"] if "security" in op else doc["security"]
            assert security or op["operationId"] in ("join_remote", "confirm_remote", "live_games")


def _integers(doc: dict[str, Any], node: Any, seen: frozenset[str] = frozenset()) -> Iterator[Any]:
    """Every integer schema under ``node``, through refs, nested objects and arrays."""
    if isinstance(node, list):
        for item in node:
            yield from _integers(doc, item, seen)
    if not isinstance(node, dict):
        return
    if "$ref" in node:
        name = node["$ref"].removeprefix("#/components/schemas/")
        if name not in seen:
            yield from _integers(doc, doc["components"]["schemas"][name], seen | {name})
        return
    if node.get("type") == "integer":
        yield node
    for value in node.values():
        yield from _integers(doc, value, seen)


def test_every_integer_the_api_takes_is_bounded_within_64_bits(client):
    """R52, R54: each integer of a request (path, query, body, nested) has a minimum and a maximum
    its column holds (or is one of a few values), so schemathesis' coverage phase sends one past
    each bound and the fuzz test checks it is refused, never a 500 (the review's 2**63 count)."""
    doc = client.get("/api/openapi.json").json
    found = 0
    for ops in doc["paths"].values():
        for op in ops.values():
            for node in _integers(doc, [op.get("parameters", []), op.get("requestBody", {})]):
                found += 1
                assert "enum" in node or (
                    -2**63 <= node.get("minimum", -2**64) <= node.get("maximum", 2**64) < 2**63), node
    assert found > 100


def _links(doc: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str, dict[str, Any]]]:
    """(source operation, 2xx status, link) of every link of the document."""
    for ops in doc["paths"].values():
        for op in ops.values():
            for status, answer in op["responses"].items():
                for found in answer.get("links", {}).values():
                    yield op, status, found


def _properties(doc: dict[str, Any], schema: dict[str, Any]) -> set[str]:
    name = schema["$ref"].removeprefix("#/components/schemas/")
    return set(doc["components"]["schemas"][name]["properties"])


def test_every_link_names_an_existing_operation_and_parameter(client):
    """Each link's target exists, each parameter and body field it fills is the target's, and each
    expression reads a field of the source's 2xx answer (R1: the ids are the room's rows)."""
    doc = client.get("/api/openapi.json").json
    ops = {op["operationId"]: op for p in doc["paths"].values() for op in p.values()}
    found = list(_links(doc))
    assert len(found) > 100
    for source, status, link in found:
        assert status.startswith("2")
        target = ops[link["operationId"]]
        params = {f"{p['in']}.{p['name']}" for p in target.get("parameters", [])}
        assert set(link.get("parameters", {})) <= params, link
        path = {p for p in params if p.startswith("path.")}
        assert path <= set(link.get("parameters", {})), link  # a path is never left to chance
        if "requestBody" in link:
            body = target["requestBody"]["content"]["application/json"]["schema"]
            assert set(link["requestBody"]) <= _properties(doc, body), link
        answer = source["responses"][status]["content"]["application/json"]["schema"]
        for expr in [*link.get("parameters", {}).values(), *link.get("requestBody", {}).values()]:
            assert expr.removeprefix("$response.body#/") in _properties(doc, answer), expr
    # schemathesis builds its state machine from them without an invalid transition
    assert schemathesis.openapi.from_dict(doc).as_state_machine()


@pytest.mark.parametrize(("source", "target", "fills"), [
    ("open_game", "open_table", {"game_id": "id"}),
    ("open_table", "seat_player", {"table_id": "id"}),
    ("add_player", "seat_player", {"player_id": "id"}),
    ("make_offer", "claim_offer", {"path.offer_id": "id"}),
    ("seat_player", "post_buy_in", {"hold_id": "id"}),
    ("leave_seat", "post_cash_out", {"hold_id": "id", "amount": "leave_amount"}),
    ("grant_break", "start_playover", {"path.hold_id": "hold_id"}),
    ("start_playover", "post_add_on", {"hold_id": "hold_id", "playover_id": "id"}),
    ("stop_playover", "post_cash_out",
     {"hold_id": "hold_id", "playover_id": "id", "amount": "leave_amount"}),
    ("request_transit", "deliver_transit_at_table", {"path.slip_id": "id", "path.table_id": "table_id"}),
    ("post_buy_in", "reverse_entry", {"path.entry_id": "id"}),
    ("post_buy_in", "record_day_counts", {"path.gaming_day": "gaming_day"}),
    ("record_hand", "record_rake", {"path.table_id": "table_id", "path.hand_no": "hand_no"}),
    ("join_list", "make_offer", {"entry_id": "id", "table_id": "table_id"}),
])
def test_a_night_is_linked(client, source, target, fills):
    """The links follow a night: a game, its table, a seat, a buy-in, a break and a playover
    (R29), a transit to the seat's table (R31), a hand and its rake (R51), the day's counts (R54)."""
    doc = client.get("/api/openapi.json").json
    links = {(s["operationId"], link["operationId"]): link for s, _, link in _links(doc)}
    link = links[(source, target)]
    got = {**link.get("parameters", {}), **link.get("requestBody", {})}
    assert got == {name: f"$response.body#/{field}" for name, field in fills.items()}


# --- the fuzz tests ------------------------------------------------------------------------------

@dataclass
class FuzzRoom:
    """The room the fuzzers work in: a token and, per kind of row (``roomops.api.links.KINDS``),
    the ids of real rows, which grow with every row an answer names."""

    token: str
    ids: dict[str, list[Any]] = field(default_factory=dict)


def _seat(session: Session, room: Room_, now: Any, table: Table, players: list[Player]) -> None:
    for seat_no, p in enumerate(players, start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=seat_no,
            player_id=p.id, buy_in=10000)


@pytest.fixture()
def fuzz_room(room: Room_, session: Session, now: Any, clock: FrozenClock) -> FuzzRoom:
    """Ninety minutes into the night: a raked game with a table that has seated players, an open
    seat offered to the first waiting player and a second table with open seats, each table with
    its first hand; an hourly game's table; waiting and reserve entries and a barred pair."""
    # any amount is a buy-in, a cash-out needs no approval and one supervisor may reverse: the
    # fuzzers' amounts and single token get past the room's policy to the ledger (R27, R30, R52)
    act(session, room.sup, now, update_policy, cash_out_approval_over=0, reversal_two_person=False)
    anything = {"min_buyin": 1, "max_buyin": MAX_AMOUNT}
    game = room.game(now, fee_kind="rake", rake_bp=500, rake_cap=500, smallest_chip=1, **anything)
    hourly = room.game(now, fee_kind="hourly", time_fee=500, **anything)
    main, side, timed = (room.table(now, game, "1"), room.table(now, game, "2"),
                         room.table(now, hourly, "3"))
    players = room.players(now, 16, "F")
    _seat(session, room, now, main, players[:8])
    _seat(session, room, now, side, players[8:10])
    _seat(session, room, now, timed, players[14:])
    for table in (main, side):
        act(session, room.sup, now, hands.record_hand, table.id, hand_no=1, high_card_seat=1)
    entries = [act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
               for p in players[10:12]]
    entries.append(act(session, room.sup, now, lists.join, player_id=players[12].id, table_id=main.id,
                       source="phone"))
    act(session, room.sup, now, bar_pair, players[13].id, players[0].id, "fuzz")
    holds = list(session.scalars(select(SeatHold).where(SeatHold.room_id == room.room.id)))
    rows = list(session.scalars(select(LedgerEntry.id).where(LedgerEntry.room_id == room.room.id)))
    token = issue_api_token(session, room.staff["supervisor"], room.room.id)
    session.commit()
    clock.advance(minutes=90)  # the seated players have played long enough for a break (R23)
    return FuzzRoom(token, {
        "game": [game.id, hourly.id], "table": [main.id, side.id, timed.id],
        "player": [p.id for p in players], "entry": [e.id for e in entries],
        "offer": [h.id for h in holds if h.kind == "offer"],
        "seat": [h.id for h in holds if h.kind == "seated"], "ledger": rows,
        "gaming_day": [today(room.room, now).isoformat()],
        "hand_no": [1, 2],  # the raked tables' first hand, and their next
        "dealer": [room.staff["dealer"].id],  # R62: the room's dealer, checked in and out
    })


LOCATIONS = {"path": ParameterLocation.PATH, "query": ParameterLocation.QUERY,
             "body": ParameterLocation.BODY}


def operation(case: Any) -> Operation:
    """The route of the case's documented operation (the case may send another method)."""
    # looked up when called: the routes of roomops.api.ledger and others attach with the first app
    return next(op for op in OPERATIONS if op.method == case.operation.method.upper()
                and openapi_path(op.rule) == case.operation.path)


def _real(value: Any, pool: list[Any]) -> Any:
    """Three in four values that name no real row are pointed at one, picked by the value itself
    so a run replays."""
    if not pool or value in pool or isinstance(value, bool | dict | list) or value is None:
        return value
    pick = zlib.crc32(repr(value).encode())
    return pool[(pick // 4) % len(pool)] if pick % 4 else value


def point_at_real_rows(case: Any, room: FuzzRoom) -> None:
    """Path and query parameters and body fields that name rows (``links.taken``) point at real
    rows of the room three times in four, so the fuzzers reach the services and not only the 404s.
    Negative inputs are left as they are: they must be refused."""
    for (where, name), kind in taken(operation(case)).items():
        if case.meta is not None and case.meta.is_negative_at(LOCATIONS[where]):
            continue
        values = case.body if where == "body" else (
            case.path_parameters if where == "path" else case.query)
        if isinstance(values, dict) and name in values:
            values[name] = _real(values[name], room.ids.get(kind, []))


def whole_numbers(value: Any) -> Any:
    """JSON Schema's integer takes 100.0, which roomops refuses as an amount (R52, tested on its
    own): a night sends 100 instead, so its steps get past the body to the rules."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: whole_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole_numbers(v) for v in value]
    return value


def remember_rows(case: Any, response: Any, room: FuzzRoom) -> None:
    """The rows a 2xx answer names (``links.given``) join the room's pools."""
    op = operation(case)
    if not 200 <= response.status_code < 300 or not op.gives:
        return
    answer = response.json()
    for kind, name in given(op).items():
        if answer.get(name) is not None and answer[name] not in room.ids.setdefault(kind, []):
            room.ids[kind].append(answer[name])


# The fuzzing phase's random cases per operation. What the document or the code get wrong shows
# whatever the database, and is hunted at full strength on SQLite; PostgreSQL's own refusals (int4
# bounds, strict types) are met by every backend's examples and coverage phases, whose boundary
# values and type mutations run in full on both, and by the nights.
FUZZ_EXAMPLES = {"sqlite": 25, "postgresql": 8}


def _schema(app: Flask, fuzz_examples: int | None = None) -> Any:
    # Only the document's own links: a link schemathesis would infer is not what clients get.
    options: dict[str, Any] = {"phases": {"stateful": {"inference": {"algorithms": []}}}}
    if fuzz_examples is not None:
        options["generation"] = {"max-examples": fuzz_examples}
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app,
                                          config=SchemathesisConfig.from_dict(options))


@pytest.fixture()
def api_schema(app: Flask, fuzz_room: FuzzRoom, engine: Engine) -> Any:
    return _schema(app, FUZZ_EXAMPLES[engine.dialect.name])


schema = schemathesis.pytest.from_fixture("api_schema")

# Every answer against the document (server error, status, content type, body), negative inputs
# refused (a boolean or 2**63 where an integer is expected), and 405 with Allow for a method the
# document does not list (RFC 9110).
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance,
          content_type_conformance, negative_data_rejection, unsupported_method, ignored_auth]


# schemathesis' WSGI transport says it takes gzip but does not unpack it (the app compresses,
# roomops.web.compression): the documented bodies are asked for as they are
PLAIN = {"Accept-Encoding": "identity"}


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
@pytest.mark.timeout(900)  # every operation is one test: over two minutes on SQLite on a quiet machine
def test_api_keeps_to_its_document(case: Any, fuzz_room: FuzzRoom) -> None:
    """Each operation alone: schemathesis' examples, coverage (boundaries, every type mutation and
    the methods the document does not list) and fuzzing phases (R1, R52)."""
    point_at_real_rows(case, fuzz_room)
    case.call_and_validate(headers={"Authorization": f"Bearer {fuzz_room.token}", **PLAIN}, checks=CHECKS)


# ...and a row a link just named is still there for the next call
STATEFUL_CHECKS = [c for c in CHECKS if c is not unsupported_method] + [ensure_resource_availability]


def night(app: Flask, room: FuzzRoom, connection: Connection, clock: FrozenClock) -> type[Any]:
    """The state machine of whole nights: each step follows a link of the document from an
    earlier answer (or starts from an operation that makes rows), and time passes in between.
    Every night starts from the same room at the same time (a savepoint rolled back after it), so
    Hypothesis sees the same answers when it replays a night."""
    start, ids = clock.now(), {kind: list(pool) for kind, pool in room.ids.items()}

    class Night(_schema(app).as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            self.night = connection.begin_nested()
            clock.set(start)
            room.ids = {kind: list(pool) for kind, pool in ids.items()}

        def teardown(self) -> None:
            self.night.rollback()
            super().teardown()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            if case.meta is not None and any(case.meta.is_negative_at(where) for where in (
                    ParameterLocation.HEADER, ParameterLocation.COOKIE)):
                return {"headers": dict(PLAIN)}  # broken credentials stay broken: 401
            return {"headers": {"Authorization": f"Bearer {room.token}", **PLAIN}}

        def before_call(self, case: Any) -> None:
            point_at_real_rows(case, room)
            if case.meta is not None and not case.meta.is_negative_at(ParameterLocation.BODY):
                case.body = whole_numbers(case.body)

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            remember_rows(case, response, room)

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            # schemathesis may call a left-out optional body (POST .../back) a negative one
            unsent = isinstance(case.body, NotSet) and case.meta is not None and \
                case.meta.is_negative_at(ParameterLocation.BODY)
            case.validate_response(response, checks=STATEFUL_CHECKS, headers=kwargs["headers"],
                                   excluded_checks=[negative_data_rejection] if unsent else None,
                                   transport_kwargs=kwargs, recorder=self.recorder)

        @rule(minutes=st.integers(min_value=0, max_value=45))
        def time_passes(self, minutes: int) -> None:
            clock.advance(minutes=minutes)

    return Night


def test_nights_keep_to_the_document(app: Flask, fuzz_room: FuzzRoom, connection: Connection,
                                     clock: FrozenClock) -> None:
    """Sequences of calls that follow the document's links keep to the document: a game, a table,
    players seated, offers claimed, breaks and playovers (R23-R29), buy-ins, transits and cash-outs
    (R28-R31), hands with their rake and drop (R33, R50, R51), counts (R54) and reversals (R52)."""
    night(app, fuzz_room, connection, clock).run(settings=settings(
        max_examples=NIGHTS, stateful_step_count=STEPS, deadline=None, phases=[Phase.generate],
        suppress_health_check=list(HealthCheck)))
