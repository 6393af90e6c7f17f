"""Session fees (R50): collecting the coming hour's fee from a seated player, and who is due.

A collection is a ``session_fee`` ledger row (negative: chips out of play) naming the player, seat,
table, game, the hour it covers (``period_start``/``period_end``) and who collected; posted through
``roomops.ledger.posting`` with the same locking, idempotency and audit as every money action.
What a player owes and for how long is derived from their paid periods and now, never stored.
Services never commit."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, ScalarSelect, and_, func, select
from sqlalchemy.orm import QueryableAttribute, Session

from roomops.actors import Actor
from roomops.errors import Conflict
from roomops.games.models import Game, Table
from roomops.ledger.fee_rules import due, hourly_fee, next_period
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.posting import Posting, at_seat, check_seat, locked_hold, post
from roomops.ledger.rules import check_currency, check_method, signed
from roomops.rooms.models import Player, Room
from roomops.seating.models import SEATED, SeatHold


def standing(kind: str) -> ColumnElement[bool]:
    """Rows of ``kind`` that no reversal names (R52)."""
    return and_(LedgerEntry.kind == kind, unreversed())


def paid_until(hold_id: ColumnElement[int] | QueryableAttribute[int] | int) -> ScalarSelect[datetime | None]:
    """The end of the seat hold's last paid hour (R50), found through the ledger's hold index (a
    scalar subquery per seat, not a grouping of every fee the ledger ever took)."""
    return (select(func.max(LedgerEntry.period_end))
            .where(LedgerEntry.hold_id == hold_id, standing("session_fee")).scalar_subquery())


def seated_count(session: Session, table_id: int) -> int:
    return int(session.scalar(select(func.count()).select_from(SeatHold).where(
        SeatHold.table_id == table_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))) or 0)


def collect(session: Session, actor: Actor, now: datetime, hold_id: int, method: str = "cash",
            currency: str | None = None, key: str | None = None) -> LedgerEntry:
    """R50: a cashier or supervisor collects a seated player's fee for the coming hour. The amount
    is the game's hourly fee for the number of players seated now (``hourly_fee_by_players``); the
    hour starts where the paid one ends if the player is still covered, else now
    (``fee_rules.next_period``). A retry with the same key returns the first row (R52)."""
    actor.require("cash")
    check_method(method, "R50", "session_fee")
    room = session.get_one(Room, actor.room_id)
    check_currency(currency, room.currency)
    print_ = fingerprint(op="session_fee", hold_id=hold_id, method=method, staff=actor.staff_id)
    hold = locked_hold(session, actor, hold_id)  # serialises collections for one seat
    earlier = replay(session, LedgerEntry, room.id, key, print_)
    if earlier is not None:
        return earlier
    check_seat(hold, "R50", live=True)
    seat = at_seat(session, hold)
    game = session.get_one(Game, seat["game_id"])
    if game.fee_kind != "hourly":
        raise Conflict(f"{game.variant} charges no hourly session fee", "R50")
    players = seated_count(session, hold.table_id)
    amount = hourly_fee(game.hourly_fee, game.hourly_fee_by_players, players)
    if amount <= 0:
        raise Conflict(f"no hourly fee is charged with {players} players seated", "R50")
    paid = session.scalar(select(paid_until(hold.id)))
    start, end = next_period(paid, now)
    return post(session, actor, now, Posting(
        "session_fee", signed("session_fee", amount), method, period_start=start, period_end=end,
        note={"players_seated": players}, **seat), key, print_)


@dataclass(frozen=True)
class FeeDue:
    """R50: a seated player of an hourly game, their paid-until and how long they have been due
    (0 while covered), and the fee the coming hour would cost now."""

    hold_id: int
    player_id: int
    player: str
    table_id: int
    table: str
    seat_no: int
    game_id: int
    seated_at: datetime
    paid_until: datetime | None
    due_since: datetime | None
    due_seconds: int
    fee: int

    @property
    def is_due(self) -> bool:
        return self.due_since is not None


def fees_due(session: Session, room_id: int, now: datetime) -> list[FeeDue]:
    """R50: every seated player of the room's hourly games, due ones first, longest due first,
    then the covered ones by when their hour ends. One statement, whatever the room's size."""
    rows = session.execute(
        select(SeatHold.id, SeatHold.player_id, Player.first_name, Player.last_name, Table.id,
               Table.name, SeatHold.seat_no, Game.id, SeatHold.started_at, paid_until(SeatHold.id),
               Game.hourly_fee, Game.hourly_fee_by_players)
        .join(Player, Player.id == SeatHold.player_id).join(Table, Table.id == SeatHold.table_id)
        .join(Game, Game.id == Table.game_id)
        .where(SeatHold.room_id == room_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None),
               Game.fee_kind == "hourly")).all()
    seated = Counter(r[4] for r in rows)
    out = []
    for (hold_id, player_id, first, last, table_id, table, seat_no, game_id, seated_at, until,
         flat, by_players) in rows:
        d = due(until, seated_at, now)
        out.append(FeeDue(hold_id, player_id, f"{first} {last}".strip(), table_id, table, seat_no,
                          game_id, seated_at, until, d.due_since, d.due_seconds,
                          hourly_fee(flat, by_players, seated[table_id])))
    return sorted(out, key=lambda f: (not f.is_due, -f.due_seconds,
                                      f.paid_until or now, f.table, f.seat_no))
