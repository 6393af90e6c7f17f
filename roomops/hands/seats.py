"""Reading a table's seats as the blind engine sees them (R33-R36): who sits where, who is absent,
and each player's missed-blind buttons and debts."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import Session

from roomops.absences.models import Absence
from roomops.blinds.missed import NewPlayerPosting, arrive
from roomops.blinds.positions import next_hand
from roomops.blinds.state import SeatState, TableState
from roomops.errors import Conflict
from roomops.games.models import Game, Table
from roomops.hands.models import Hand, PenaltyRecord, SeatBlinds
from roomops.holds.extra_seat import seat_count
from roomops.holds.models import SEATED, SeatHold
from roomops.holds.playovers import Playover


@dataclass(frozen=True)
class Sitting:
    """A seated player's hold, with its stored blind state and live absence, if any."""

    hold_id: int
    seat_no: int
    player_id: int
    no_blind_owed: bool  # R19: moved by the floor or from a broken table
    blinds: SeatBlinds | None
    absence: Absence | None
    out_until: int | None  # R55: dealt out up to and including this hand number
    played_over: bool  # R29: a waiting player plays the absent owner's seat

    def dealt_out(self, hand_no: int) -> int:
        """R55: hands still to sit out, counting hand ``hand_no``."""
        return max(0, (self.out_until or 0) - hand_no + 1)


# R55: the last hand a seat's sit-outs run to, per seat hold
_OUT_UNTIL = (select(func.max(PenaltyRecord.from_hand_no + PenaltyRecord.hands_out))
              .where(PenaltyRecord.hold_id == SeatHold.id, PenaltyRecord.hands_out > 0)
              .correlate(SeatHold).scalar_subquery())


# built once: every hand recorded runs them (docs/benchmarks.md)
_SITTINGS = select(SeatHold.id, SeatHold.seat_no, SeatHold.player_id, SeatHold.no_blind_owed,
                   SeatBlinds, Absence, _OUT_UNTIL, Playover.id.is_not(None)).outerjoin(
    SeatBlinds, SeatBlinds.hold_id == SeatHold.id).outerjoin(
    Absence, and_(Absence.hold_id == SeatHold.id, Absence.ended_at.is_(None))).outerjoin(
    Playover, and_(Playover.hold_id == SeatHold.id, Playover.ended_at.is_(None))).where(
    SeatHold.table_id == bindparam("table_id"), SeatHold.kind == SEATED,
    SeatHold.ended_at.is_(None))
_LAST_HAND = (select(Hand).where(Hand.table_id == bindparam("table_id"))
              .order_by(Hand.hand_no.desc()).limit(1))


def sittings(session: Session, table_id: int) -> dict[int, Sitting]:
    """The table's seated players by seat number: one statement."""
    return {row.seat_no: Sitting(*row)
            for row in session.execute(_SITTINGS, {"table_id": table_id})}


def seat_states(table: TableState, sat: dict[int, Sitting],
                policy: NewPlayerPosting) -> list[SeatState]:
    """R35/R36: every seat of the table for its next hand; a player with no stored state yet is new
    (``arrive``), owing nothing if moved by the floor or from a broken table (R19); a player
    on a break or away (R25), or sitting out a penalty (R55), is absent and keeps their
    buttons. A played-over seat (R29) is dealt in: the overplayer plays it, owing nothing."""
    nxt = table.hand_no + 1
    return [_state(n, sat.get(n), policy, nxt) for n in range(1, table.seats_per_table + 1)]


def _state(seat_no: int, s: Sitting | None, policy: NewPlayerPosting, hand_no: int) -> SeatState:
    if s is None:
        return SeatState(seat_no)
    if s.played_over:
        return SeatState(seat_no, s.player_id)
    if s.blinds is None:
        seat = arrive(seat_no, s.player_id, "floor_move" if s.no_blind_owed else "new", policy)
    else:
        b = s.blinds
        seat = SeatState(seat_no, s.player_id, "new" if b.status == "new" else "active",
                         b.missed_sb, b.missed_bb, b.owes_bb)
    return SeatState(seat.seat_no, seat.player_id, "absent", seat.missed_sb, seat.missed_bb,
                     seat.owes_bb) if s.absence is not None or s.dealt_out(hand_no) else seat


def last_hand(session: Session, table_id: int) -> Hand | None:
    return session.scalar(_LAST_HAND, {"table_id": table_id})


def table_state(table: Table, game: Game, last: Hand | None, sat: dict[int, Sitting],
                behind_button: bool = False) -> TableState:
    """R33/R34: the positions of the table's last hand (none before the first) and the stakes;
    Dealer's Choice has the button post the small blind. The table's seat count (R4): N+1 while
    someone sits in the extra seat, or while the last hand's button or a blind is there, so they
    move on round it (``extra_seat.seat_count``). ``behind_button``: the room's
    ``post_behind_button`` (R35), which only says who may post, not where the blinds go."""
    positions = {} if last is None else {
        "hand_no": last.hand_no, "button": last.button, "small_blind_seat": last.small_blind_seat,
        "big_blind_seat": last.big_blind_seat}
    places = [] if last is None else [last.button, last.small_blind_seat, last.big_blind_seat]
    return TableState(seat_count(game.seats_per_table, sat, places), game.small_blind, game.big_blind,
                      dealers_choice=is_dealers_choice(game.variant),
                      post_behind_button=behind_button, **positions)


def next_big_blind(session: Session, table: Table, game: Game,
                   posting: NewPlayerPosting) -> int | None:
    """R17/R34: the seat the big blind reaches in the table's next hand if nobody posts; None
    before the table's first hand, or when the next hand needs a fresh draw for the button
    (R33)."""
    last = last_hand(session, table.id)
    if last is None:
        return None
    sat = sittings(session, table.id)
    state = table_state(table, game, last, sat)
    try:
        return next_hand(state, seat_states(state, sat, posting)).table.big_blind_seat
    except Conflict:
        return None


def is_dealers_choice(variant: str) -> bool:
    return variant.strip().casefold().replace("\u2019", "'") == "dealer's choice"
