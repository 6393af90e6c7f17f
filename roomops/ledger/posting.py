"""Posting one ledger row (R52): the room's gaming day (R2), the seat's table and game, the staff
member who posted it, an audit row (R60), and the idempotency key (``roomops.ledger.idempotency``).
Each row carries the shift of the day it is posted in (R54); a row posted in the rest of a shift
closed before its end goes to the next open shift of the day, and nothing is posted to a closed
gaming day (``placing.shift_to_post``; the ledger's trigger refuses a row naming a closed shift).
``post_many`` posts a batch with one check and one INSERT. Nothing here commits."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TypedDict

from sqlalchemy import bindparam, insert, select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.holds.queries import hold_in_room
from roomops.ledger.idempotency import insert_once
from roomops.ledger.models import LedgerEntry
from roomops.ledger.placing import closed_refused, shift_to_post
from roomops.ledger.rules import check_amount, check_currency, check_method
from roomops.rooms.models import Room
from roomops.rooms.shifts import Shift


@dataclass(frozen=True)
class Posting:
    """What a row says; ``amount`` already carries its sign (``roomops.ledger.rules``)."""

    kind: str
    amount: int
    method: str
    player_id: int | None = None
    game_id: int | None = None
    table_id: int | None = None
    hold_id: int | None = None
    slip_id: int | None = None
    reason: str | None = None
    reverses_id: int | None = None
    period_start: datetime | None = None  # R50: the hour a session fee covers
    period_end: datetime | None = None
    hand_id: int | None = None  # R51: the hand a rake was taken from
    down_id: int | None = None  # R51: or the dealer down it was recorded for
    short_buy_in: bool = False  # R30: once per session, after an all-in loss
    approved_by_id: int | None = None  # R27/R28: the supervisor who approved a cash-out
    playover_id: int | None = None  # R29: an overplayer's chips, apart from the owner's box
    note: dict[str, object] = field(default_factory=dict)  # audited only (R60), e.g. a rake's pot


class SeatPlace(TypedDict):
    """Where a posting against a seat belongs."""

    player_id: int
    game_id: int
    table_id: int
    hold_id: int


def cash_request(session: Session, actor: Actor, method: str, currency: str | None, rule: str,
                 kind: str, amount: int | None = None) -> Room:
    """What every money request checks first: the cash right (R61), the amount when there is one,
    a method allowed for ``kind`` (R32) and the room's currency; returns the room."""
    actor.require("cash")
    if amount is not None:
        check_amount(amount, rule)
    check_method(method, rule, kind)
    room = session.get_one(Room, actor.room_id)
    check_currency(currency, room.currency)
    return room


def at_seat(session: Session, hold: SeatHold) -> SeatPlace:
    """The player, game, table and seat a posting against ``hold`` names."""
    table = session.get_one(Table, hold.table_id)
    return {"player_id": hold.player_id, "game_id": table.game_id, "table_id": table.id,
            "hold_id": hold.id}


_LOCKED_HOLD = select(SeatHold).where(SeatHold.id == bindparam("id")).with_for_update(
    key_share=True).execution_options(populate_existing=True)


def locked_hold(session: Session, actor: Actor, hold_id: int) -> SeatHold:
    """The seat (R1: in the actor's room) with its table, game and room, read in one statement;
    on PostgreSQL the seat is then row-locked and read again, so postings against one seat are
    serialised and a request that waited sees what the one before it committed. (SQLite's
    transaction took the write lock when it began.)"""
    hold = hold_in_room(session, actor, hold_id, "seat")
    if session.get_bind().dialect.name != "sqlite":
        session.scalars(_LOCKED_HOLD, {"id": hold_id}).one()
    return hold


def check_seat(hold: SeatHold, rule: str, *, live: bool) -> None:
    """A player sitting in the seat (``live``) or one who has left it (R28: cash-out)."""
    if hold.kind != "seated":
        raise Conflict("that is a seat offer, not a player sitting in a seat", rule)
    if live and hold.ended_at is not None:
        raise Conflict("the player is no longer sitting in that seat", rule)
    if not live and hold.ended_at is None:
        raise Conflict("chips may not be taken out of play at the table: the player cashes out "
                       "after leaving the seat", "R28")


def post(unit: UnitOfWork, posting: Posting, key: str | None,
         print_: str) -> LedgerEntry:
    """Insert the row (or return the one an earlier request with ``key`` made) and audit it. A
    row with no key is posted as ``post_many`` posts: no other request can race it to the same
    row, so it needs no savepoint (``insert_once``)."""
    if key is None:
        return post_many(unit, [posting])[0]
    room, shift = _open_shift(unit)
    with closed_refused(shift):
        row, created = insert_once(unit.session, LedgerEntry, room.id, key, print_,
                                   lambda: _add_row(unit, shift, posting, key, print_))
    if created:
        _audit(unit, row, posting)
    return row


def post_many(unit: UnitOfWork,
              postings: Sequence[Posting]) -> list[LedgerEntry]:
    """Rows with no idempotency key posted together (a batch of table changes, R18): one check of
    the day (R54) and one INSERT for any number of rows; each row audited as ``post`` audits it."""
    if not postings:
        return []
    _room, shift = _open_shift(unit)
    values = [_values(unit.actor, unit.now, shift, p, None, "") for p in postings]
    # one INSERT (the ORM's bulk INSERT with RETURNING; the unit of work would send one INSERT per
    # row on SQLite to learn their ids); the rows come back in any order, so each is matched to its
    # posting by content. ``populate_existing``: a row id handed out again after a savepoint was
    # rolled back replaces the session's old object of it rather than being answered by it.
    with closed_refused(shift):
        rows = list(unit.session.scalars(insert(LedgerEntry).returning(LedgerEntry), values,
                                         execution_options={"populate_existing": True}))
    pending: dict[tuple[object, ...], list[Posting]] = {}
    for posting, v in zip(postings, values, strict=True):
        pending.setdefault(_content(v), []).append(posting)
    for row in sorted(rows, key=lambda r: r.id):
        _audit(unit, row, pending[_content(
            {c: getattr(row, c) for c in _COLUMNS})].pop(0))
    return sorted(rows, key=lambda r: r.id)


def _open_shift(unit: UnitOfWork) -> tuple[Room, Shift]:
    """The actor's room and the open shift a row posted now goes to (R2, R54), refused if the
    gaming day is closed."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    return room, shift_to_post(unit.session, room, unit.now)


def _audit(unit: UnitOfWork, row: LedgerEntry, posting: Posting) -> None:
    unit.audit(f"ledger.{row.kind}", ("ledger_entry", row.id),
               reason=row.reason, amount=row.amount, method=row.method, hold_id=row.hold_id,
               table_id=row.table_id, slip_id=row.slip_id, reverses_id=row.reverses_id,
               gaming_day=row.gaming_day.isoformat(), **_extra(posting))


def _extra(posting: Posting) -> dict[str, object]:
    """The fee period (R50) and hand (R51) in the audit row, when the row has them."""
    extra: dict[str, object] = dict(posting.note)
    if posting.period_start is not None and posting.period_end is not None:
        extra |= {"period_start": posting.period_start.isoformat(),
                  "period_end": posting.period_end.isoformat()}
    if posting.hand_id is not None:
        extra["hand_id"] = posting.hand_id
    if posting.down_id is not None:
        extra["down_id"] = posting.down_id
    return extra


def _values(actor: Actor, now: datetime, shift: Shift, posting: Posting, key: str | None,
            print_: str) -> dict[str, object]:
    """The columns of the row ``posting`` describes (the audit-only ``note`` left out)."""
    return {"room_id": actor.room_id, "gaming_day": shift.gaming_day, "shift_no": shift.number,
            "at": now, "staff_id": actor.staff_id, "idempotency_key": key,
            "fingerprint": print_ if key else None,
            **{name: getattr(posting, name) for name in _POSTED}}


# a posting's columns (``note`` is audited only); read one by one, as ``asdict`` would copy them
_POSTED = tuple(f.name for f in fields(Posting) if f.name != "note")
_COLUMNS = ("kind", "amount", "method", "player_id", "game_id", "table_id", "hold_id", "slip_id",
            "reason", "reverses_id", "hand_id", "short_buy_in")


def _content(values: dict[str, object]) -> tuple[object, ...]:
    return tuple(values[c] for c in _COLUMNS)


def _add_row(unit: UnitOfWork, shift: Shift, posting: Posting,
             key: str | None, print_: str) -> LedgerEntry:
    """The row, added to the session (``insert_once`` flushes it)."""
    row = LedgerEntry(**_values(unit.actor, unit.now, shift, posting, key, print_))
    unit.session.add(row)
    return row
