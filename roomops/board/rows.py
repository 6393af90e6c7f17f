"""What the public board reads: each running game's rows, as plain tuples, in four statements.

The board has its own reader, lighter than ``roomops.board.snapshot`` (the desk's and the API's):
only the columns the board shows, no per-row objects, and none of a seated player's columns, since
the board shows a seated seat as taken but never who sits there (R61). The seated seats of a table
come back aggregated in its row, each seat with its live absence if it has one (R23-R25: the kind,
and a break's deadline), so a 250-table room is 250 table rows, a few hundred calls and its list
entries, whatever the number of seats or absences.

A game's rows (``GameRows``) are everything its section of the board is drawn from, apart from the
room's naming policy and time zone and the state of each call at ``now``; ``roomops.board.render``
keys its cache on them. They are tuples of plain values, so equal rows compare equal and hash alike.

    GameRows = (game, tables, calls, entries)
    game     = GAME_COLUMNS values, id first; the schedules last: ((players, fee), ...),
               ((pot, rake), ...), ((players, cap), ...)
    tables   = ((table_id, name, seated, absent, feeds, behind), ...)   seated: "1,2,5" or None, by
               seat; feeds: the main table a must-move table feeds (R17), else None
    behind   = ((seat_no, amount), ...)   by seat: chips in transit playing behind (R31)
    absent   = ((seat_no, kind, deadline_ms, played_by), ...)   by seat: a seated player's live
               absence (R23, R25), kind 'break' or 'away'; deadline_ms a break's deadline (R24),
               None for away; played_by the list entry of who plays over the seat (R29), or None
    calls    = ((table_id, seat_no, entry_id, deadline_ms, first_name, last_name), ...)
    entries  = ((entry_id, table_id, checkin_by, first_name, last_name), ...)   in list order (R13)

``checkin_by`` is the check-in deadline of a phone entry not yet checked in (R12), else None.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, String, case, cast, func, literal_column, select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.board.countdown import to_ms
from roomops.games.models import Game, Table
from roomops.ledger.transit import behind_by_hold
from roomops.lists.models import ListEntry
from roomops.playovers.models import Playover
from roomops.rooms.models import Player
from roomops.seating.models import OFFER, SEATED, SeatHold

GAME_COLUMNS = (Game.id, Game.variant, Game.small_blind, Game.big_blind, Game.ante, Game.min_buyin,
                Game.max_buyin, Game.seats_per_table, Game.fee_kind, Game.hourly_fee, Game.rake_percent,
                Game.rake_cap, Game.straddle_allowed, Game.max_straddles, Game.button_straddle,
                Game.straddle_sanction, Game.rake_no_flop_no_drop, Game.hourly_fee_by_players,
                Game.rake_schedule, Game.rake_caps_by_players)
# the schedules last (R50, R51): (key, amount) pairs of each, as ``_schedule`` turns them
SCHEDULES = (("players", "fee"), ("pot", "rake"), ("players", "cap"))

AbsentRow = tuple[int, str, int | None, int | None]
BehindRow = tuple[int, int]
TableRow = tuple[int, str, str | None, tuple[AbsentRow, ...], int | None, tuple[BehindRow, ...]]
CallRow = tuple[int, int, int, int, str, str]
EntryRow = tuple[int, int | None, datetime | None, str, str]
GameRows = tuple[tuple[Any, ...], tuple[TableRow, ...], tuple[CallRow, ...], tuple[EntryRow, ...]]

_BREAK = literal_column("'break'")  # a literal, as the seat kinds (seating.models.OFFER)
CHUNK = 256  # rows fetched at a time (see _rows)


def read_room(session: Session, room_id: int) -> list[GameRows]:
    """The room's open games, lowest stakes first (R4), with their open tables, live calls (R20) and
    active list entries in list order (R13). Four statements, whatever the size of the room.

    Core execution on the session's connection: the rows are only read, so the ORM's per-row work
    (identity map, entity loading) would be pure cost."""
    conn = session.connection()
    games = [(*g[:-3], *(_schedule(steps, *keys) for steps, keys in zip(g[-3:], SCHEDULES, strict=True)))
             for g in conn.execute(select(*GAME_COLUMNS).where(
        Game.room_id == room_id, Game.status == "open").order_by(Game.big_blind, Game.id))]
    tables = _tables(conn, room_id, {g[0] for g in games})
    game_of = {t[0]: game_id for game_id, rows in tables.items() for t in rows}
    calls = _calls(conn, room_id, game_of)
    entries = _entries(conn, room_id, set(tables))
    return [(g, tuple(tables[g[0]]), tuple(calls.get(g[0], ())), tuple(entries.get(g[0], ())))
            for g in games]


def _schedule(steps: list[dict[str, int]] | None, key: str, value: str) -> tuple[tuple[int, int], ...]:
    """R50/R51/R53: a fee or rake schedule as plain (key, amount) tuples, so game rows hash."""
    return tuple(sorted((s[key], s[value]) for s in steps or ()))


def _tables(conn: Connection, room_id: int, game_ids: set[int]) -> dict[int, list[TableRow]]:
    """Each game's open tables (R5), with the seats taken at each and their live absences (R23, R25),
    aggregated in the table's row: one "seat:kind:played_by:deadline" per taken seat, kind empty
    when the player is in their seat, played_by the entry playing over it (R29, its name is among
    the game's entries: the entry stays active), the deadline only for a break (R24). The deadline
    travels as the database's text of the stored naive UTC value, which both databases give in
    ISO form."""
    deadline = case((Absence.kind == _BREAK, cast(Absence.deadline, String)), else_=literal_column("''"))
    sep = literal_column("':'")
    behind = behind_by_hold(room_id)  # R31: chips playing behind, in the same statement
    seat = (cast(SeatHold.seat_no, String) + sep + func.coalesce(Absence.kind, "") + sep
            + func.coalesce(cast(Playover.entry_id, String), "") + sep
            + func.coalesce(cast(behind.c.behind, String), "") + sep + deadline)
    seated = func.aggregate_strings(seat, ",")
    tables: dict[int, list[TableRow]] = {game_id: [] for game_id in game_ids}
    for table_id, game_id, name, feeds, seats in _rows(conn, select(
            Table.id, Table.game_id, Table.name, Table.feeds_table_id, seated)
            .outerjoin(SeatHold, (SeatHold.table_id == Table.id) & SeatHold.ended_at.is_(None)
                       & (SeatHold.kind == SEATED))
            .outerjoin(Absence, (Absence.hold_id == SeatHold.id) & Absence.ended_at.is_(None))
            .outerjoin(Playover, (Playover.hold_id == SeatHold.id) & Playover.ended_at.is_(None))
            .outerjoin(behind, behind.c.hold_id == SeatHold.id)
            .where(Table.room_id == room_id, Table.status == "open")
            .group_by(Table.id, Table.game_id, Table.name, Table.feeds_table_id).order_by(Table.id)):
        if game_id in tables:
            taken, absent, behind_rows = _seats(seats)
            tables[game_id].append((table_id, name, taken, absent, feeds, behind_rows))
    return tables


def _seats(seats: str | None) -> tuple[str | None, tuple[AbsentRow, ...], tuple[BehindRow, ...]]:
    """ "4:break:17::2026-11-21 20:40:00,1::::,5:away::20000:" -> ("1,4,5", ((4, "break", ms, 17),
    (5, "away", None, None)), ((5, 20000),)), by seat, so equal tables give equal rows whatever
    order the aggregate came in."""
    if not seats:
        return None, (), ()
    taken: list[int] = []
    absent: list[AbsentRow] = []
    behind: list[BehindRow] = []
    for piece in seats.split(","):
        no, kind, played_by, amount, deadline = piece.split(":", 4)
        taken.append(int(no))
        if kind:
            absent.append((int(no), kind, to_ms(datetime.fromisoformat(deadline).replace(tzinfo=UTC))
                           if deadline else None, int(played_by) if played_by else None))
        if amount:
            behind.append((int(no), int(amount)))
    return ",".join(map(str, sorted(taken))), tuple(sorted(absent)), tuple(sorted(behind))


def _calls(conn: Connection, room_id: int, game_of: dict[int, int]) -> dict[int, list[CallRow]]:
    """Each game's live offers (R20), by seat. An offer is always to an entry of the table's own game
    (R14, ``offers.make_offer``), so a game's calls are the offers at its tables."""
    calls: dict[int, list[CallRow]] = {}
    for table_id, seat_no, entry_id, deadline, first, last in _rows(conn, select(
            SeatHold.table_id, SeatHold.seat_no, SeatHold.entry_id, SeatHold.deadline, Player.first_name,
            Player.last_name).join(Player, Player.id == SeatHold.player_id)
            .where(SeatHold.room_id == room_id, SeatHold.ended_at.is_(None), SeatHold.kind == OFFER)
            .order_by(SeatHold.table_id, SeatHold.seat_no)):
        if table_id in game_of:
            calls.setdefault(game_of[table_id], []).append(
                (table_id, seat_no, entry_id, to_ms(deadline), first, last))
    return calls


def _entries(conn: Connection, room_id: int, game_ids: set[int]) -> dict[int, list[EntryRow]]:
    """Each game's active entries, waiting and reserve lists together, in list order (R13)."""
    checkin_by = case((ListEntry.checked_in_at.is_(None), ListEntry.checkin_deadline))
    entries: dict[int, list[EntryRow]] = {}
    for entry_id, game_id, table_id, due, first, last in _rows(conn, select(
            ListEntry.id, ListEntry.game_id, ListEntry.table_id, checkin_by, Player.first_name,
            Player.last_name).join(Player, Player.id == ListEntry.player_id)
            .where(ListEntry.room_id == room_id, ListEntry.status == "active")
            .order_by(ListEntry.queue_at, ListEntry.id)):
        if game_id in game_ids:
            entries.setdefault(game_id, []).append((entry_id, table_id, due, first, last))
    return entries


def _rows(conn: Connection, stmt: Select[Any]) -> Iterator[Row[Any]]:
    """A statement's rows, fetched ``CHUNK`` at a time.

    Fetched all at once, a list's thousands of row objects would be alive together whenever the
    garbage collector runs (every 700 new objects), so it would promote them all and soon walk the
    whole process in a full collection: tens of milliseconds on some request. A chunk at a time,
    each chunk is gone before it is counted."""
    for chunk in conn.execute(stmt).partitions(CHUNK):
        yield from chunk
