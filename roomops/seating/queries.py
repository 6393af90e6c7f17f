"""Reading a game's seats and lists for the R14 allocation."""

from __future__ import annotations

from sqlalchemy import Row, and_, or_, select
from sqlalchemy.orm import Session, aliased

from roomops.games.models import Game, Table
from roomops.lists.models import ListEntry
from roomops.rooms.models import BarredPair
from roomops.seating.allocation import Candidate, TableState
from roomops.seating.models import OFFER, SeatHold

# built once: creating an alias costs more than the rest of the statement (benchmarked)
_OFFER = aliased(SeatHold, name="offer")


def live_holds(session: Session, table_ids: list[int]) -> list[Row[tuple[int, int, int, int]]]:
    """(id, table_id, seat_no, player_id) of every live offer and seated player at the tables."""
    if not table_ids:
        return []
    stmt = select(SeatHold.id, SeatHold.table_id, SeatHold.seat_no, SeatHold.player_id).where(
        SeatHold.table_id.in_(table_ids), SeatHold.ended_at.is_(None))
    return list(session.execute(stmt))


def table_states(session: Session, game: Game, only: int | None = None) -> list[TableState]:
    """Open tables of the game with their free seats and the players seated at or called to them:
    one statement, each table joined to its live holds."""
    stmt = select(Table.id, SeatHold.seat_no, SeatHold.player_id).outerjoin(SeatHold, and_(
        SeatHold.table_id == Table.id, SeatHold.ended_at.is_(None))).where(
        Table.game_id == game.id, Table.status == "open")
    if only is not None:
        stmt = stmt.where(Table.id == only)
    states: dict[int, TableState] = {}
    taken: dict[int, set[int]] = {}
    for table_id, seat_no, player_id in session.execute(stmt):
        state = states.setdefault(table_id, TableState(table_id, [], set()))
        if seat_no is not None:
            taken.setdefault(table_id, set()).add(seat_no)
            state.players.add(player_id)
    for tid, state in states.items():
        state.open_seats = [n for n in range(1, game.seats_per_table + 1) if n not in taken.get(tid, ())]
    return list(states.values())


def candidates(session: Session, game: Game) -> tuple[list[Candidate], set[int]]:
    """Active entries of the game's waiting list and its tables' reserve lists, and those of their
    players who already hold an open offer anywhere in the room (not eligible, R14): one statement.

    A phone entry that has not checked in keeps its place but is not offered a seat (R12)."""
    offer = _OFFER
    stmt = select(ListEntry.id, ListEntry.player_id, ListEntry.queue_at, ListEntry.table_id,
                  offer.id).outerjoin(offer, and_(
        offer.room_id == ListEntry.room_id, offer.player_id == ListEntry.player_id,
        offer.kind == OFFER, offer.ended_at.is_(None))).where(
        ListEntry.game_id == game.id,
        ListEntry.status == "active",
        or_(ListEntry.checkin_deadline.is_(None), ListEntry.checked_in_at.is_not(None)),
    )
    found: list[Candidate] = []
    busy: set[int] = set()
    for entry_id, player_id, queue_at, table_id, offer_id in session.execute(stmt):
        found.append(Candidate(entry_id, player_id, queue_at, table_id))
        if offer_id is not None:
            busy.add(player_id)
    return found, busy


def holds_offer(session: Session, room_id: int, player_id: int) -> bool:
    return session.scalar(select(SeatHold.id).where(
        SeatHold.room_id == room_id, SeatHold.player_id == player_id, SeatHold.kind == "offer",
        SeatHold.ended_at.is_(None))) is not None


def barred_pairs(session: Session, room_id: int) -> set[frozenset[int]]:
    stmt = select(BarredPair.player_low_id, BarredPair.player_high_id).where(
        BarredPair.room_id == room_id, BarredPair.lifted_at.is_(None)
    )
    return {frozenset(row) for row in session.execute(stmt)}
