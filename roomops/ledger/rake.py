"""Rake (R51): the dealer (or a supervisor at the desk) records the rake taken from a hand.

A ``rake`` ledger row (negative: chips out of play) names the table, game and hand (``hand_id``);
the pot and whether there was a flop go in its audit row (R60). The amount is checked by
``fee_rules.check_rake``: at most the game's percent of the pot rounded down to its smallest chip
(the small blind: games have no chip-denomination field), never above the cap, and nothing without
a flop under the game's no-flop-no-drop policy. One standing rake row per hand: a wrong one is
reversed (R52) and recorded again. Services never commit."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.errors import Conflict, NotFound
from roomops.games.models import Game, Table
from roomops.hands.models import Hand
from roomops.ledger.fee_rules import check_rake
from roomops.ledger.fees import standing
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry
from roomops.ledger.posting import Posting, post
from roomops.ledger.rules import signed


def record_rake(session: Session, actor: Actor, now: datetime, table_id: int, hand_no: int, *,
                pot: int, flop: bool, rake: int, key: str | None = None) -> LedgerEntry:
    """R51/R61: the rake of hand ``hand_no`` at the table, checked against the game's percent,
    cap, smallest chip and no-flop-no-drop; a retry with the same key returns the first row."""
    actor.require("deal")
    print_ = fingerprint(op="rake", table_id=table_id, hand_no=hand_no, pot=pot, flop=flop,
                         rake=rake, staff=actor.staff_id)
    table = get_in_room(session, Table, table_id, actor, "table")
    hand = session.scalars(select(Hand).where(Hand.table_id == table.id, Hand.hand_no == hand_no)
                           .with_for_update()).one_or_none()  # serialises rake for one hand
    if hand is None:
        raise NotFound(f"no hand {hand_no} at table {table.name}")
    earlier = replay(session, LedgerEntry, actor.room_id, key, print_)
    if earlier is not None:
        return earlier
    game = session.get_one(Game, table.game_id)
    if game.fee_kind != "rake":
        raise Conflict(f"{game.variant} is not raked", "R51")
    most = check_rake(rake, pot, flop, percent=game.rake_percent, cap=game.rake_cap,
                      smallest_chip=game.small_blind, no_flop_no_drop=game.rake_no_flop_no_drop)
    taken = session.scalar(select(LedgerEntry.id).where(LedgerEntry.hand_id == hand.id,
                                                        standing("rake")).limit(1))
    if taken is not None:
        raise Conflict(f"the rake of hand {hand_no} is recorded already: reverse it to correct "
                       "it", "R51")
    return post(session, actor, now, Posting(
        "rake", signed("rake", rake), "chips", game_id=game.id, table_id=table.id, hand_id=hand.id,
        note={"pot": pot, "flop": flop, "max_rake": most, "hand_no": hand_no}), key, print_)
