"""What a staff screen is told after a commit (issue 21): which parts of a room changed, narrowly,
so each screen re-reads its own fragment only when something it shows moved.

The source is the audit rows committed (R60: every change of the floor and the cage is audited;
``roomops.push.staff.Feed`` gathers them). Each row names its entity; ``needs`` says which
entities must be looked up to find their table or game, ``scope`` turns the rows and those
look-ups into one ``Notice`` per room. A notice says which tables and games changed, whether the
floor (the desk) and the cage did; ``everything`` when a row could touch any screen (a room's policy,
an entity this module does not know: a new kind of row is over-told, never missed). A change with
no audit row (fixed by hand in the database) reaches the screens by their slow safety poll.

Only ids travel (R61): no names, no amounts. Plain Python."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

EVENT = "staff"
FLOOR, CAGE = "floor", "cage"  # the desk's key and the cage's; a dealer's are its table and game


def table_key(table_id: int) -> str:
    return f"t{table_id}"


def game_key(game_id: int) -> str:
    return f"g{game_id}"


def dealer_keys(table_id: int, game_id: int) -> frozenset[str]:
    """A dealer's screen shows its table (seats, hands, slips, called and played-over seats, R29,
    R31, R33-R36) and its game's settings (blinds, fee)."""
    return frozenset({table_key(table_id), game_key(game_id)})


@dataclass(frozen=True)
class Row:
    """One audit row as the notice needs it: the tables and game its detail names, if any."""

    room_id: int
    entity: str
    entity_id: int
    action: str
    tables: tuple[int, ...] = ()
    games: tuple[int, ...] = ()


_TABLE_FIELDS = ("table_id", "from_table_id", "feeds_table_id")


def row_of(written: Mapping[str, Any]) -> Row:
    """An audit row as ``roomops.audit.reads.record`` queued it."""
    detail: Mapping[str, Any] = written.get("detail") or {}
    tables = tuple(v for k in _TABLE_FIELDS if isinstance(v := detail.get(k), int))
    games = tuple(v for v in (detail.get("game_id"),) if isinstance(v, int))
    return Row(written["room_id"], written["entity_type"], written["entity_id"], written["action"],
               tables, games)


# Entities whose table (or, for a list entry, game) is looked up: their rows do not always say.
LOOKED_UP = ("seat_hold", "seat_change", "transit_slip", "list_entry")
_UNSEEN = frozenset({"staff"})  # log-ins and accounts: no live part shows them
_FLOOR_ONLY = frozenset({"player", "player_link", "blocked_phone", "barred_pair"})
_CAGE_ONLY = frozenset({"gaming_day"})


def _seated(row: Row) -> bool:
    """A list entry's row that is about a seat (an offer made, ended or passed over: the called
    seats a dealer shows), not about the list alone."""
    return row.action.startswith("offer.") or row.action == "entry.passed_over"


def needs(rows: Iterable[Row]) -> dict[str, set[int]]:
    """The entity ids to look up, by entity: tables of holds, seat changes and slips; games of
    the list entries whose seat-row names no table."""
    out: dict[str, set[int]] = {}
    for row in rows:
        if row.entity in LOOKED_UP and (row.entity != "list_entry" or (_seated(row) and not row.tables)):
            out.setdefault(row.entity, set()).add(row.entity_id)
    return out


@dataclass(frozen=True)
class Notice:
    room_id: int
    tables: frozenset[int] = frozenset()
    games: frozenset[int] = frozenset()
    floor: bool = False
    cage: bool = False
    everything: bool = False

    @property
    def empty(self) -> bool:
        return not (self.tables or self.games or self.floor or self.cage or self.everything)

    def __or__(self, other: Notice) -> Notice:
        """Both notices of one room as one."""
        return Notice(self.room_id, self.tables | other.tables, self.games | other.games,
                      self.floor or other.floor, self.cage or other.cage,
                      self.everything or other.everything)

    def reaches(self) -> frozenset[str]:
        """The screens' keys it reaches (``everything``: every screen of the room, whatever key)."""
        found = {table_key(t) for t in self.tables} | {game_key(g) for g in self.games}
        return frozenset(found | {k for k, on in ((FLOOR, self.floor), (CAGE, self.cage)) if on})

    def payload(self) -> str:
        if self.everything:
            return json.dumps({"room": self.room_id, "all": True})
        return json.dumps({"room": self.room_id, "tables": sorted(self.tables),
                           "games": sorted(self.games), "floor": self.floor, "cage": self.cage},
                          separators=(",", ":"))

    @cached_property
    def sse(self) -> bytes:
        """Encoded once, however many screens it goes to."""
        return f"event: {EVENT}\ndata: {self.payload()}\n\n".encode()


def parse(payload: str) -> Notice:
    data: dict[str, Any] = json.loads(payload)
    return Notice(int(data["room"]), frozenset(data.get("tables", ())), frozenset(data.get("games", ())),
                  bool(data.get("floor")), bool(data.get("cage")), bool(data.get("all")))


@dataclass
class _Scope:
    tables: set[int] = field(default_factory=set)
    games: set[int] = field(default_factory=set)
    floor: bool = False
    cage: bool = False
    everything: bool = False


def _add(scope: _Scope, row: Row, found: Mapping[str, Mapping[int, int]]) -> None:
    entity = row.entity
    if entity in _UNSEEN:
        return
    looked = found.get(entity, {}).get(row.entity_id)
    if entity in _CAGE_ONLY:
        scope.cage = True
    elif entity in _FLOOR_ONLY:
        scope.floor = True
    elif entity in ("seat_hold", "seat_change", "table"):
        scope.floor = True
        scope.tables.update(row.tables, [row.entity_id] if entity == "table" else
                            [looked] if looked is not None else [])
    elif entity == "list_entry":
        scope.floor = True
        if _seated(row):  # the offer's table, or every table of its game when the row names none
            scope.tables.update(row.tables)
            scope.games.update([] if row.tables or looked is None else [looked])
    elif entity == "dealer":  # R62-R65: the desk's dealer flags, the table the dealer left
        scope.floor = True
        scope.tables.update(row.tables)
    elif entity == "game":
        scope.floor = True
        scope.games.add(row.entity_id)
    elif entity in ("transit_slip", "ledger_entry"):  # R31: a slip shows at its table too
        scope.cage = True
        scope.tables.update(row.tables, [looked] if looked is not None else [])
    else:  # the room's policy (names as shown, R61) or an entity not known here
        scope.everything = True


def scope(rows: Iterable[Row], found: Mapping[str, Mapping[int, int]]) -> list[Notice]:
    """One notice per room the rows touch (none for a room whose rows no screen shows).
    ``found``: the looked-up table (game, for list entries) of each entity id in ``needs``."""
    rooms: dict[int, _Scope] = {}
    for row in rows:
        _add(rooms.setdefault(row.room_id, _Scope()), row, found)
    notices = [Notice(room, frozenset(s.tables), frozenset(s.games), s.floor, s.cage, s.everything)
               for room, s in rooms.items()]
    return [n for n in notices if not n.empty]
