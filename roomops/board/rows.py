"""What the public board reads: each running game's rows, as plain tuples, in four statements.

The board has its own reader, lighter than ``roomops.board.snapshot`` (the desk's and the API's):
only the columns the board shows, no per-row objects, and none of a seated player's columns, since
the board shows a seated seat as taken but never who sits there (R61). The seated seats of a table
come back aggregated in its row, so a 250-table room is 250 table rows, a few hundred calls and its
list entries, whatever the number of seats.

A game's rows (``GameRows``) are everything its section of the board is drawn from, apart from the
room's naming policy and time zone and the state of each call at ``now``; ``roomops.board.render``
keys its cache on them. They are tuples of plain values, so equal rows compare equal and hash alike.

    GameRows = (game, tables, calls, entries)
    game     = GAME_COLUMNS values, id first
    tables   = ((table_id, name, seated), ...)   seated: "1,2,5" or None, in no promised order
    calls    = ((table_id, seat_no, entry_id, deadline_ms, first_name, last_name), ...)
    entries  = ((entry_id, table_id, checkin_by, first_name, last_name), ...)   in list order (R13)

``checkin_by`` is the check-in deadline of a phone entry not yet checked in (R12), else None.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String, case, cast, func, literal_column, select
from sqlalchemy.orm import Session

from roomops.board.countdown import to_ms
from roomops.games.models import Game, Table
from roomops.lists.models import ListEntry
from roomops.rooms.models import Player
from roomops.seating.models import SeatHold

GAME_COLUMNS = (Game.id, Game.variant, Game.small_blind, Game.big_blind, Game.ante, Game.min_buyin,
                Game.max_buyin, Game.seats_per_table, Game.fee_kind, Game.hourly_fee, Game.rake_percent,
                Game.rake_cap, Game.straddle_allowed, Game.max_straddles, Game.button_straddle)

TableRow = tuple[int, str, str | None]
CallRow = tuple[int, int, int, int, str, str]
EntryRow = tuple[int, int | None, datetime | None, str, str]
GameRows = tuple[tuple[Any, ...], tuple[TableRow, ...], tuple[CallRow, ...], tuple[EntryRow, ...]]

# A constant, not a bound parameter: PostgreSQL's generic plans can use a partial index whose
# predicate says kind = 'offer' only when the query says so literally.
_OFFER = literal_column("'offer'")
_SEATED = literal_column("'seated'")


def read_room(session: Session, room_id: int) -> list[GameRows]:
    """The room's open games, lowest stakes first (R4), with their open tables, live calls (R20) and
    active list entries in list order (R13). Four statements, whatever the size of the room.

    Core execution on the session's connection, every result fetched at once (``all()``): the rows
    are only read, so the ORM's per-row work and a fetch per row would be pure cost."""
    conn = session.connection()
    games = [tuple(g) for g in conn.execute(select(*GAME_COLUMNS).where(
        Game.room_id == room_id, Game.status == "open").order_by(Game.big_blind, Game.id))]
    tables: dict[int, list[TableRow]] = {g[0]: [] for g in games}
    calls: dict[int, list[CallRow]] = {g[0]: [] for g in games}
    entries: dict[int, list[EntryRow]] = {g[0]: [] for g in games}
    game_of: dict[int, int] = {}
    seated = func.aggregate_strings(cast(SeatHold.seat_no, String), ",")
    for table_id, game_id, name, seats in conn.execute(
            select(Table.id, Table.game_id, Table.name, seated)
            .outerjoin(SeatHold, (SeatHold.table_id == Table.id) & SeatHold.ended_at.is_(None)
                       & (SeatHold.kind == _SEATED))
            .where(Table.room_id == room_id, Table.status == "open")
            .group_by(Table.id, Table.game_id, Table.name).order_by(Table.id)).all():
        if game_id in tables:
            game_of[table_id] = game_id
            tables[game_id].append((table_id, name, seats))
    # An offer is always to an entry of the table's own game (R14, offers.make_offer), so a game's
    # calls are the offers at its tables.
    for table_id, seat_no, entry_id, deadline, first, last in conn.execute(
            select(SeatHold.table_id, SeatHold.seat_no, SeatHold.entry_id, SeatHold.deadline,
                   Player.first_name, Player.last_name)
            .join(Player, Player.id == SeatHold.player_id)
            .where(SeatHold.room_id == room_id, SeatHold.ended_at.is_(None), SeatHold.kind == _OFFER)
            .order_by(SeatHold.table_id, SeatHold.seat_no)).all():
        if table_id in game_of:
            calls[game_of[table_id]].append((table_id, seat_no, entry_id, to_ms(deadline), first, last))
    checkin_by = case((ListEntry.checked_in_at.is_(None), ListEntry.checkin_deadline))
    for entry_id, game_id, table_id, due, first, last in conn.execute(
            select(ListEntry.id, ListEntry.game_id, ListEntry.table_id, checkin_by, Player.first_name,
                   Player.last_name)
            .join(Player, Player.id == ListEntry.player_id)
            .where(ListEntry.room_id == room_id, ListEntry.status == "active")
            .order_by(ListEntry.queue_at, ListEntry.id)).all():
        if game_id in entries:
            entries[game_id].append((entry_id, table_id, due, first, last))
    return [(g, tuple(tables[g[0]]), tuple(calls[g[0]]), tuple(entries[g[0]])) for g in games]
