"""Recording hands at the table (R33-R36, R40, R26). Services never commit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.absences.missed import count_missed_big_blinds
from roomops.actors import Actor
from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import HandPlan, SeatState
from roomops.blinds.straddles import Straddle, StraddleSettings, check_straddles, straddle_order
from roomops.dealers.models import DealerSpell
from roomops.errors import Conflict, Invalid
from roomops.floor.events import HandRecorded, SeatsLostToBlinds, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game, table_in_room
from roomops.games.models import Game, Table
from roomops.hands.models import Hand, SeatBlinds
from roomops.hands.seats import Sitting, last_hand, seat_states, sittings, table_state
from roomops.rooms.models import Room


def record_hand(unit: UnitOfWork, table_id: int, *, hand_no: int,
                posting: Sequence[int] = (), straddles: Sequence[Straddle] = (),
                straddles_in_turn: int = 0, high_card_seat: int | None = None,
                floor_consent: bool = False, sanctioned: bool = False) -> Hand:
    """R33-R35: the dealer records hand ``hand_no`` (the next one: a second tap of the same
    number is refused, never recorded twice). The first hand of a table, or a fresh start, needs
    the seat that drew the high card (R33); ``posting``: players who post what they owe to play
    now (R35/R36); ``straddles`` in the order made (R40). Missed big blinds count towards R26."""
    unit.actor.require("deal")
    table, game = _open_table(unit.session, unit.actor, table_id)
    last = last_hand(unit.session, table.id)
    expected = 1 if last is None else last.hand_no + 1
    if hand_no != expected:
        raise Conflict(f"hand {hand_no} is not the next hand at table {table.name}: the next is "
                       f"{expected}", "R33")
    if last is None and high_card_seat is None:
        raise Conflict(f"the first hand at table {table.name} needs the seat that drew the high "
                       "card for the button", "R33")
    room = unit.session.get_one(Room, unit.actor.room_id)
    down = _down_at(unit.session, room, table)
    sat = sittings(unit.session, table.id)
    state = table_state(table, game, last, sat, room.post_behind_button)
    _require_seats(state.seats_per_table, [*posting, *(s.seat_no for s in straddles),
                                           *([high_card_seat] if high_card_seat else [])])
    seats = seat_states(state, sat, game.posting(room.new_player_posting))
    plan = (next_hand(state, seats, posting) if high_card_seat is None
            else first_hand(state, seats, high_card_seat))
    straddles = list(straddles) or in_turn(plan, straddles_in_turn)
    check_straddles(straddle_settings(game), plan, straddles, sanctioned=sanctioned,
                    floor_consent=floor_consent)
    hand = Hand(room_id=table.room_id, table_id=table.id, hand_no=hand_no, at=unit.now,
                staff_id=unit.actor.staff_id, button=plan.table.button,
                small_blind_seat=plan.table.small_blind_seat, big_blind_seat=plan.table.big_blind_seat,
                dealt_in=list(plan.dealt_in),
                posts=[{"seat_no": p.seat_no, "kind": p.kind, "amount": p.amount} for p in plan.posts],
                straddles=[{"seat_no": s.seat_no, "amount": s.amount} for s in straddles],
                spell_id=down)
    unit.session.add(hand)
    _store_seats(unit.session, unit.now, plan, sat)
    played = _blinds_of_played_over(plan, sat)
    _store_played_over(unit.session, unit.now, sat, played)
    unit.audit("hand.recorded", ("table", table.id), hand_no=hand_no,
               button=hand.button, small_blind_seat=hand.small_blind_seat,
               big_blind_seat=hand.big_blind_seat, posts=hand.posts, straddles=hand.straddles,
               missed_sb=list(plan.missed_sb), missed_bb=list(plan.missed_bb))
    missed = [absence for n in {*plan.missed_bb, *played["big_blind"]}
              if (absence := sat[n].absence) is not None]
    lost = count_missed_big_blinds(unit, missed)
    if table.feeds_table_id is not None and room.must_move_when == "big_blind":
        unit.emit(SeatsMayOpen(game.id))  # R17: the big blind moved on to the next mover
    # R26: the seats lost to blinds are released first, then the hand's end follows (R36)
    unit.emit(SeatsLostToBlinds(game.id, tuple(a.id for a in lost), table.id) if lost
              else HandRecorded(table.id))
    return hand


def _down_at(session: Session, room: Room, table: Table) -> int | None:
    """R63: the down the hand is dealt in, where the room runs its dealers' roster here; a table
    with no dealer assigned records no hand."""
    if not room.dealer_rotation:
        return None
    down = session.scalar(select(DealerSpell.id).where(DealerSpell.table_id == table.id,
                                                       DealerSpell.ended_at.is_(None)))
    if down is None:
        raise Conflict(f"table {table.name} has no dealer assigned: the dealer coordinator assigns one "
                       "before a hand is recorded", "R63")
    return down


@dataclass(frozen=True)
class DealerView:
    """What the dealer sees: the last hand, the next hand's positions if nobody posts (None before
    the first hand, or when it cannot be dealt without a fresh draw, R33), every seat's state, and
    the hands each seat still sits out (R55)."""

    last: Hand | None
    plan: HandPlan | None
    seats: list[SeatState]
    dealt_out: dict[int, int]


def preview(session: Session, actor: Actor, table_id: int) -> DealerView:
    table = table_in_room(session, actor, table_id)
    game = session.get_one(Game, table.game_id)
    room = session.get_one(Room, actor.room_id)
    last = last_hand(session, table.id)
    sat = sittings(session, table.id)
    state = table_state(table, game, last, sat, room.post_behind_button)
    seats = seat_states(state, sat, game.posting(room.new_player_posting))
    try:
        plan = None if last is None else next_hand(state, seats)
    except Conflict:
        plan = None
    nxt = state.hand_no + 1
    out = {n: left for n, s in sat.items() if (left := s.dealt_out(nxt))}
    return DealerView(last, plan, seats, out)


def in_turn(plan: HandPlan, count: int) -> list[Straddle]:
    """R40: ``count`` straddles in rotation from the player left of the big blind, each twice the
    big blind or the previous straddle (more than there are players is refused by the check)."""
    order = straddle_order(plan)
    return [Straddle(order[i % len(order)] if order else 0, plan.table.big_blind * 2 ** (i + 1))
            for i in range(count)]


def straddle_settings(game: Game) -> StraddleSettings:
    """R40, as set on the game (``max_straddles`` 0 with straddles allowed: no limit)."""
    return StraddleSettings(allowed=game.straddle_allowed, max_straddles=game.max_straddles,
                            button_straddle=game.button_straddle,
                            sanction_required=game.straddle_sanction)


def _open_table(session: Session, actor: Actor, table_id: int) -> tuple[Table, Game]:
    table = table_in_room(session, actor, table_id)
    game = locked_game(session, table.game_id)
    if table.status != "open":
        raise Conflict(f"table {table.name} is closed: no hand can be recorded there", "R5")
    return table, game


def _require_seats(seats: int, seat_nos: Sequence[int]) -> None:
    """R4: seats of the table as it is now (``seats``: its seat count, N+1 while one over)."""
    for n in seat_nos:
        if not 1 <= n <= seats:
            raise Invalid(f"seat {n} does not exist at a {seats}-seat table", "R4")


def _store_seats(session: Session, now: datetime, plan: HandPlan, sat: dict[int, Sitting]) -> None:
    """R35/R36: each seated player's buttons and debts after the hand; an absent player who never
    played here stays new."""
    for seat in plan.seats:
        s = sat.get(seat.seat_no)
        if s is None or s.played_over:
            continue
        status = seat.status if seat.status != "absent" else (
            s.blinds.status if s.blinds is not None else "new")
        values = {"status": status, "missed_sb": seat.missed_sb, "missed_bb": seat.missed_bb,
                  "owes_bb": seat.owes_bb}
        _write_blinds(session, now, s, values)


def _store_played_over(session: Session, now: datetime, sat: dict[int, Sitting],
                       posted: dict[str, set[int]]) -> None:
    """R35/R29: the overplayer posted the seat's blind, so its absent owner missed it: the owner
    keeps their buttons and gets the missed SB or BB button."""
    for n, s in sat.items():
        if not s.played_over:
            continue
        b = s.blinds
        _write_blinds(session, now, s, {
            "status": b.status if b else "new", "owes_bb": b.owes_bb if b else False,
            "missed_sb": bool(b and b.missed_sb) or n in posted["small_blind"],
            "missed_bb": bool(b and b.missed_bb) or n in posted["big_blind"]})


def _blinds_of_played_over(plan: HandPlan, sat: dict[int, Sitting]) -> dict[str, set[int]]:
    """The played-over seats whose small or big blind came round this hand (R29, R35)."""
    kinds: dict[str, set[int]] = {"small_blind": set(), "big_blind": set()}
    for p in plan.posts:
        if p.kind in kinds and p.seat_no in sat and sat[p.seat_no].played_over:
            kinds[p.kind].add(p.seat_no)
    return kinds


def _write_blinds(session: Session, now: datetime, s: Sitting, values: Mapping[str, object]) -> None:
    if s.blinds is None:
        session.add(SeatBlinds(hold_id=s.hold_id, updated_at=now, **values))
    elif any(getattr(s.blinds, k) != v for k, v in values.items()):
        for k, v in values.items():
            setattr(s.blinds, k, v)
        s.blinds.updated_at = now
