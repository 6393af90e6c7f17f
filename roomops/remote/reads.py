"""What a personal link shows (R12-R16, R20, R61): the link's own entries, each with its place in
R13 order, the players ahead as a count, the check-in and claim deadlines, and its history in
the player's words. Nothing of another player but counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session, aliased

from roomops.audit.models import AuditEvent
from roomops.games.models import Game, Table
from roomops.holds.models import OFFER, SeatHold
from roomops.lists.models import EntryStatus, ListEntry
from roomops.remote.models import PlayerLink
from roomops.remote.rules import history_line
from roomops.words import Translate, english

ENDED_SHOWN = timedelta(hours=12)  # an entry that ended stays on the page this long, with why


@dataclass
class Call:
    """R20: a seat offered to the player, live until ``deadline``."""

    table: str
    seat_no: int
    deadline: datetime


@dataclass
class MyEntry:
    id: int
    game: Game
    status: EntryStatus
    place: int  # R13: 1 is next; 0 once the entry has ended
    checkin_deadline: datetime | None  # R12: until checked in
    call: Call | None
    history: list[tuple[datetime, str]] = field(default_factory=list)

    @property
    def ahead(self) -> int:
        return max(self.place - 1, 0)


def entries_of(session: Session, link: PlayerLink, now: datetime,
               tr: Translate = english) -> list[MyEntry]:
    """The link's entries: active ones, then those that ended in the last ``ENDED_SHOWN``; their
    histories in the language of ``tr`` (``roomops.words``)."""
    rows = list(session.scalars(select(ListEntry).where(
        ListEntry.link_id == link.id,
        or_(ListEntry.status == "active", ListEntry.ended_at >= now - ENDED_SHOWN)).order_by(
        ListEntry.status != "active", ListEntry.id)))
    if not rows:
        return []
    places = _places(session, [e.id for e in rows if e.status == "active"])
    calls = _calls(session, [e.id for e in rows], now)
    histories = _histories(session, link.room_id, [e.id for e in rows], tr)
    return [MyEntry(e.id, session.get_one(Game, e.game_id), e.status, places.get(e.id, 0),
                    e.checkin_deadline if e.checked_in_at is None and e.status == "active" else None,
                    calls.get(e.id), histories.get(e.id, [])) for e in rows]


def _places(session: Session, ids: list[int]) -> dict[int, int]:
    """R13: each entry's place on its game's waiting list, as the desk orders it (``queue_at``,
    then id): one statement for them all."""
    if not ids:
        return {}
    other = aliased(ListEntry)
    mine = aliased(ListEntry)
    stmt = select(mine.id, func.count(other.id)).join(other, and_(
        other.game_id == mine.game_id, other.kind == "waiting", other.status == "active",
        or_(other.queue_at < mine.queue_at,
            and_(other.queue_at == mine.queue_at, other.id <= mine.id)))).where(
        mine.id.in_(ids)).group_by(mine.id)
    return {entry_id: count for entry_id, count in session.execute(stmt)}


def _calls(session: Session, ids: list[int], now: datetime) -> dict[int, Call]:
    """R20: the live offers of these entries (an offer past its deadline reads as gone)."""
    stmt = select(SeatHold.entry_id, Table.name, SeatHold.seat_no, SeatHold.deadline).join(
        Table, Table.id == SeatHold.table_id).where(
        SeatHold.entry_id.in_(ids), SeatHold.kind == OFFER, SeatHold.ended_at.is_(None),
        SeatHold.deadline > now)
    return {entry_id: Call(table, seat, deadline)
            for entry_id, table, seat, deadline in session.execute(stmt) if entry_id and deadline}


def _histories(session: Session, room_id: int, ids: list[int],
               tr: Translate) -> dict[int, list[tuple[datetime, str]]]:
    """R13-R16: each entry's audit rows as the player's sentences, oldest first."""
    tables = {tid: name for tid, name in session.execute(
        select(Table.id, Table.name).where(Table.room_id == room_id))}
    found: dict[int, list[tuple[datetime, str]]] = {}
    for row in session.scalars(select(AuditEvent).where(
            AuditEvent.room_id == room_id, AuditEvent.entity_type == "list_entry",
            AuditEvent.entity_id.in_(ids)).order_by(AuditEvent.id)):
        line = history_line(row.action, row.detail or {}, row.reason, tables, tr)
        if line is not None:
            found.setdefault(row.entity_id, []).append((row.at, line))
    return found
