"""A recorded hand as the money taken from it reads it (R50, R51, R68): the hand by its number at a
table, locked where the taking must be once, and the players dealt in."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.errors import Conflict, NotFound
from roomops.games.models import Table
from roomops.hands.models import Hand
from roomops.ledger.fee_rules import check_players


def hand_at(session: Session, table: Table, hand_no: int, lock: bool = False) -> Hand:
    """Hand ``hand_no`` of the table, row-locked when ``lock`` (rake and the drop, R50/R51, lock
    it to take from a hand once)."""
    stmt = select(Hand).where(Hand.table_id == table.id, Hand.hand_no == hand_no)
    hand = session.scalars(stmt.with_for_update() if lock else stmt).one_or_none()
    if hand is None:
        raise NotFound(f"no hand {hand_no} at table {table.name}")
    return hand


def players_dealt(hand: Hand, sent: int | None, rule: str = "R51") -> int | None:
    """R51 (R50 for a drop): the players dealt in: the hand's record when it names them, else
    what was sent."""
    if hand.dealt_in:
        if sent is not None and sent != len(hand.dealt_in):
            raise Conflict(f"hand {hand.hand_no} was dealt to {len(hand.dealt_in)} players, not "
                           f"{sent}", rule)
        return len(hand.dealt_in)
    return None if sent is None else check_players(sent, rule)
