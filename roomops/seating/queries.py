"""Reading a game's seats for the R14 allocation: its open tables, the must-movers (R17) and the
seat-change requesters (R36); the lists' candidates are ``roomops.lists.reads``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import and_, bindparam, func, select
from sqlalchemy.orm import Session, aliased

from roomops.absences.models import Absence
from roomops.games.models import Game, Table
from roomops.holds.allocation import Candidate, TableState
from roomops.holds.extra_seat import offerable
from roomops.holds.models import OFFER, SEATED, SeatChangeRequest, SeatHold
from roomops.rooms.models import Player

_OFFER = aliased(SeatHold, name="offer")
_TABLE_STATES = select(Table.id, Table.feeds_table_id, SeatHold.seat_no, SeatHold.player_id,
                       SeatHold.kind).outerjoin(SeatHold, and_(
    SeatHold.table_id == Table.id, SeatHold.ended_at.is_(None))).where(
    Table.game_id == bindparam("game_id"), Table.status == "open")
_FEEDER, _MAIN, _MOVER_OFFER = aliased(Table), aliased(Table), aliased(SeatHold)
_MUST_MOVERS = select(SeatHold.id, SeatHold.player_id, SeatHold.started_at, _FEEDER.feeds_table_id,
                      _MOVER_OFFER.id).join(_FEEDER, _FEEDER.id == SeatHold.table_id).join(
    _MAIN, _MAIN.id == _FEEDER.feeds_table_id).outerjoin(Absence, and_(
    Absence.hold_id == SeatHold.id, Absence.ended_at.is_(None))).outerjoin(_MOVER_OFFER, and_(
    _MOVER_OFFER.room_id == SeatHold.room_id, _MOVER_OFFER.player_id == SeatHold.player_id,
    _MOVER_OFFER.kind == OFFER, _MOVER_OFFER.ended_at.is_(None))).where(
    _FEEDER.game_id == bindparam("game_id"), _FEEDER.status == "open", _MAIN.status == "open",
    SeatHold.kind == SEATED, SeatHold.ended_at.is_(None), Absence.id.is_(None))


_REQUESTERS = select(SeatChangeRequest.id, SeatChangeRequest.player_id, SeatChangeRequest.asked_at,
                     SeatChangeRequest.table_id, SeatChangeRequest.hold_id, _OFFER.id).outerjoin(
    _OFFER, and_(_OFFER.room_id == SeatChangeRequest.room_id,
                 _OFFER.player_id == SeatChangeRequest.player_id, _OFFER.kind == OFFER,
                 _OFFER.ended_at.is_(None))).where(
    SeatChangeRequest.table_id.in_(bindparam("tables", expanding=True)),
    SeatChangeRequest.ended_at.is_(None))


_LIVE_AT_TABLE = select(func.count()).select_from(SeatHold).where(
    SeatHold.table_id == Table.id, SeatHold.ended_at.is_(None)).scalar_subquery()
_ANY_OPEN_SEAT = select(Table.id).where(Table.game_id == bindparam("game_id"), Table.status == "open",
                                        bindparam("seats") > _LIVE_AT_TABLE).limit(1)


@dataclass
class GameSeats:
    """The open tables of a game (``TableState``), which table each seated player sits at (R18),
    whether any table feeds a main table (R17) and each table's held seats (seat number: hold
    kind; R4, one over)."""

    states: list[TableState]
    seated_at: dict[int, int] = field(default_factory=dict)
    must_move: bool = False
    taken: dict[int, dict[int, str]] = field(default_factory=dict)

    def seated_nos(self, table_id: int) -> set[int]:
        return {n for n, kind in self.taken.get(table_id, {}).items() if kind == "seated"}


def table_states(session: Session, game: Game) -> GameSeats:
    """Open tables of the game with the seats to offer (R14/R20: none while a table is at or over
    its count, ``extra_seat.offerable``) and the players seated at or called to them: one
    statement, each table joined to its live holds (one row per seat taken, so the loop does as
    little as it can for each)."""
    found = GameSeats([])
    states: dict[int, TableState] = {}
    taken = found.taken
    for table_id, feeds, seat_no, player_id, kind in session.execute(_TABLE_STATES,
                                                                     {"game_id": game.id}):
        state = states.get(table_id)
        if state is None:
            state = states[table_id] = TableState(table_id, [], set())
            taken[table_id] = {}
            found.must_move = found.must_move or feeds is not None
        if seat_no is None:
            continue  # a table with no seat taken
        taken[table_id][seat_no] = kind
        state.players.add(player_id)
        if kind == "seated":
            state.seated += 1
            found.seated_at[player_id] = table_id
    for state in states.values():
        state.open_seats = offerable(game.seats_per_table, taken[state.table_id])
    found.states = list(states.values())
    return found


def must_movers(session: Session, game: Game) -> tuple[list[Candidate], set[int]]:
    """R17: every player seated at a must-move table of the game whose main table is open, due
    that main table only, in the order they sat down; and those of them holding an open offer
    (not eligible, R14). A player on a break or away cannot move now and is passed over. One
    statement."""
    found: list[Candidate] = []
    busy: set[int] = set()
    for hold_id, player_id, started_at, main_id, offer_id in session.execute(
            _MUST_MOVERS, {"game_id": game.id}):
        found.append(Candidate(None, player_id, started_at, main_id, from_hold_id=hold_id))
        if offer_id is not None:
            busy.add(player_id)
    return found, busy


def requesters(session: Session, table_ids: list[int]) -> tuple[list[Candidate], set[int]]:
    """R14/R36: the players asking for a seat change at these tables, each due a seat of their
    own table only, and those of them holding an open offer (not eligible): one statement."""
    found: list[Candidate] = []
    busy: set[int] = set()
    if not table_ids:
        return found, busy
    for request_id, player_id, asked_at, table_id, hold_id, offer_id in session.execute(
            _REQUESTERS, {"tables": table_ids}):
        found.append(Candidate(None, player_id, asked_at, table_id, from_hold_id=hold_id,
                               seat_change_id=request_id))
        if offer_id is not None:
            busy.add(player_id)
    return found, busy


def any_open_seat(session: Session, game: Game) -> bool:
    """Whether an open table of the game has a seat nobody sits in or is called to, under its
    count (a hold in the extra seat counts, R4): one row at most, where ``table_states`` hands
    back one per seat taken."""
    return session.scalar(_ANY_OPEN_SEAT, {"game_id": game.id, "seats": game.seats_per_table}
                          ) is not None


@dataclass(frozen=True)
class Called:
    """R20/R22: a seat of the table with a live offer: who is called, until when, and the claim
    time left at ``now`` (derived from the deadline, so it reads right before the sweep runs)."""

    seat_no: int
    player: Player
    deadline: datetime
    seconds_left: int


def called_at(session: Session, table_id: int, now: datetime) -> list[Called]:
    """The table's called seats, by seat: offers not ended whose deadline is still ahead."""
    rows = session.execute(select(SeatHold.seat_no, Player, SeatHold.deadline).join(
        Player, Player.id == SeatHold.player_id).where(
        SeatHold.table_id == table_id, SeatHold.kind == OFFER, SeatHold.ended_at.is_(None),
        SeatHold.deadline > now).order_by(SeatHold.seat_no))
    return [Called(seat_no, player, deadline, int((deadline - now).total_seconds()))
            for seat_no, player, deadline in rows]
