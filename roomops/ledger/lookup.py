"""What the cage finds by typing (R28, R31, R52): seats of today, live or left, with what was
recorded as the player left and whether the seat was cashed out; playovers likewise, the
overplayer's (R29); and the ledger rows of the seats found, each with whether it was reversed.
Read-only; one statement each (the waiting cash-outs: one for the seats, one for playovers)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, true
from sqlalchemy.orm import Session, aliased

from roomops.games.models import Table
from roomops.holds.models import SEATED, SeatHold
from roomops.holds.playovers import Playover
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.search_terms import SeatSearch
from roomops.rooms.models import Player, Staff

LIMIT = 30


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat found: ``cashed_out`` is the standing cash-out's amount (None: not cashed out).
    With ``playover_id``: a playover of the seat, the player its overplayer, ended, outcome and
    leave amount the playover's (R29)."""

    hold_id: int
    player_id: int
    player: str
    table: str
    seat_no: int
    ended_at: datetime | None
    outcome: str | None
    leave_amount: int | None
    cashed_out: int | None
    playover_id: int | None = None

    @property
    def live(self) -> bool:
        return self.ended_at is None

    @property
    def cashable(self) -> bool:
        """R28: left (not moved with the stack, R18) and not cashed out yet."""
        return not self.live and self.outcome != "moved" and self.cashed_out is None


@dataclass(frozen=True, slots=True)
class RowLine:
    """A ledger row of a seat found; ``reversed``: a reversal names it."""

    id: int
    at: datetime
    kind: str
    amount: int
    method: str
    staff: str
    staff_id: int
    hold_id: int | None
    reverses_id: int | None
    reversed: bool


def find_seats(session: Session, room_id: int, search: SeatSearch, since: datetime) -> list[SeatLine]:
    """Seats matching ``search``: live ones, and ones that ended since ``since``, live first, then
    the latest to end."""
    if search.empty:
        return []
    return _lines(session, _seats(room_id, since).where(_matching(search)))


def find_playovers(session: Session, room_id: int, search: SeatSearch,
                   since: datetime) -> list[SeatLine]:
    """R29: playovers whose overplayer (or seat, or table) matches ``search``, running or ended
    since ``since``, running first."""
    if search.empty:
        return []
    return _lines(session, _playovers(room_id, since).where(_matching(search)))


def awaiting_cash_out(session: Session, room_id: int, since: datetime) -> list[SeatLine]:
    """R28: seats left since ``since`` whose players have not cashed out, the latest first; then
    the playovers ended since whose overplayers have not (R29)."""
    query = _seats(room_id, since).where(SeatHold.ended_at.is_not(None),
                                         SeatHold.outcome != "moved", _CASHED.is_(None))
    playovers = _playovers(room_id, since).where(Playover.ended_at.is_not(None),
                                                 _PLAYOVER_CASHED.is_(None))
    return _lines(session, query) + _lines(session, playovers)


def seat_rows(session: Session, room_id: int, since: datetime,
              hold_ids: Sequence[int]) -> list[RowLine]:
    """R52: the seats' ledger rows posted since ``since``, newest first."""
    if not hold_ids:
        return []
    query = (select(LedgerEntry, Staff.display_name, unreversed().label("standing"))
             .join(Staff, Staff.id == LedgerEntry.staff_id)
             .where(LedgerEntry.room_id == room_id, LedgerEntry.at >= since,
                    LedgerEntry.hold_id.in_(hold_ids))
             .order_by(LedgerEntry.id.desc()).limit(2 * LIMIT))
    return [RowLine(e.id, e.at, e.kind, e.amount, e.method, name, e.staff_id, e.hold_id,
                    e.reverses_id, not standing) for e, name, standing in session.execute(query)]


_CASH_OUT = aliased(LedgerEntry)
# the seat's standing cash-out, as a positive amount
_CASHED = (select(-_CASH_OUT.amount).where(
    _CASH_OUT.hold_id == SeatHold.id, _CASH_OUT.kind == "cash_out", _CASH_OUT.playover_id.is_(None),
    unreversed(_CASH_OUT)).limit(1).scalar_subquery())


_PLAYOVER_CASH_OUT = aliased(LedgerEntry)
# the playover's standing cash-out (R29), as a positive amount
_PLAYOVER_CASHED = (select(-_PLAYOVER_CASH_OUT.amount).where(
    _PLAYOVER_CASH_OUT.playover_id == Playover.id, _PLAYOVER_CASH_OUT.kind == "cash_out",
    unreversed(_PLAYOVER_CASH_OUT)).limit(1).scalar_subquery())


def _playovers(room_id: int, since: datetime) -> Select[tuple[object, ...]]:
    """The playovers as ``_seats`` has seats: the overplayer, the owner's seat, the playover's end
    and leave amount, its cash-out and its id."""
    return (select(SeatHold.id, Player.id, Player.first_name, Player.last_name, Table.name,
                   SeatHold.seat_no, Playover.ended_at, Playover.outcome, Playover.leave_amount,
                   _PLAYOVER_CASHED, Playover.id)
            .select_from(Playover).join(SeatHold, SeatHold.id == Playover.hold_id)
            .join(Player, Player.id == Playover.player_id).join(Table, Table.id == SeatHold.table_id)
            .where(Playover.room_id == room_id,
                   or_(Playover.ended_at.is_(None), Playover.ended_at >= since))
            .order_by(Playover.ended_at.desc().nulls_first(), Table.name, SeatHold.seat_no)
            .limit(LIMIT))


def _seats(room_id: int, since: datetime) -> Select[tuple[object, ...]]:
    return (select(SeatHold.id, Player.id, Player.first_name, Player.last_name, Table.name,
                   SeatHold.seat_no, SeatHold.ended_at, SeatHold.outcome, SeatHold.leave_amount,
                   _CASHED)
            .join(Player, Player.id == SeatHold.player_id).join(Table, Table.id == SeatHold.table_id)
            .where(SeatHold.room_id == room_id, SeatHold.kind == SEATED,
                   or_(SeatHold.ended_at.is_(None), SeatHold.ended_at >= since))
            .order_by(SeatHold.ended_at.desc().nulls_first(), Table.name, SeatHold.seat_no)
            .limit(LIMIT))


def _matching(search: SeatSearch) -> ColumnElement[bool]:
    if search.player_id is not None:
        return Player.id == search.player_id
    if search.table is not None:
        seat = SeatHold.seat_no == search.seat if search.seat is not None else true()
        return and_(func.lower(Table.name) == search.table.lower(), seat)
    text = (search.text or "").lower()
    name = func.lower(Player.first_name + " " + Player.last_name)
    return or_(name.contains(text, autoescape=True), func.lower(Table.name) == text)


def _lines(session: Session, query: Select[tuple[object, ...]]) -> list[SeatLine]:
    """``_seats`` or ``_playovers`` rows as lines (a playover's carries its id last)."""
    return [SeatLine(hold_id, player_id, f"{first} {last}".strip(), table, seat_no, ended_at,
                     outcome, leave, cashed, *playover)
            for hold_id, player_id, first, last, table, seat_no, ended_at, outcome, leave, cashed,
            *playover in session.execute(query)]
