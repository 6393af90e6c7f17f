"""The rows the room's snapshot (``roomops.seating.snapshot``) is drawn from: each open game's seats
held or called, with their player, break or time away, playover, blinds, text and chips behind,
and its active list entries, read as plain columns (a 250-table room has thousands of them and
the screens only read them) in two statements, for the whole room or for some of its games.

``KeptRows`` keeps each game's rows as last read with the marks they were read at: the board's
(migration 0020) and the desk's (0043), which the database moves on every change of those rows.
The desk, drawn again after every floor change (a hand at any table is one), reads again only the
games whose marks moved: one game of forty, not the whole room (issue 21)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, Row, Select, and_, bindparam, select
from sqlalchemy.orm import Session, aliased

from roomops.absences.models import Absence
from roomops.games.models import BoardMark, DeskMark, Table
from roomops.hands.models import SeatBlinds
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.kept import Kept
from roomops.ledger.behind import behind_by_hold
from roomops.lists.models import ListEntry
from roomops.messages.models import OutboxMessage
from roomops.rooms.models import Player

HOLD_COLUMNS = (SeatHold.id, SeatHold.kind, SeatHold.table_id, SeatHold.seat_no, SeatHold.entry_id,
                SeatHold.started_at, SeatHold.deadline, SeatHold.buy_in, SeatHold.reserved_at,
                SeatHold.over_reason, SeatHold.from_hold_id, SeatHold.seat_change_id, Table.game_id)
ENTRY_COLUMNS = (ListEntry.id, ListEntry.kind, ListEntry.game_id, ListEntry.table_id, ListEntry.source,
                 ListEntry.joined_at, ListEntry.queue_at, ListEntry.checkin_deadline,
                 ListEntry.checked_in_at, ListEntry.locked_until, ListEntry.phone_verified)
PLAYER_COLUMNS = (Player.id.label("player_id"), Player.first_name, Player.last_name)
# a seated player's live break or time away (R23/R25), joined to the holds: no extra statement
ABSENCE_COLUMNS = (Absence.id.label("absence_id"), Absence.kind.label("absence_kind"),
                   Absence.started_at.label("absence_started_at"),
                   Absence.deadline.label("absence_deadline"), Absence.note.label("absence_note"),
                   Absence.no_playover_until.label("absence_no_playover_until"))
# who plays over an absent owner's seat (R29), joined the same way
OVERPLAYER = aliased(Player, name="overplayer")
PLAYOVER_COLUMNS = (Playover.id.label("playover_id"), Playover.player_id.label("playover_player_id"),
                    OVERPLAYER.first_name.label("playover_first"),
                    OVERPLAYER.last_name.label("playover_last"),
                    Playover.buy_in.label("playover_buy_in"),
                    Playover.started_at.label("playover_started_at"))
# a seated player's missed-blind buttons and debts (R35, R36), joined the same way
BLIND_COLUMNS = (SeatBlinds.missed_sb, SeatBlinds.missed_bb, SeatBlinds.owes_bb)
# an offer's text and how it went (R20, docs/messages.md), joined the same way
TEXT_COLUMNS = (OutboxMessage.state.label("text_state"), OutboxMessage.last_error.label("text_error"))

Marks = tuple[int, int]  # a game's board mark and desk mark


@dataclass(frozen=True, slots=True)
class GameRows:
    """One game's seats held or called (``HOLD_COLUMNS`` and the rest) and its active list entries
    (``ENTRY_COLUMNS``, each list in order, R13); when kept, the marks they were read at and every
    moment in them, in order (what of them has passed by a time is ``passed``)."""

    holds: tuple[Row[Any], ...] = ()
    entries: tuple[Row[Any], ...] = ()
    marks: Marks | None = None
    moments: tuple[datetime, ...] = ()

    def passed(self, now: datetime) -> int:
        """How many of the rows' moments have passed at ``now``: the same number while no
        deadline, start or end in them is crossed."""
        return bisect_right(self.moments, now)


def read(session: Session, room_id: int, game_ids: Collection[int] | None = None) -> dict[int, GameRows]:
    """The rows of the room's games (of ``game_ids`` only, when given), by game: two statements."""
    some = game_ids is not None
    params = {"room_id": room_id, "game_ids": list(game_ids or ())}
    holds: dict[int, list[Row[Any]]] = {}
    for hold in session.execute(_HOLDS_OF_GAMES if some else _HOLDS, params):
        holds.setdefault(hold.game_id, []).append(hold)
    entries: dict[int, list[Row[Any]]] = {}
    for entry in session.execute(_ENTRIES_OF_GAMES if some else _ENTRIES, params):
        entries.setdefault(entry.game_id, []).append(entry)
    return {game: GameRows(tuple(holds.get(game, ())), tuple(entries.get(game, ())))
            for game in set(holds) | set(entries)}


def _hold_rows(room_id: ColumnElement[int]) -> Select[Any]:
    behind = behind_by_hold(room_id)  # R31: open transits playing behind, joined like the rest
    return select(*HOLD_COLUMNS, *PLAYER_COLUMNS, *ABSENCE_COLUMNS, *PLAYOVER_COLUMNS, *BLIND_COLUMNS,
                  *TEXT_COLUMNS, behind.c.behind).join(
        Table, Table.id == SeatHold.table_id).join(
        Player, Player.id == SeatHold.player_id).outerjoin(
        Absence, and_(Absence.hold_id == SeatHold.id, Absence.ended_at.is_(None))).outerjoin(
        Playover, and_(Playover.hold_id == SeatHold.id, Playover.ended_at.is_(None))).outerjoin(
        OVERPLAYER, OVERPLAYER.id == Playover.player_id).outerjoin(
        SeatBlinds, SeatBlinds.hold_id == SeatHold.id).outerjoin(
        OutboxMessage, and_(OutboxMessage.hold_id == SeatHold.id,
                            OutboxMessage.channel == "sms")).outerjoin(
        behind, behind.c.hold_id == SeatHold.id).where(SeatHold.ended_at.is_(None))


# Built once (every drawing of the desk reads them): the room's live holds and active entries, or
# those of some of its games; their holds found by their tables (``ix_seat_holds_table_ended``),
# not among the room's thousands.
_ROOM: BindParameter[int] = bindparam("room_id")
_GAMES: BindParameter[list[int]] = bindparam("game_ids", expanding=True)
_HOLDS = _hold_rows(_ROOM).where(SeatHold.room_id == _ROOM)
_HOLDS_OF_GAMES = _hold_rows(_ROOM).where(SeatHold.table_id.in_(
    select(Table.id).where(Table.room_id == _ROOM, Table.game_id.in_(_GAMES))))
_ENTRIES = select(*ENTRY_COLUMNS, *PLAYER_COLUMNS).join(
    Player, Player.id == ListEntry.player_id).where(
    ListEntry.room_id == _ROOM, ListEntry.status == "active"
).order_by(ListEntry.game_id, ListEntry.queue_at, ListEntry.id)  # each list in order (R13)
_ENTRIES_OF_GAMES = _ENTRIES.where(ListEntry.game_id.in_(_GAMES))
_MARKS = select(BoardMark.game_id, BoardMark.mark, DeskMark.mark).join(
    DeskMark, DeskMark.game_id == BoardMark.game_id).where(BoardMark.game_id.in_(_GAMES))


class KeptRows(Kept[tuple[int, int], Marks | None, GameRows]):
    """Each game's rows as last read, by (room, game), kept under the marks they were read at
    (the rows are read-only records)."""

    def rows(self, session: Session, room_id: int, game_ids: Collection[int], *, some: bool = False
             ) -> dict[int, GameRows]:
        """The rows of ``game_ids``: those whose marks have not moved as kept, the others read now.
        ``game_ids`` are the room's open games (the rows of the others are dropped), or, with
        ``some``, some of them (the others' stay kept).

        The marks are read first: under PostgreSQL's READ COMMITTED the rows read after them are
        at least as new, so rows kept under a mark are never older than it (a change landing in
        between is read again next time, its mark having moved)."""
        marks: dict[int, Marks] = {game: (board, desk) for game, board, desk in session.execute(
            _MARKS, {"game_ids": list(game_ids)})}
        kept = {game: hit for game in game_ids
                if (hit := self.get((room_id, game), marks.get(game))) is not None}
        fresh = [game for game in game_ids if game not in kept]
        found = read(session, room_id, fresh) if fresh else {}
        for game in fresh:
            kept[game] = _kept(found.get(game, GameRows()), marks.get(game))
            self.put((room_id, game), marks.get(game), kept[game])
        if not some:
            open_now = set(game_ids)
            self.forget(lambda key: key[0] == room_id and key[1] not in open_now)
        return {game: kept[game] for game in game_ids}


def _kept(rows: GameRows, marks: Marks | None) -> GameRows:
    moments = sorted(value for row in (*rows.holds, *rows.entries) for value in row
                     if isinstance(value, datetime))
    return GameRows(rows.holds, rows.entries, marks, tuple(moments))
