"""Reading a game's seats and lists for the R14 allocation."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Row, and_, bindparam, func, or_, select
from sqlalchemy.orm import Session, aliased

from roomops.absences.models import Absence
from roomops.actors import Actor, get_in_room, in_room
from roomops.errors import Conflict
from roomops.games.locks import locked_game
from roomops.games.models import Game, Table
from roomops.lists.models import ListEntry
from roomops.playovers.models import Playover
from roomops.rooms.models import BarredPair, Player, Room
from roomops.seating.allocation import Candidate, TableState
from roomops.seating.extra_seat import offerable
from roomops.seating.models import OFFER, SEATED, SeatChangeRequest, SeatHold
from roomops.seating.refusals import player_name, seat_name

_OFFER = aliased(SeatHold, name="offer")
_LIVE_HOLDS = select(SeatHold.id, SeatHold.table_id, SeatHold.seat_no, SeatHold.player_id).where(
    SeatHold.table_id.in_(bindparam("tables", expanding=True)), SeatHold.ended_at.is_(None))
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
_CANDIDATES = select(ListEntry.id, ListEntry.player_id, ListEntry.queue_at, ListEntry.table_id,
                     _OFFER.id).outerjoin(_OFFER, and_(
    _OFFER.room_id == ListEntry.room_id, _OFFER.player_id == ListEntry.player_id,
    _OFFER.kind == OFFER, _OFFER.ended_at.is_(None))).where(
    ListEntry.game_id == bindparam("game_id"), ListEntry.status == "active",
    or_(ListEntry.checkin_deadline.is_(None), ListEntry.checked_in_at.is_not(None)),
    ListEntry.locked_until.is_(None)).order_by(ListEntry.queue_at, ListEntry.id)


_REQUESTERS = select(SeatChangeRequest.id, SeatChangeRequest.player_id, SeatChangeRequest.asked_at,
                     SeatChangeRequest.table_id, SeatChangeRequest.hold_id, _OFFER.id).outerjoin(
    _OFFER, and_(_OFFER.room_id == SeatChangeRequest.room_id,
                 _OFFER.player_id == SeatChangeRequest.player_id, _OFFER.kind == OFFER,
                 _OFFER.ended_at.is_(None))).where(
    SeatChangeRequest.table_id.in_(bindparam("tables", expanding=True)),
    SeatChangeRequest.ended_at.is_(None))


# ``_CANDIDATES`` that could go to the tables given, holding no offer
_FIRST_CANDIDATES = _CANDIDATES.where(_OFFER.id.is_(None), or_(
    ListEntry.table_id.is_(None), ListEntry.table_id.in_(bindparam("tables", expanding=True)))).limit(
    bindparam("first"))
_ENTRY_AND_OFFER = select(ListEntry, _OFFER.id).outerjoin(_OFFER, and_(
    _OFFER.room_id == ListEntry.room_id, _OFFER.player_id == ListEntry.player_id,
    _OFFER.kind == OFFER, _OFFER.ended_at.is_(None))).where(ListEntry.id == bindparam("id"))
_HOLDS_OFFER = select(SeatHold.id).where(
    SeatHold.room_id == bindparam("room_id"), SeatHold.player_id == bindparam("player_id"),
    SeatHold.kind == OFFER, SeatHold.ended_at.is_(None))
_LIVE_AT_TABLE = select(func.count()).select_from(SeatHold).where(
    SeatHold.table_id == Table.id, SeatHold.ended_at.is_(None)).scalar_subquery()
_ANY_OPEN_SEAT = select(Table.id).where(Table.game_id == bindparam("game_id"), Table.status == "open",
                                        bindparam("seats") > _LIVE_AT_TABLE).limit(1)
_BARRED = select(BarredPair.player_low_id, BarredPair.player_high_id).where(
    BarredPair.room_id == bindparam("room_id"), BarredPair.lifted_at.is_(None))
_HOLD_IN_PLACE = select(SeatHold, Table, Game, Room).join(Table, Table.id == SeatHold.table_id).join(
    Game, Game.id == Table.game_id).join(Room, Room.id == SeatHold.room_id).where(
    SeatHold.id == bindparam("id"))
_LIVE_ABSENCES = select(Absence).where(Absence.hold_id.in_(bindparam("holds", expanding=True)),
                                      Absence.ended_at.is_(None))


def hold_in_room(session: Session, actor: Actor, hold_id: int, what: str,
                 rule: str | None = None) -> SeatHold:
    """``get_in_room`` for a seat hold (R1), read in one statement with its table, game and room,
    which every action on a seat reads next (the session then has them)."""
    hold: SeatHold | None = session.scalars(_HOLD_IN_PLACE, {"id": hold_id}).first()
    return in_room(hold, hold_id, actor, what, rule)


def entry_in_room(session: Session, actor: Actor, entry_id: int) -> tuple[ListEntry, bool]:
    """``get_in_room`` for a list entry, and whether its player holds an open offer (R14), read
    in one statement."""
    row = session.execute(_ENTRY_AND_OFFER, {"id": entry_id}).first()
    return get_in_room(session, ListEntry, entry_id, actor, "list entry"), row is not None and (
        row[1] is not None)


def seated_hold(session: Session, actor: Actor, hold_id: int, rule: str, *,
                lock: bool = True) -> tuple[SeatHold, Table, Game]:
    """The hold of a player seated now, with its table and game: what every action on a seated
    player starts from (a break, time away, a playover, a move, a seat change, a penalty). With
    ``lock`` the game is locked first and the hold read again after the lock, so a change
    committed meanwhile is seen. No seat hold with that id in the room: 404 (R1); nobody seated on
    it now (an offer, or a seat already left): 409; both name ``rule``."""
    hold = hold_in_room(session, actor, hold_id, "seat", rule)
    table = session.get_one(Table, hold.table_id)
    game = (locked_game(session, table.game_id, reread=hold) if lock
            else session.get_one(Game, table.game_id))
    if hold.kind != "seated":
        raise Conflict(f"{seat_name(session, hold)} is called for {player_name(session, hold.player_id)}"
                       ": nobody is seated there yet", rule)
    if hold.ended_at is not None:
        raise Conflict(f"{player_name(session, hold.player_id)} has left {seat_name(session, hold)}: "
                       "nobody is seated there now", rule)
    return hold, table, game


def live_absences(session: Session, hold_ids: list[int]) -> list[Absence]:
    """The running breaks and times away (R23, R25) on these seats, at most one each."""
    return list(session.scalars(_LIVE_ABSENCES, {"holds": hold_ids}))


def live_holds(session: Session, table_ids: list[int]) -> list[Row[tuple[int, int, int, int]]]:
    """(id, table_id, seat_no, player_id) of every live offer and seated player at the tables."""
    if not table_ids:
        return []
    return list(session.execute(_LIVE_HOLDS, {"tables": table_ids}))


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


def candidates(session: Session, game: Game, first: tuple[int, list[int]] | None = None
               ) -> tuple[list[Candidate], set[int]]:
    """Active entries of the game's waiting list and its tables' reserve lists in list order, and
    those of their players who already hold an open offer anywhere in the room (not eligible,
    R14): one statement. ``first`` (n, table ids): only the first n entries that could go to one
    of those tables (on the waiting list or those tables' reserve lists, holding no offer).

    A phone entry that has not checked in (R12), or one locked up (R13), keeps its place but is
    not offered a seat."""
    found: list[Candidate] = []
    busy: set[int] = set()
    stmt, params = (_CANDIDATES, {"game_id": game.id}) if first is None else (
        _FIRST_CANDIDATES, {"game_id": game.id, "first": first[0], "tables": first[1]})
    for entry_id, player_id, queue_at, table_id, offer_id in session.execute(stmt, params):
        found.append(Candidate(entry_id, player_id, queue_at, table_id))
        if offer_id is not None:
            busy.add(player_id)
    return found, busy


def playing_over(session: Session, room_id: int, player_ids: Collection[int]) -> set[int]:
    """R29: those of the players playing over a seat in the room now."""
    if not player_ids:
        return set()
    return set(session.scalars(select(Playover.player_id).where(
        Playover.room_id == room_id, Playover.ended_at.is_(None),
        Playover.player_id.in_(list(player_ids)))))


_PLAYOVER_SEAT = select(Table.name, SeatHold.seat_no).select_from(Playover).join(
    SeatHold, SeatHold.id == Playover.hold_id).join(Table, Table.id == SeatHold.table_id).where(
    Playover.room_id == bindparam("room"), Playover.player_id == bindparam("player"),
    Playover.ended_at.is_(None))


def playover_seat(session: Session, room_id: int, player_id: int) -> tuple[str, int] | None:
    """R29: the table's name and the seat number of the seat the player plays over now, if any."""
    row = session.execute(_PLAYOVER_SEAT, {"room": room_id, "player": player_id}).first()
    return None if row is None else (row[0], row[1])


def holds_offer(session: Session, room_id: int, player_id: int) -> bool:
    return session.scalar(_HOLDS_OFFER, {"room_id": room_id, "player_id": player_id}) is not None


def any_open_seat(session: Session, game: Game) -> bool:
    """Whether an open table of the game has a seat nobody sits in or is called to, under its
    count (a hold in the extra seat counts, R4): one row at most, where ``table_states`` hands
    back one per seat taken."""
    return session.scalar(_ANY_OPEN_SEAT, {"game_id": game.id, "seats": game.seats_per_table}
                          ) is not None


def seated_counts(session: Session, table_ids: list[int]) -> dict[int, int]:
    """How many players sit at each of the tables (seated, not called); a table nobody sits at
    is left out."""
    return dict(session.execute(select(SeatHold.table_id, func.count()).where(
        SeatHold.table_id.in_(table_ids), SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))
        .group_by(SeatHold.table_id)).tuples().all())


def barred_pairs(session: Session, room_id: int) -> set[frozenset[int]]:
    return set(map(frozenset, session.execute(_BARRED, {"room_id": room_id})))


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
