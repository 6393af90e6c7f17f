"""Buy-ins and add-ons against a player's seat, and reversals (R28, R30, R32, R52); cash-outs
are ``roomops.ledger.cash_outs``.

Services take ``(session, actor, now, ...)``, check the actor's right (R61), never commit and audit
every row (R60). A retried request with the same idempotency key returns the first row.

The seating flow posts a seat's buy-in itself (``at_desk``, called by ``seats.sit`` for a claim
or a direct seating, in the same transaction), and a move's transfer and add-on rows
(``table_changes``, called by ``moves.carry``); the cashier's ``buy_in`` is for a seat whose buy-in
row was reversed (R52), and more chips are an add-on."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.events import Carried
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game
from roomops.holds.models import SeatHold
from roomops.holds.rules import check_buy_in
from roomops.ledger import playover_rows
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.playover_rows import named
from roomops.ledger.posting import (
    Posting,
    SeatPlace,
    at_seat,
    cash_request,
    check_seat,
    locked_hold,
    post,
    post_many,
)
from roomops.ledger.rules import (
    AT_TABLE,
    TRANSFER,
    check_reversible,
    check_second_person,
    signed,
)
from roomops.rooms.models import Room

# the rule an amount of each kind answers to
RULES = {"buy_in": "R30", "add_on": "R28"}


def buy_in(unit: UnitOfWork, hold_id: int, amount: int,
           method: str = "cash", currency: str | None = None, key: str | None = None, *,
           playover_id: int | None = None) -> LedgerEntry:
    """R30: the chips a seated player sits down with, within the game's range, once per seat
    (more chips later are an add-on); with ``playover_id``, the overplayer's on that playover of
    the seat (R29), once per playover."""
    return _movement(unit, "buy_in", hold_id, amount, method, currency, key,
                     playover_id=playover_id)


def at_desk(unit: UnitOfWork, hold: SeatHold, amount: int,
            method: str = AT_TABLE) -> LedgerEntry:
    """R30/R27: the buy-in of a seat the desk opens (a claim or a direct seating), posted in the
    seating's own transaction under its ``floor`` right. The desk has already checked the amount
    (``seats.check_sitting_down``: R30, or R27 which may exceed the table maximum): what it
    accepted is recorded as it is, paid as the desk said (checked by the caller): by default
    ``table``, cash at the table (R32), the player handing the buy-in over as they sit down."""
    return post(unit, Posting("buy_in", amount, method, **at_seat(unit.session, hold)),
                None, "")


def table_changes(unit: UnitOfWork, game_id: int,
                  changes: Sequence[Carried]) -> list[LedgerEntry]:
    """R18/R52/R54: the rows of a batch of moves, posted together (``posting.post_many``: one
    check and one INSERT whatever the number of moves). A stack carried to another table is a
    ``transfer`` pair, out of the old table and into the new, so each table's expected figure
    follows the chips while the day's total does not move; chips added with the move are an
    ``add_on`` paid in cash at the table (R32). A move within a table (a seat change) and an
    empty stack post no transfer."""
    postings: list[Posting] = []
    for c in changes:
        if c.stack and c.old_table_id != c.new_table_id:
            note: dict[str, object] = {"move": c.move, "from_hold_id": c.old_id,
                                       "to_hold_id": c.new_id}
            postings += [Posting(TRANSFER, -c.stack, "chips", c.player_id, game_id, c.old_table_id,
                                 c.old_id, note=note),
                         Posting(TRANSFER, c.stack, "chips", c.player_id, game_id, c.new_table_id,
                                 c.new_id, note=note)]
        if c.added:
            postings.append(Posting("add_on", c.added, AT_TABLE, c.player_id, game_id,
                                    c.new_table_id, c.new_id))
    return post_many(unit, postings)


def add_on(unit: UnitOfWork, hold_id: int, amount: int,
           method: str = "cash", currency: str | None = None, key: str | None = None, *,
           playover_id: int | None = None) -> LedgerEntry:
    """R28/R30: chips added between hands; an add-on only ever adds (no weeding). With
    ``playover_id``: chips for the overplayer of that live playover of the seat (R29)."""
    return _movement(unit, "add_on", hold_id, amount, method, currency, key,
                     playover_id=playover_id)


def rebuy(unit: UnitOfWork, hold_id: int, amount: int | None = None,
          *, after_all_in: bool = False, method: str = "cash", currency: str | None = None,
          key: str | None = None) -> LedgerEntry:
    """R30: a seated player with no chips left buys chips again between hands (an ``add_on`` row):
    the table minimum when no amount is stated, otherwise within the game's range; less than the
    minimum only when the player lost all-in on the previous hand, and once per session (the seat
    and the seats a table change carried the player from)."""
    if amount is None:
        hold = get_in_room(unit.session, SeatHold, hold_id, unit.actor, "seat")
        amount = unit.session.get_one(Game, at_seat(unit.session, hold)["game_id"]).min_buyin
    return _movement(unit, "add_on", hold_id, amount, method, currency, key,
                     after_all_in=after_all_in)


def reverse(unit: UnitOfWork, entry_id: int, reason: str,
            key: str | None = None) -> LedgerEntry:
    """R52: correct a row with a new row of the opposite amount naming it, who and why; a row is
    reversed at most once and a reversal is never reversed; where the room requires two people
    (``reversal_two_person``), never by the staff member who posted it."""
    unit.actor.require("authorise")
    print_ = fingerprint(op="reverse", entry_id=entry_id, reason=reason, staff=unit.actor.staff_id)
    earlier = replay(unit.session, LedgerEntry, unit.actor.room_id, key, print_)
    if earlier is not None:
        return earlier
    entry = get_in_room(unit.session, LedgerEntry, entry_id, unit.actor, "ledger row")
    if not reason.strip():
        raise Invalid("a reversal needs a written reason", "R52")
    check_reversible(entry.kind, _reversed(unit.session, entry.id))
    room = unit.session.get_one(Room, unit.actor.room_id)
    check_second_person(room.reversal_two_person, entry.staff_id, unit.actor.staff_id)
    return post(unit, Posting(
        "reversal", -entry.amount, entry.method, player_id=entry.player_id, game_id=entry.game_id,
        table_id=entry.table_id, hold_id=entry.hold_id, slip_id=entry.slip_id,
        reason=reason.strip(), reverses_id=entry.id, period_start=entry.period_start,
        period_end=entry.period_end, hand_id=entry.hand_id, down_id=entry.down_id,
        playover_id=entry.playover_id), key, print_)


def _movement(unit: UnitOfWork, kind: str, hold_id: int, amount: int,
              method: str, currency: str | None, key: str | None, *,
              after_all_in: bool | None = None, playover_id: int | None = None) -> LedgerEntry:
    """``after_all_in``: None for an add-on; a bool for a rebuy (R30, ``rebuy``).
    ``playover_id``: the overplayer's chips on that playover of the seat (R29)."""
    rule = RULES[kind]
    room = cash_request(unit.session, unit.actor, method, currency, rule, kind, amount)
    print_ = fingerprint(op=kind, hold_id=hold_id, amount=amount, method=method,
                         staff=unit.actor.staff_id, rebuy=after_all_in, **named(playover_id))
    hold = locked_hold(unit.session, unit.actor, hold_id)
    earlier = replay(unit.session, LedgerEntry, room.id, key, print_)  # after the lock: see a racer's row
    if earlier is not None:
        return earlier
    seat = _place(unit.session, unit.actor, hold, playover_id, rule)
    game = unit.session.get_one(Game, seat["game_id"])
    if kind == "buy_in" and playover_id is not None:
        check_buy_in(amount, game.min_buyin, game.max_buyin)
        playover_rows.check_first_buy_in(unit.session, playover_id)
    elif kind == "buy_in":
        _check_first_buy_in(unit.session, hold, amount, game)
    short = after_all_in is not None and _short_rebuy(unit.session, hold, amount, game, after_all_in)
    return post(unit, Posting(kind, signed(kind, amount), method, **seat,
                              short_buy_in=short, playover_id=playover_id),
                key, print_)


def _place(session: Session, actor: Actor, hold: SeatHold, playover_id: int | None,
           rule: str) -> SeatPlace:
    """Where the chips go: the player sitting in the seat, or the overplayer playing over it."""
    if playover_id is not None:
        return playover_rows.playing_over(session, actor, hold, playover_id, rule)
    check_seat(hold, rule, live=True)
    return at_seat(session, hold)


def _short_rebuy(session: Session, hold: SeatHold, amount: int, game: Game, after_all_in: bool) -> bool:
    """R30: whether a rebuy is the session's one short buy-in; refused when it may not be."""
    if amount >= game.min_buyin:
        check_buy_in(amount, game.min_buyin, game.max_buyin)
        return False
    if not after_all_in:
        raise Conflict("a rebuy is at least the table minimum ({minimum}); less only after losing "
                       "all-in on the previous hand, once per session", "R30",
                       amounts={"minimum": game.min_buyin})
    chain, at = [hold.id], hold
    while at.from_hold_id is not None:  # the seats a table change carried the player from (R18)
        at = session.get_one(SeatHold, at.from_hold_id)
        chain.append(at.id)
    used = select(LedgerEntry.id).where(
        LedgerEntry.hold_id.in_(chain), LedgerEntry.short_buy_in.is_(True),
        unreversed())
    if session.scalar(used.limit(1)) is not None:
        raise Conflict("the player has had their one short buy-in this session", "R30")
    return True


def _check_first_buy_in(session: Session, hold: SeatHold, amount: int, game: Game) -> None:
    """R30 (or the R27 amount the desk accepted when seating the player, which may exceed the
    table maximum), once per seat: a reversed buy-in no longer counts. A seat reached by a table
    change has none: the stack came with the player (R18)."""
    if hold.from_hold_id is not None:
        raise Conflict("the player changed tables with their stack: more chips are an add-on",
                       "R30")
    check_buy_in(amount, game.min_buyin, max(game.max_buyin, hold.buy_in or 0))
    if session.scalar(_STANDING_BUY_IN, {"hold": hold.id}) is not None:
        raise Conflict("this seat has its buy-in already: more chips are an add-on", "R30")


_STANDING_BUY_IN = select(LedgerEntry.id).where(
    LedgerEntry.hold_id == bindparam("hold"), LedgerEntry.kind == "buy_in",
    LedgerEntry.playover_id.is_(None), unreversed()).limit(1)  # a playover's is the overplayer's


def _reversed(session: Session, entry_id: int) -> bool:
    return session.scalar(select(LedgerEntry.id).where(LedgerEntry.reverses_id == entry_id)) is not None
