"""The drop (R50): a drop game's fixed amount taken from each hand dealt, recorded by the dealer
(or a supervisor) at the moment rake would be, for a hand already recorded at the table.

A ``drop`` ledger row (negative: chips out of play) in chips names the table, game and hand; the
amount is the game's (``drop_fee``, or the step of ``drop_by_players`` for the players dealt in),
never typed; the hand number and players dealt in go in its audit row (R60). A hand is dropped
once: the hand's row is locked while its standing drop is looked up, and the ledger's trigger
(migration 0026) refuses a second standing drop of a hand from any writer. A wrong drop is
reversed (R52), which frees the hand to be dropped again. Services never commit."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.hands.models import Hand
from roomops.ledger.fee_rules import drop_amount
from roomops.ledger.fees import standing
from roomops.ledger.hand_rows import hand_at, players_dealt
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry
from roomops.ledger.posting import Posting, post
from roomops.ledger.rules import CHIPS, check_method, signed

RULE = "R50"


def record_drop(unit: UnitOfWork, table_id: int, hand_no: int, *,
                players: int | None = None, amount: int | None = None, method: str = CHIPS,
                key: str | None = None) -> LedgerEntry:
    """R50/R61: take the game's drop from hand ``hand_no`` at the table (the deal right), in chips.
    ``players``: the players dealt in, needed only when the hand's record does not say and the
    game's drop goes by players; ``amount``: what the dealer was shown, refused if the game's drop
    is not that now. A retry with the same key returns the first row (R52)."""
    unit.actor.require("deal")
    check_method(method, RULE, "drop")
    print_ = fingerprint(op="drop", table_id=table_id, hand_no=hand_no, players=players,
                         amount=amount, staff=unit.actor.staff_id)
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table", RULE)
    hand = hand_at(unit.session, table, hand_no, lock=True)  # serialises the drop of one hand
    earlier = replay(unit.session, LedgerEntry, unit.actor.room_id, key, print_)
    if earlier is not None:
        return earlier
    game = _drop_game(unit.session, table)
    dealt = players_dealt(hand, players, RULE)
    taken = drop_amount(game.drop_fee, game.drop_by_players, dealt, amount)
    if standing_drop(unit.session, hand.id) is not None:
        raise Conflict(f"the drop of hand {hand_no} is recorded already: reverse it to correct it",
                       RULE)
    return post(unit, Posting(
        "drop", signed("drop", taken), CHIPS, game_id=game.id, table_id=table.id, hand_id=hand.id,
        note={"hand_no": hand_no, "players": dealt}), key, print_)


def standing_drop(session: Session, hand_id: int) -> LedgerEntry | None:
    """R50/R52: the hand's drop that no reversal names, if any."""
    return session.scalars(select(LedgerEntry).where(LedgerEntry.hand_id == hand_id,
                                                     standing("drop"))).first()


@dataclass(frozen=True)
class DropDue:
    """R50: the drop of a table's hand as the dealer's screen offers it: the amount for its players
    dealt in (None when the game's schedule needs a count the hand does not have), and the
    standing row when it is recorded already."""

    hand_no: int
    players: int | None
    amount: int | None
    recorded: LedgerEntry | None


def drop_due(session: Session, actor: Actor, table_id: int, hand: Hand) -> DropDue:
    """R50: what ``record_drop`` would take from ``hand`` of a drop game now, for the screen."""
    game = _drop_game(session, get_in_room(session, Table, table_id, actor, "table", RULE))
    dealt = len(hand.dealt_in) if hand.dealt_in else None
    try:
        amount: int | None = drop_amount(game.drop_fee, game.drop_by_players, dealt)
    except (Conflict, Invalid):  # nothing to take, or a count the hand does not have
        amount = None
    return DropDue(hand.hand_no, dealt, amount, standing_drop(session, hand.id))


def _drop_game(session: Session, table: Table) -> Game:
    game = session.get_one(Game, table.game_id)
    if game.fee_kind != "drop":
        raise Conflict(f"{game.variant} takes no drop from a hand", RULE)
    return game
