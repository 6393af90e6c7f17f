"""Session fees (R50): collecting the coming period's fee (an hour or half an hour) from a seated
player or from everyone due at a table, and who is due.

A collection is a ``session_fee`` ledger row (negative: chips out of play) naming the player, seat,
table, game, the period it covers (``period_start``/``period_end``) and who collected; posted through
``roomops.ledger.posting`` with the same locking, idempotency and audit as every money action.
What a player owes and for how long is derived from their paid periods and now, never stored.
Services never commit."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from hashlib import sha256

from sqlalchemy import ColumnElement, ScalarSelect, and_, func, select
from sqlalchemy.orm import QueryableAttribute, Session

from roomops.actors import get_in_room
from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.holds.models import SEATED, SeatHold
from roomops.ledger.fee_rules import PERIODS, due, fee_for_players, period
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.posting import Posting, at_seat, cash_request, check_seat, locked_hold, post
from roomops.ledger.rules import signed
from roomops.ledger.time_rules import PayWhen, TimeRules, paid_period, pay_when
from roomops.lists.reads import waiting_at, waiting_for
from roomops.rooms.gaming_day import started
from roomops.rooms.models import Player, Room


def standing(kind: str) -> ColumnElement[bool]:
    """Rows of ``kind`` that no reversal names (R52)."""
    return and_(LedgerEntry.kind == kind, unreversed())


def paid_until(hold_id: ColumnElement[int] | QueryableAttribute[int] | int) -> ScalarSelect[datetime | None]:
    """The end of the seat hold's last paid period (R50), found through the ledger's hold index (a
    scalar subquery per seat, not a grouping of every fee the ledger ever took)."""
    return (select(func.max(LedgerEntry.period_end))
            .where(LedgerEntry.hold_id == hold_id, standing("session_fee")).scalar_subquery())


def seated_count(session: Session, table_id: int) -> int:
    return int(session.scalar(select(func.count()).select_from(SeatHold).where(
        SeatHold.table_id == table_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))) or 0)


def collect(unit: UnitOfWork, hold_id: int, method: str = "cash",
            currency: str | None = None, key: str | None = None) -> LedgerEntry:
    """R50: a cashier or supervisor collects a seated player's fee for the coming period (an hour,
    or half an hour: the game's ``fee_kind``). The amount is the game's time fee for the number of
    players seated now (``time_fee_by_players``); the period starts where the paid one ends if the
    player is still covered, else now (``fee_rules.next_period``). Paid in chips or in cash at the
    cage. A retry with the same key returns the first row (R52)."""
    room = cash_request(unit.session, unit.actor, method, currency, "R50", "session_fee")
    print_ = fingerprint(op="session_fee", hold_id=hold_id, method=method, staff=unit.actor.staff_id)
    hold = locked_hold(unit.session, unit.actor, hold_id)  # serialises collections for one seat
    earlier = replay(unit.session, LedgerEntry, room.id, key, print_)
    if earlier is not None:
        return earlier
    check_seat(hold, "R50", live=True)
    seat = at_seat(unit.session, hold)
    game = unit.session.get_one(Game, seat["game_id"])
    clock = _Clock.of(unit.session, room, game, hold.table_id, unit.now)
    players = seated_count(unit.session, hold.table_id)
    amount = _time_fee(game, players)
    start, end = clock.period(unit.session.scalar(select(paid_until(hold.id))), hold.started_at)
    return post(unit, Posting(
        "session_fee", signed("session_fee", amount), method, period_start=start, period_end=end,
        note={"players_seated": players, **clock.note}, **seat), key, print_)


@dataclass(frozen=True)
class _Clock:
    """R50: what a collection at ``now`` at one table goes by: the game's period, the room's time
    rules, when the gaming day started and how many wait for a seat there."""

    now: datetime
    length: timedelta
    rules: TimeRules
    day_start: datetime
    waiting: int

    @classmethod
    def of(cls, session: Session, room: Room, game: Game, table_id: int, now: datetime) -> _Clock:
        return cls(now, period(game.fee_kind, game.variant), time_rules(room),
                   started(now, room.timezone, room.gaming_day_start),
                   waiting_for(session, game.id, table_id))

    def period(self, paid: datetime | None, seated_at: datetime) -> tuple[datetime, datetime]:
        return paid_period(paid, seated_at, self.now, self.length, self.day_start, self.rules,
                           self.waiting)

    @property
    def note(self) -> dict[str, object]:
        return {"collection": "clock" if self.rules.clock else "own", "waiting": self.waiting}


def time_rules(room: Room) -> TimeRules:
    """R50: the room's time-collection settings as the pure rules take them."""
    return TimeRules(room.time_collection == "clock", room.time_new_player_minutes,
                     room.time_all_pay_waiting, room.time_decline_until_bb)


@dataclass(frozen=True)
class TableFees:
    """R50: what collecting from a whole table did: one row per player who was due (``rows``),
    and how many seated players were still covered and so were not charged (``skipped``)."""

    table_id: int
    rows: list[LedgerEntry]
    skipped: int


def collect_table(unit: UnitOfWork, table_id: int,
                  method: str = "chips", currency: str | None = None,
                  key: str | None = None) -> TableFees:
    """R50: collect the coming period's fee from every player seated at the table who is due now,
    in one transaction: one ``session_fee`` row each (audited as every posting), at the fee for
    the players seated now; players still covered are skipped and counted. Nobody due is refused
    (409, nothing written). The seats are locked in seat order first, as ``collect`` locks one,
    so a single collection for one of them waits. With a key, each row's key is derived from it
    and the seat: a retry returns the same rows and charges nobody again (R52)."""
    room = cash_request(unit.session, unit.actor, method, currency, "R50", "session_fee")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table", "R50")
    game = unit.session.get_one(Game, table.game_id)
    clock = _Clock.of(unit.session, room, game, table.id, unit.now)
    holds, paid = _locked_seats(unit.session, table)
    amount = _time_fee(game, len(holds))
    note: dict[str, object] = {"players_seated": len(holds), "whole_table": True, **clock.note}
    rows: list[LedgerEntry] = []
    for hold in holds:
        seat_key = None if key is None else f"{sha256(key.encode()).hexdigest()[:40]}:{hold.id}"
        print_ = fingerprint(op="table_fee", table_id=table.id, hold_id=hold.id, method=method,
                             staff=unit.actor.staff_id)
        earlier = replay(unit.session, LedgerEntry, room.id, seat_key, print_)
        if earlier is not None:
            rows.append(earlier)
        elif due(paid[hold.id], hold.started_at, unit.now).is_due:
            start, end = clock.period(paid[hold.id], hold.started_at)
            rows.append(post(unit, Posting(
                "session_fee", signed("session_fee", amount), method, period_start=start,
                period_end=end, note=note, **at_seat(unit.session, hold)), seat_key, print_))
    if not rows:
        raise Conflict(f"nobody at table {table.name} is due: all {len(holds)} players seated "
                       "are covered", "R50")
    return TableFees(table.id, rows, len(holds) - len(rows))


def _locked_seats(session: Session, table: Table) -> tuple[list[SeatHold], dict[int, datetime | None]]:
    """The table's players seated, row-locked in seat order, and each seat's paid-until (R50)."""
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))
        .order_by(SeatHold.seat_no).with_for_update(key_share=True)))
    if not holds:
        raise Conflict(f"nobody is seated at table {table.name}", "R50")
    paid = {hold_id: until for hold_id, until in session.execute(select(
        SeatHold.id, paid_until(SeatHold.id)).where(SeatHold.id.in_([h.id for h in holds])))}
    return holds, paid


def _time_fee(game: Game, players: int) -> int:
    """R50: the game's time fee for ``players`` seated; nothing to collect is refused."""
    amount = fee_for_players(game.time_fee, game.time_fee_by_players, players)
    if amount <= 0:
        raise Conflict(f"no session fee is charged with {players} players seated", "R50")
    return amount


@dataclass(frozen=True)
class FeeDue:
    """R50: a seated player of a time game (``fee_kind`` hourly or halfhour), their paid-until and
    how long they have been due (0 while covered), and the fee the coming period would cost now."""

    hold_id: int
    player_id: int
    player: str
    table_id: int
    table: str
    seat_no: int
    game_id: int
    fee_kind: str
    seated_at: datetime
    paid_until: datetime | None
    due_since: datetime | None
    due_seconds: int
    fee: int
    waiting: int
    pay_when: PayWhen

    @property
    def is_due(self) -> bool:
        return self.due_since is not None


def fees_due(session: Session, room_id: int, now: datetime) -> list[FeeDue]:
    """R50: every seated player of the room's time games, due ones first, longest due first,
    then the covered ones by when their period ends; with how many wait for a seat at their table
    and, by the room's rules, when a due player pays. Two statements, whatever the room's size."""
    rows = session.execute(
        select(SeatHold.id, SeatHold.player_id, Player.first_name, Player.last_name, Table.id,
               Table.name, SeatHold.seat_no, Game.id, Game.fee_kind, SeatHold.started_at,
               paid_until(SeatHold.id),
               Game.time_fee, Game.time_fee_by_players)
        .join(Player, Player.id == SeatHold.player_id).join(Table, Table.id == SeatHold.table_id)
        .join(Game, Game.id == Table.game_id)
        .where(SeatHold.room_id == room_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None),
               Game.fee_kind.in_(PERIODS))).all()
    seated = Counter(r[4] for r in rows)
    waiting = waiting_at(session, {(r[7], r[4]) for r in rows})
    rules = time_rules(session.get_one(Room, room_id))
    out = []
    for (hold_id, player_id, first, last, table_id, table, seat_no, game_id, kind, seated_at, until,
         flat, by_players) in rows:
        d = due(until, seated_at, now)
        out.append(FeeDue(hold_id, player_id, f"{first} {last}".strip(), table_id, table, seat_no,
                          game_id, kind, seated_at, until, d.due_since, d.due_seconds,
                          fee_for_players(flat, by_players, seated[table_id]), waiting[table_id],
                          pay_when(waiting[table_id], rules)))
    return sorted(out, key=lambda f: (not f.is_due, -f.due_seconds,
                                      f.paid_until or now, f.table, f.seat_no))
