"""Rake (R51): the dealer (or a supervisor at the desk) records the rake taken from a hand, or the
total of a dealer down, as the game's ``rake_recorded`` policy says.

Per hand: a ``rake`` ledger row (negative: chips out of play) names the table, game and hand
(``hand_id``); the pot, whether there was a flop and the players dealt in go in its audit row
(R60). The amount is checked by ``fee_rules.check_rake``: whole smallest chips of the game, at most
what the pot allows (the game's schedule step for the pot, else its percent; one chip at least
where the game says so), never above the cap for the players dealt in, rounded down to the game's
smallest chip, and nothing without a flop under the game's no-flop-no-drop policy. The dealer's
screen shows that most before the rake is typed (``rake_limit``).

Per dealer down: one ``dealer_downs`` row (table, hands first..last, the dealer who dealt them, who
recorded it and when) and one rake row naming it (``down_id``), at most the sum of its hands'
ceilings (``fee_rules.check_down_rake``).

A hand is raked once: one standing rake row per hand, and no hand in two standing downs or in a
down and a per-hand row. The hands' rows are locked before the check, so two recordings touching a
hand are serialised. A wrong row is reversed (R52), which frees its hand or down's hands to be
recorded again. Services never commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.dealers.models import DealerSpell
from roomops.errors import Conflict, Invalid, NotFound
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.hands.models import Hand
from roomops.ledger.fee_rules import (
    MAX_DEALT,
    MIN_DEALT,
    RakePolicy,
    check_down_rake,
    check_rake,
    max_rake,
)
from roomops.ledger.fees import standing
from roomops.ledger.hand_rows import hand_at, players_dealt
from roomops.ledger.idempotency import fingerprint, replay
from roomops.ledger.models import DealerDown, LedgerEntry
from roomops.ledger.posting import Posting, post
from roomops.ledger.pots import check_split, split_pot
from roomops.ledger.rules import signed
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import holding, rights_in, staff_of_room

RECORDED = {"per_hand": "hand by hand", "per_down": "per dealer down"}


def policy(game: Game) -> RakePolicy:
    """R51: the game's rake settings as the pure rules take them."""
    return RakePolicy(bp=game.rake_bp, cap=game.rake_cap, smallest_chip=game.smallest_chip,
                      no_flop_no_drop=game.rake_no_flop_no_drop,
                      schedule=tuple(game.rake_schedule or ()),
                      caps_by_players=tuple(game.rake_caps_by_players or ()),
                      min_one_chip=game.rake_min_one_chip)


def record_rake(unit: UnitOfWork, table_id: int, hand_no: int, *,
                pot: int, flop: bool, rake: int, players: int | None = None,
                split: Sequence[int] = (), key: str | None = None) -> LedgerEntry:
    """R51/R61: the rake of hand ``hand_no`` at the table, checked against the game's schedule or
    percent, cap for the players dealt in, smallest chip and no-flop-no-drop; a retry with the same
    key returns the first row. ``players``: the players dealt in, needed only when the hand's
    record does not say (the recorded hand's count wins; a different one is refused). ``split``:
    the seats a split pot went to, raked once and capped once, or refused where the room does not
    rake split pots; each winner's share is kept with the row (``pots.split_pot``)."""
    unit.actor.require("deal")
    print_ = fingerprint(op="rake", table_id=table_id, hand_no=hand_no, pot=pot, flop=flop,
                         rake=rake, players=players, split=list(split), staff=unit.actor.staff_id)
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    hand = hand_at(unit.session, table, hand_no, lock=True)  # serialises rake for one hand
    earlier = replay(unit.session, LedgerEntry, unit.actor.room_id, key, print_)
    if earlier is not None:
        return earlier
    game = unit.session.get_one(Game, table.game_id)
    _check_recorded(game, "per_hand")
    dealt = players_dealt(hand, players)
    most = check_rake(rake, pot, flop, policy(game), dealt)
    shares = split_shares(unit.session, hand, game, split, pot - rake)
    _refuse_raked(unit.session, table, hand_no, hand_no)
    return post(unit, Posting(
        "rake", signed("rake", rake), "chips", game_id=game.id, table_id=table.id, hand_id=hand.id,
        note={"pot": pot, "flop": flop, "max_rake": most, "hand_no": hand_no, "players": dealt}
        | ({"split": {str(seat): amount for seat, amount in shares.items()}} if shares else {})),
        key, print_)


def split_shares(session: Session, hand: Hand, game: Game, split: Sequence[int],
                 left: int) -> dict[int, int]:
    """R51: a split pot's winners' shares of what the rake ``left``, by seat (none: not split),
    where the room rakes split pots."""
    if not split:
        return {}
    winners = check_split(split, hand.dealt_in)
    if not session.get_one(Room, hand.room_id).rake_split_pots:
        raise Conflict("a split pot is not raked in this room: record no rake for it", "R51")
    return split_pot(left, winners, hand.button, game.smallest_chip)


@dataclass(frozen=True)
class RakeLimit:
    """R51: the most a hand's pot may be raked (``most``; ``no_drop``: 0 under no-flop-no-drop, the
    hand having no flop), with the cap for its players dealt in (0: none) and the smallest chip it
    rounds down to."""

    pot: int
    most: int
    cap: int
    players: int | None
    smallest_chip: int
    no_drop: bool


def rake_limit(session: Session, actor: Actor, table_id: int, hand_no: int, *, pot: int,
               flop: bool = True) -> RakeLimit:
    """R51/R61: what ``record_rake`` would allow for a pot of ``pot`` in hand ``hand_no``, shown
    to the dealer as they type the pot; the players dealt in are the hand's record."""
    actor.require("deal")
    if type(pot) is not int or pot < 0:
        raise Invalid("the pot is a whole number of minor units", "R51")
    table = get_in_room(session, Table, table_id, actor, "table")
    hand = hand_at(session, table, hand_no)
    game = session.get_one(Game, table.game_id)
    if game.fee_kind != "rake":
        raise Conflict(f"{game.variant} is not raked", "R51")
    rules, dealt = policy(game), players_dealt(hand, None)
    no_drop = rules.no_flop_no_drop and not flop
    most = 0 if no_drop else max_rake(pot, rules, dealt)
    return RakeLimit(pot, most, rules.cap_for(dealt), dealt, rules.smallest_chip, no_drop)


def record_down(unit: UnitOfWork, table_id: int, *,
                first_hand_no: int, last_hand_no: int, rake: int, dealer_id: int | None = None,
                key: str | None = None) -> LedgerEntry:
    """R51/R61: the total rake of a dealer down, hands ``first_hand_no``..``last_hand_no`` at the
    table, dealt by ``dealer_id`` (default: the actor). A dealer records their own downs; a
    supervisor names the dealer. The hands must all be recorded at the table and raked by no
    standing row; the amount whole chips and within the hands' caps added up."""
    unit.actor.require("deal")
    dealer = unit.actor.staff_id if dealer_id is None else dealer_id
    assert dealer is not None, "require('deal'): only staff deal, and every staff actor has an id"
    print_ = fingerprint(op="rake_down", table_id=table_id, first=first_hand_no,
                         last=last_hand_no, rake=rake, dealer=dealer, staff=unit.actor.staff_id)
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    if first_hand_no < 1 or last_hand_no < first_hand_no:
        raise Invalid("a down's hands run from its first hand to its last, numbered from 1", "R51")
    hands = _locked_hands(unit.session, table, first_hand_no, last_hand_no)
    earlier = replay(unit.session, LedgerEntry, unit.actor.room_id, key, print_)
    if earlier is not None:
        return earlier
    game = unit.session.get_one(Game, table.game_id)
    _check_recorded(game, "per_down")
    spell = _spell_of(unit.session, hands)
    if spell is not None and dealer_id is None:
        dealer = spell.dealer_id  # R63: the down's dealer, whoever records it
    _check_down_dealer(unit.session, hands, spell, dealer)
    _check_dealer(unit.session, unit.actor, dealer)
    rules = policy(game)
    most = check_down_rake(rake, [rules.hand_ceiling(_clamped(h)) for h in hands],
                           rules.smallest_chip)
    _refuse_raked(unit.session, table, first_hand_no, last_hand_no)
    down = DealerDown(room_id=unit.actor.room_id, table_id=table.id, first_hand_no=first_hand_no,
                      last_hand_no=last_hand_no, dealer_id=dealer, recorded_by_id=unit.actor.staff_id,
                      recorded_at=unit.now, spell_id=spell.id if spell is not None else None)
    unit.session.add(down)
    unit.session.flush()
    return post(unit, Posting(
        "rake", signed("rake", rake), "chips", game_id=game.id, table_id=table.id, down_id=down.id,
        note={"first_hand_no": first_hand_no, "last_hand_no": last_hand_no, "dealer_id": dealer,
              "max_rake": most, "dealt_from": hands[0].at.isoformat(),
              "dealt_until": hands[-1].at.isoformat()}), key, print_)


def _spell_of(session: Session, hands: list[Hand]) -> DealerSpell | None:
    """R51/R63: the roster's down the hands were dealt in, where the room runs its rotation here
    (hands recorded with no down: none); hands of more than one down are refused."""
    spells = {hand.spell_id for hand in hands}
    if len(spells) > 1:
        raise Conflict(f"hands {hands[0].hand_no} to {hands[-1].hand_no} were dealt in more than one "
                       "down: record each down's rake apart", "R51")
    (spell_id,) = spells
    return None if spell_id is None else session.get_one(DealerSpell, spell_id)


def _check_down_dealer(session: Session, hands: list[Hand], spell: DealerSpell | None,
                       dealer_id: int) -> None:
    """R51/R63: a down's rake is its dealer's."""
    if spell is not None and spell.dealer_id != dealer_id:
        name = session.get_one(Staff, spell.dealer_id).display_name
        raise Conflict(f"hands {hands[0].hand_no} to {hands[-1].hand_no} were dealt in {name}'s down",
                       "R51")


def next_unraked(session: Session, table_id: int) -> int:
    """R51: the hand after the last one raked at the table (by a standing hand row or down): where
    the dealer screen starts the next down."""
    by_hand = select(func.max(Hand.hand_no)).join(LedgerEntry, LedgerEntry.hand_id == Hand.id).where(
        Hand.table_id == table_id, standing("rake"))
    by_down = select(func.max(DealerDown.last_hand_no)).join(
        LedgerEntry, LedgerEntry.down_id == DealerDown.id).where(
        DealerDown.table_id == table_id, standing("rake"))
    return max(session.scalar(by_hand) or 0, session.scalar(by_down) or 0) + 1


def _check_recorded(game: Game, how: str) -> None:
    """R51: a raked game, recording its rake the way its policy says."""
    if game.fee_kind != "rake":
        raise Conflict(f"{game.variant} is not raked", "R51")
    if game.rake_recorded != how:
        raise Conflict(f"{game.variant} records its rake {RECORDED[game.rake_recorded]}, not "
                       f"{RECORDED[how]}", "R51")


def _clamped(hand: Hand) -> int:
    """A recorded hand's players dealt in, for its cap, kept within 2 to 10 (a hand recorded with
    fewer takes the cap of two players)."""
    return min(max(len(hand.dealt_in or ()), MIN_DEALT), MAX_DEALT)


def _locked_hands(session: Session, table: Table, first: int, last: int) -> list[Hand]:
    """The down's hands, row-locked in hand order (no deadlock between two downs) so a per-hand
    rake or another down touching one of them waits for this one; every hand must be recorded."""
    hands = list(session.scalars(select(Hand).where(
        Hand.table_id == table.id, Hand.hand_no.between(first, last)).order_by(Hand.hand_no)
        .with_for_update(key_share=True)))
    if len(hands) != last - first + 1:
        recorded = session.scalar(select(func.max(Hand.hand_no)).where(Hand.table_id == table.id))
        raise NotFound(f"hands {first} to {last} are not all recorded at table {table.name} "
                       f"(last hand: {recorded or 'none'})")
    return hands


def _refuse_raked(session: Session, table: Table, first: int, last: int) -> None:
    """R51: a hand is raked once: refused when a standing rake row names one of the hands, or a
    standing down covers one."""
    hand = session.scalar(select(Hand.hand_no).join(LedgerEntry, LedgerEntry.hand_id == Hand.id)
                          .where(Hand.table_id == table.id, Hand.hand_no.between(first, last),
                                 standing("rake")).order_by(Hand.hand_no).limit(1))
    if hand is not None:
        raise Conflict(f"the rake of hand {hand} is recorded already: reverse it to correct it",
                       "R51")
    down = session.execute(select(DealerDown.first_hand_no, DealerDown.last_hand_no).join(
        LedgerEntry, LedgerEntry.down_id == DealerDown.id).where(
        DealerDown.table_id == table.id, DealerDown.first_hand_no <= last,
        DealerDown.last_hand_no >= first, standing("rake")).limit(1)).first()
    if down is not None:
        raise Conflict(f"hands {down[0]} to {down[1]} are raked already in a dealer down: reverse "
                       "its rake to correct it", "R51")


@dataclass(frozen=True)
class DownLine:
    """R51: a dealer down as the dealer's screen and the API list it; ``rake`` is what the down
    took (positive), ``entry_id`` its ledger row, ``standing`` False once that row is reversed."""

    id: int
    first_hand_no: int
    last_hand_no: int
    dealer_id: int
    dealer: str
    recorded_by_id: int
    recorded_at: datetime
    rake: int
    entry_id: int
    standing: bool


def downs_at(session: Session, actor: Actor, table_id: int, limit: int = 50) -> list[DownLine]:
    """R51/R52: the table's dealer downs, newest first, each with its rake and whether it stands
    (a reversed down's hands are free for a new one). One statement."""
    table = get_in_room(session, Table, table_id, actor, "table")
    rows = session.execute(
        select(DealerDown.id, DealerDown.first_hand_no, DealerDown.last_hand_no, DealerDown.dealer_id,
               Staff.display_name, DealerDown.recorded_by_id, DealerDown.recorded_at,
               -LedgerEntry.amount, LedgerEntry.id, standing("rake"))
        .join(LedgerEntry, (LedgerEntry.down_id == DealerDown.id) & (LedgerEntry.kind == "rake"))
        .join(Staff, Staff.id == DealerDown.dealer_id)
        .where(DealerDown.table_id == table.id).order_by(DealerDown.id.desc()).limit(limit)).tuples()
    return [DownLine(*row[:-1], bool(row[-1])) for row in rows]


def _own_downs_only(actor: Actor) -> bool:
    """A dealer who does not also authorise (a supervisor) names only themselves (R61)."""
    return not actor.can("authorise")


def dealers_for(session: Session, actor: Actor) -> list[Staff]:
    """R51/R61: whom ``actor`` may name as the dealer of a down: a dealer only themselves, a
    supervisor any active staff member of the room who deals (``_check_dealer``)."""
    stmt = select(Staff).where(holding(actor.room_id, "deal"), Staff.active.is_(True))
    if _own_downs_only(actor):
        stmt = stmt.where(Staff.id == actor.staff_id)
    return list(session.scalars(stmt.order_by(Staff.display_name)))


def _check_dealer(session: Session, actor: Actor, dealer_id: int) -> None:
    """R61: a dealer records their own downs; a supervisor names a staff member of the room who
    deals (``dealers_for`` lists them)."""
    if _own_downs_only(actor) and dealer_id != actor.staff_id:
        raise Conflict("a dealer records the rake of their own downs; a supervisor records "
                       "another dealer's", "R61")
    staff = staff_of_room(session, dealer_id, actor.room_id)
    if "deal" not in rights_in(session, staff.id, actor.room_id) or not staff.active:
        raise Conflict(f"{staff.display_name} does not deal", "R51")
