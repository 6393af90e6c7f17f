"""What the public board reads: each running game's rows, as plain tuples, in six statements; a
game's rows are read again only when its board mark moved (``read_room``, ``RowsCache``).

The board has its own reader, lighter than ``roomops.seating.snapshot`` (the desk's and the API's):
only the columns the board shows, no per-row objects, and none of a seated player's columns, since
the board shows a seated seat as taken but never who sits there (R61). A table's taken seats come
back as one number in its row (bit n set: seat n taken), and the few seats with a live absence or
chips playing behind come from statements of their own, so a 250-table room is 250 table rows, a
few hundred calls and its list entries, whatever the number of seats or absences. Every statement
is built once and each comes back ordered by game, so its rows are grouped and trimmed by C code
(``itertools.groupby``, ``operator.itemgetter``): no Python runs per list entry (docs/benchmarks.md).

A game's rows (``GameRows``) are everything its section of the board is drawn from, apart from the
room's naming policy and time zone and the state of each call at ``now``; ``roomops.board.render``
keys its cache on them. They are tuples of plain values, so equal rows compare equal and hash alike.

    GameRows = (game, tables, calls, entries)
    game     = GAME_COLUMNS values, id first; the schedules last: ((players, fee), ...),
               ((pot, rake), ...), ((players, cap), ...), ((players, drop), ...)
    tables   = ((table_id, name, seated, absent, feeds, behind), ...)   seated: the taken seats as
               bits (seat n: 1 << n; ``taken_seats``); feeds: the main table a must-move table feeds
               (R17), else None
    behind   = ((seat_no, amount), ...)   by seat: chips in transit playing behind (R31)
    absent   = ((seat_no, kind, deadline_ms, played_by), ...)   by seat: a seated player's live
               absence (R23, R25), kind 'break' or 'away'; deadline_ms a break's deadline (R24),
               None for away; played_by the list entry of who plays over the seat (R29), or None
    calls    = ((table_id, seat_no, entry_id, deadline_ms, first_name, last_name), ...)   live
               offers (R20); entry_id None for a seat change (R36), deadline_ms None for a seat
               held for a seat change until the hand ends
    entries  = ((entry_id, table_id, checkin_by, first_name, last_name), ...)   in list order (R13)

``checkin_by`` is the check-in deadline of a phone entry not yet checked in (R12), else None: the
database's text of the stored UTC time (``utc`` reads it), which costs nothing to fetch, where
thousands of datetimes would each go through the column type.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import (
    BindParameter,
    Connection,
    Select,
    String,
    bindparam,
    case,
    cast,
    func,
    literal_column,
    select,
)
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.board.countdown import to_ms
from roomops.games.models import BoardMark, Game, Table
from roomops.holds.models import OFFER, SEATED, SeatHold
from roomops.holds.playovers import Playover
from roomops.kept import Kept, Tally
from roomops.ledger.behind import behind_by_hold
from roomops.lists.models import ListEntry
from roomops.rooms.models import Player

GAME_COLUMNS = (Game.id, Game.variant, Game.small_blind, Game.big_blind, Game.ante, Game.min_buyin,
                Game.max_buyin, Game.seats_per_table, Game.fee_kind, Game.time_fee, Game.rake_bp,
                Game.rake_cap, Game.straddle_allowed, Game.max_straddles, Game.button_straddle,
                Game.straddle_sanction, Game.rake_no_flop_no_drop, Game.smallest_chip,
                Game.rake_min_one_chip, Game.drop_fee, Game.time_fee_by_players,
                Game.rake_schedule, Game.rake_caps_by_players, Game.drop_by_players)
# the schedules last (R50, R51): (key, amount) pairs of each, as ``_schedule`` turns them
SCHEDULES = (("players", "fee"), ("pot", "rake"), ("players", "cap"), ("players", "fee"))

AbsentRow = tuple[int, str, int | None, int | None]
BehindRow = tuple[int, int]
TableRow = tuple[int, str, int, tuple[AbsentRow, ...], int | None, tuple[BehindRow, ...]]
CallRow = tuple[int, int, int | None, int | None, str, str]
EntryRow = tuple[int, int | None, str | None, str, str]
GameParts = tuple[tuple[TableRow, ...], tuple[CallRow, ...], tuple[EntryRow, ...]]
GameRows = tuple[tuple[Any, ...], tuple[TableRow, ...], tuple[CallRow, ...], tuple[EntryRow, ...]]

CHUNK = 256  # rows fetched at a time (see _grouped)
_ROOM: BindParameter[int] = bindparam("room_id")
# the games whose rows are read: those whose board mark moved since they were last read
_STALE: BindParameter[list[int]] = bindparam("games", expanding=True)
_GAMES = select(*GAME_COLUMNS, BoardMark.mark).join(BoardMark, BoardMark.game_id == Game.id).where(
    Game.room_id == _ROOM, Game.status == "open").order_by(Game.big_blind, Game.id)
# Grouped by the table's id alone: its other columns depend on it (PostgreSQL allows them so).
_TABLES = select(Table.game_id, Table.id, Table.name, func.coalesce(func.sum(
    literal_column("1").op("<<")(SeatHold.seat_no)), 0), Table.feeds_table_id).outerjoin(
    SeatHold, (SeatHold.table_id == Table.id) & SeatHold.ended_at.is_(None) & (SeatHold.kind == SEATED)
).where(Table.room_id == _ROOM, Table.status == "open", Table.game_id.in_(_STALE)).group_by(
    Table.id).order_by(Table.game_id, Table.id)
# The deadline as the database's text of the stored UTC time (``utc``), as every time read here.
_ABSENT = select(SeatHold.table_id, SeatHold.seat_no, Absence.kind, cast(Absence.deadline, String),
                 Playover.entry_id).join(SeatHold, SeatHold.id == Absence.hold_id).join(
    Table, Table.id == SeatHold.table_id).outerjoin(
    Playover, (Playover.hold_id == Absence.hold_id) & Playover.ended_at.is_(None)).where(
    Absence.room_id == _ROOM, Absence.ended_at.is_(None), Table.game_id.in_(_STALE))
_BEHIND_BY_HOLD = behind_by_hold(_ROOM)
_BEHIND = select(SeatHold.table_id, SeatHold.seat_no, _BEHIND_BY_HOLD.c.behind).join(
    _BEHIND_BY_HOLD, _BEHIND_BY_HOLD.c.hold_id == SeatHold.id).join(
    Table, Table.id == SeatHold.table_id).where(
    SeatHold.ended_at.is_(None), SeatHold.kind == SEATED, Table.game_id.in_(_STALE))
# A seat held for a seat change until the hand ends (R36) has no running call: no deadline.
_CALLS = select(Table.game_id, SeatHold.table_id, SeatHold.seat_no, SeatHold.entry_id,
                case((SeatHold.reserved_at.is_(None), cast(SeatHold.deadline, String))),
                Player.first_name, Player.last_name).join(
    Table, Table.id == SeatHold.table_id).join(Player, Player.id == SeatHold.player_id).where(
    SeatHold.room_id == _ROOM, SeatHold.ended_at.is_(None), SeatHold.kind == OFFER,
    Table.game_id.in_(_STALE)).order_by(
    Table.game_id, SeatHold.table_id, SeatHold.seat_no)
_ENTRIES = select(ListEntry.game_id, ListEntry.id, ListEntry.table_id, case(
    (ListEntry.checked_in_at.is_(None), cast(ListEntry.checkin_deadline, String))),
    Player.first_name, Player.last_name).join(Player, Player.id == ListEntry.player_id).where(
    ListEntry.room_id == _ROOM, ListEntry.status == "active", ListEntry.game_id.in_(_STALE)).order_by(
    ListEntry.game_id, ListEntry.queue_at, ListEntry.id)
_BREAK = "break"
_GAME_ID = itemgetter(0)


class RowsCache(Kept[tuple[int, int], int, GameParts]):
    """Each game's rows beyond its own, by (room, game), kept under the board mark they were read
    at (one per app, bounded)."""

    def __init__(self, tally: Tally | None = None) -> None:
        super().__init__(bounded=True, tally=tally)


def read_room(session: Session, room_id: int, known: RowsCache) -> list[GameRows]:
    """The room's open games, lowest stakes first (R4), with their open tables, live calls (R20) and
    active list entries in list order (R13). Six statements, whatever the size of the room.

    A game's own row is read every time; its other rows only when its board mark moved since
    ``known`` had them (the triggers of migration 0020 move it with every change the board shows).
    The mark is read first: under PostgreSQL's READ COMMITTED the rows read after it are at least
    as new, so rows kept under a mark are never older than the mark says.

    Core execution on the session's connection: the rows are only read, so the ORM's per-row work
    (identity map, entity loading) would be pure cost."""
    conn = session.connection()
    games = [(_game(row[:-1]), row[-1]) for row in conn.execute(_GAMES, {"room_id": room_id})]
    known.tally.seen(room_id, len(games))  # the caches grow to hold them before they are put
    kept = {game[0]: hit for game, mark in games if (hit := known.get((room_id, game[0]), mark)) is not None}
    room = {"room_id": room_id, "games": [game[0] for game, _mark in games if game[0] not in kept]}
    tables = _tables(conn, room)
    calls = _grouped(conn, _CALLS, room, _call)
    entries = _grouped(conn, _ENTRIES, room, itemgetter(1, 2, 3, 4, 5))
    out: list[GameRows] = []
    for game, mark in games:
        hit = kept.get(game[0])
        if hit is None:
            hit = (tuple(tables.get(game[0], ())), tuple(calls.get(game[0], ())),
                   tuple(entries.get(game[0], ())))
            known.put((room_id, game[0]), mark, hit)
        out.append((game, *hit))
    return out


def utc(text: str) -> datetime:
    """A time read as the database's text of the stored naive UTC value (ISO form on both
    databases), as an aware UTC datetime."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def taken_seats(seated: int, seats: int) -> list[int]:
    """The seats taken, in order, of a table row's ``seated`` bits."""
    return [n for n in range(1, seats + 1) if seated >> n & 1]


def _game(row: Any) -> tuple[Any, ...]:
    """A game's row, its schedules (the last columns) as plain tuples."""
    n = len(SCHEDULES)
    return (*row[:-n], *(_schedule(steps, *keys) for steps, keys in zip(row[-n:], SCHEDULES, strict=True)))


def _schedule(steps: list[dict[str, int]] | None, key: str, value: str) -> tuple[tuple[int, int], ...]:
    """R50/R51/R53: a fee or rake schedule as plain (key, amount) tuples, so game rows hash."""
    return tuple(sorted((s[key], s[value]) for s in steps or ()))


def _tables(conn: Connection, room: dict[str, Any]) -> dict[int, list[TableRow]]:
    """Each game's open tables (R5) with their taken seats, the live absences on them (R23, R25:
    with a break's deadline, R24, and the entry playing over the seat, R29, whose name is among
    the game's entries: the entry stays active) and the chips playing behind (R31)."""
    absences: dict[int, list[AbsentRow]] = {}
    for table_id, seat_no, kind, deadline, played_by in conn.execute(_ABSENT, room):
        ms = to_ms(utc(deadline)) if kind == _BREAK else None
        absences.setdefault(table_id, []).append((seat_no, kind, ms, played_by))
    behind_rows: dict[int, list[BehindRow]] = {}
    for table_id, seat_no, amount in conn.execute(_BEHIND, room):
        behind_rows.setdefault(table_id, []).append((seat_no, int(amount)))
    absent, behind = _by_seat(absences), _by_seat(behind_rows)

    def table(row: Any) -> TableRow:
        _game, table_id, name, seated, feeds = row
        return table_id, name, seated, absent.get(table_id, ()), feeds, behind.get(table_id, ())
    return _grouped(conn, _TABLES, room, table)


def _by_seat(rows: dict[int, list[Any]]) -> dict[int, tuple[Any, ...]]:
    """Each table's rows in seat order, so equal tables give equal rows whatever order they came in."""
    return {table_id: tuple(sorted(seats)) for table_id, seats in rows.items()}


def _call(row: Any) -> CallRow:
    _game, table_id, seat_no, entry_id, deadline, first, last = row
    return table_id, seat_no, entry_id, None if deadline is None else to_ms(utc(deadline)), first, last


def _grouped(conn: Connection, stmt: Select[Any], room: dict[str, Any],
             pick: Callable[[Any], Any]) -> dict[int, list[Any]]:
    """``pick`` of each row of ``stmt`` (ordered by game id, its first column), by game.

    Fetched ``CHUNK`` rows at a time: fetched all at once, a list's thousands of row objects would
    be alive together whenever the garbage collector runs (every 700 new objects), so it would
    promote them all and soon walk the whole process in a full collection: tens of milliseconds
    on some request. A chunk at a time, each chunk is gone before it is counted."""
    out: dict[int, list[Any]] = {}
    for chunk in conn.execute(stmt, room).partitions(CHUNK):
        for game_id, rows in groupby(chunk, _GAME_ID):
            out.setdefault(game_id, []).extend(map(pick, rows))
    return out
