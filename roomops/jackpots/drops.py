"""R68: the jackpot drop recorded with its hand, after the rake, by the dealer at the table.

The drop goes into the pool ledger only (``jackpot_rows``), never the room's ledger: it is players'
money in the jackpot's own drop box, counted apart at the shift's close (R54) and shown apart from
rake and fees in every report. One drop is shared out between the administrative fee, the backup
pool and the pool (``rules.share_drop``); each part a row, the fee on the pool's. The hand's row is
locked as rake locks it, and the database refuses a second standing drop of a hand into a pool.
Services never commit."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.errors import Conflict
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Table
from roomops.hands.models import Hand
from roomops.jackpots.drop import check_drop
from roomops.jackpots.models import JackpotRow, JackpotScheme
from roomops.jackpots.pool import locked_scheme, standing_drops, write
from roomops.jackpots.rules import share_drop
from roomops.jackpots.schemes import drop_rule, scheme_of_table
from roomops.ledger.fees import standing
from roomops.ledger.hand_rows import hand_at, players_dealt
from roomops.ledger.models import LedgerEntry


@dataclass(frozen=True)
class DropTaken:
    """R68: what a hand's drop was: the scheme and the rows it wrote (none: the pot did not
    qualify)."""

    scheme: JackpotScheme
    amount: int
    rows: list[JackpotRow]


def record_drop(unit: UnitOfWork, table_id: int, hand_no: int, *, pot: int, flop: bool, drop: int,
                players: int | None = None) -> DropTaken:
    """R68/R61: the jackpot drop of hand ``hand_no`` (the deal right): ``drop`` must be the one
    the table's scheme takes from this pot after its rake (0 for a pot that does not qualify),
    refused naming the rule otherwise. ``players``: the players dealt in, where the hand's
    record does not say."""
    unit.actor.require("deal")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    hand = hand_at(unit.session, table, hand_no, lock=True)
    scheme = _scheme(unit.session, table)
    scheme = locked_scheme(unit.session, table.room_id, scheme.id)
    if _standing(unit.session, hand.id):
        raise Conflict(f"the jackpot drop of hand {hand_no} at table {table.name} is already recorded",
                       "R68")
    dealt = players_dealt(hand, players, "R68")
    if dealt is None:
        raise Conflict(f"hand {hand_no} does not say how many players were dealt in: send them", "R68")
    rake = raked(unit.session, hand.id)
    check_drop(drop_rule(scheme), drop, pot, rake, dealt, flop)
    if drop == 0:
        return DropTaken(scheme, 0, [])
    parts = share_drop(drop, scheme.fee_bp, scheme.backup_bp)
    rows = [JackpotRow(pool="main", kind="drop", amount=parts.main, fee=parts.fee, table_id=table.id,
                       hand_id=hand.id, reason=None)]
    if parts.backup:
        rows.append(JackpotRow(pool="backup", kind="drop", amount=parts.backup, table_id=table.id,
                               hand_id=hand.id))
    unit.audit("jackpot.hand_dropped", ("table", table.id), scheme_id=scheme.id, hand_no=hand_no,
               pot=pot, flop=flop, rake=rake, players=dealt, drop=drop)
    return DropTaken(scheme, drop, write(unit, scheme, rows))


@dataclass(frozen=True)
class DropOffer:
    """What the dealer's screen offers for the last hand: the scheme (its drop) and the drop
    already recorded (None: not yet)."""

    scheme: JackpotScheme
    hand_no: int
    recorded: int | None


def offer(session: Session, scheme: JackpotScheme, last: Hand | None) -> DropOffer | None:
    """R68: the table's scheme and the last hand's drop, for the dealer's screen (None: no hand
    yet)."""
    return None if last is None else DropOffer(scheme, last.hand_no, _standing(session, last.id))


def raked(session: Session, hand_id: int) -> int:
    """R51: the rake the hand's standing row took (0: none, or raked per down)."""
    return -int(session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
        LedgerEntry.hand_id == hand_id, standing("rake"))) or 0)


def _standing(session: Session, hand_id: int) -> int | None:
    """The hand's standing drop (its pool and backup rows, fee included), or None."""
    rows = list(session.scalars(standing_drops(hand_id)))
    return sum(r.amount + r.fee for r in rows) if rows else None


def _scheme(session: Session, table: Table) -> JackpotScheme:
    scheme = scheme_of_table(session, table)
    if scheme is None:
        raise Conflict(f"table {table.name} takes part in no jackpot scheme", "R68")
    return scheme
