"""OpenAPI links: from the 2xx answer of a route that names a row to every route that takes that
row, e.g. ``POST /tables`` -> ``POST /seats`` with ``table_id`` = ``$response.body#/id``. A client
(and the stateful schemathesis test) follows them through a night: a game, its table, a seat, a
buy-in, a break and a playover, a transit to the seat's table, a hand and its rake, the counts.

Two pieces of data, both declared with the routes: what a route's answer names (``route(...,
gives="seat")``: its ``id``, or the field named for that kind; only such routes are a link's
source), and what a parameter or body field names (``KINDS``, by its name, or the route's
``takes`` where the name means something else there). Linking a new route is declaring these;
nothing here names a path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from roomops.api.views import PARAM, Operation

# What a field of an answer, a path or query parameter or a body field names, by its name.
KINDS: dict[str, str] = {
    "player_id": "player", "player_a": "player", "player_b": "player",
    "game_id": "game", "table_id": "table", "feeds_table_id": "table",
    "entry_id": "entry", "offer_id": "offer", "hold_id": "seat", "slip_id": "slip",
    "playover_id": "playover", "hand_no": "hand_no", "gaming_day": "gaming_day",
    "leave_amount": "leave_amount",  # what a player left with is what they cash out (R27, R28)
}
# Amounts, not rows: one fills only a target whose route ``takes`` it, from an answer whose route
# gives it (a seat's leave_amount is null until the player leaves; a leave takes a new one).
AMOUNTS = {"leave_amount"}

# The field that names each kind first of all, e.g. a seat's is hold_id.
OWN_FIELD: dict[str, str] = {kind: name for name, kind in reversed(KINDS.items())}
Place = tuple[str, str]  # (location: path, query or body; name)


def given(op: Operation) -> dict[str, str]:
    """The kinds a route's 2xx answer names, each with the top-level field naming it. A kind the
    route gives is the answer's ``id`` unless the answer has the kind's own field (a break gives
    the seat: ``hold_id``); a kind's own field wins over another naming it (a table's
    ``feeds_table_id``). Empty for a route that gives nothing."""
    if not op.gives:
        return {}
    fields = list(op.response.model_fields)
    found = {KINDS[name]: name for name in reversed(fields) if name in KINDS}
    found |= {kind: name for kind, name in OWN_FIELD.items() if name in fields}
    found = {kind: name for kind, name in found.items() if kind not in AMOUNTS}
    return found | {kind: OWN_FIELD[kind] if OWN_FIELD.get(kind) in fields else "id"
                    for kind in op.gives}


def taken(op: Operation) -> dict[Place, str]:
    """The kind of every path and query parameter and top-level body field of a route that names
    a row (or an amount the route ``takes``)."""
    takes = dict(op.takes)
    places = [("path", name) for name in PARAM.findall(op.rule)]
    places += [("query", name) for name in (op.query.model_fields if op.query else ())]
    places += [("body", name) for name in (op.body.model_fields if op.body else ())]
    kinds = {place: _kind(place[1], takes) for place in places}
    return {place: kind for place, kind in kinds.items() if kind is not None}


def _kind(name: str, takes: dict[str, str]) -> str | None:
    if name in takes:
        return takes[name]
    kind = KINDS.get(name)
    return None if kind in AMOUNTS else kind


def link(source: Operation, target: Operation) -> dict[str, Any] | None:
    """The link from ``source``'s 2xx answer to ``target``: when the target takes a kind the
    source gives and the answer fills the target's whole path (a path filled at random is a 404).
    The answer's other fields fill what else the target takes (a seat's table, a slip's table)."""
    fields = given(source)
    takes = taken(target)
    found = {place: f"$response.body#/{fields[kind]}" for place, kind in takes.items()
             if kind in fields}
    if (not any(takes[place] in source.gives for place in found)
            or any(("path", name) not in found for name in PARAM.findall(target.rule))):
        return None
    doc: dict[str, Any] = {"operationId": target.operation_id}
    params = {f"{where}.{name}": expr for (where, name), expr in found.items() if where != "body"}
    body = {name: expr for (where, name), expr in found.items() if where == "body"}
    if params:
        doc["parameters"] = params
    if body:
        doc["requestBody"] = body
    return doc


def links(source: Operation, operations: list[Operation]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, link) of every link from ``source``'s 2xx answer, named by the target operation."""
    for target in operations:
        found = link(source, target)
        if found is not None:
            yield target.operation_id, found

