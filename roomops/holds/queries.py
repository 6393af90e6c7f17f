"""Reading seat holds: a hold with its place, a seated player's hold (locked), the live holds of
tables, who holds an offer or plays over a seat, and the room's barred pairs (R14, R15, R29)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Row, bindparam, func, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, in_room
from roomops.errors import Conflict
from roomops.games.locks import locked_game
from roomops.games.models import Game, Table
from roomops.holds.models import OFFER, SEATED, SeatHold
from roomops.holds.playovers import Playover
from roomops.holds.refusals import player_name, seat_name
from roomops.rooms.models import BarredPair, Room

_LIVE_HOLDS = select(SeatHold.id, SeatHold.table_id, SeatHold.seat_no, SeatHold.player_id).where(
    SeatHold.table_id.in_(bindparam("tables", expanding=True)), SeatHold.ended_at.is_(None))


_HOLDS_OFFER = select(SeatHold.id).where(
    SeatHold.room_id == bindparam("room_id"), SeatHold.player_id == bindparam("player_id"),
    SeatHold.kind == OFFER, SeatHold.ended_at.is_(None))


_BARRED = select(BarredPair.player_low_id, BarredPair.player_high_id).where(
    BarredPair.room_id == bindparam("room_id"), BarredPair.lifted_at.is_(None))


_HOLD_IN_PLACE = select(SeatHold, Table, Game, Room).join(Table, Table.id == SeatHold.table_id).join(
    Game, Game.id == Table.game_id).join(Room, Room.id == SeatHold.room_id).where(
    SeatHold.id == bindparam("id"))


def hold_in_room(session: Session, actor: Actor, hold_id: int, what: str,
                 rule: str | None = None) -> SeatHold:
    """``get_in_room`` for a seat hold (R1), read in one statement with its table, game and room,
    which every action on a seat reads next (the session then has them)."""
    hold: SeatHold | None = session.scalars(_HOLD_IN_PLACE, {"id": hold_id}).first()
    return in_room(hold, hold_id, actor, what, rule)


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


def live_holds(session: Session, table_ids: list[int]) -> list[Row[tuple[int, int, int, int]]]:
    """(id, table_id, seat_no, player_id) of every live offer and seated player at the tables."""
    if not table_ids:
        return []
    return list(session.execute(_LIVE_HOLDS, {"tables": table_ids}))


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


def seated_counts(session: Session, table_ids: list[int]) -> dict[int, int]:
    """How many players sit at each of the tables (seated, not called); a table nobody sits at
    is left out."""
    return dict(session.execute(select(SeatHold.table_id, func.count()).where(
        SeatHold.table_id.in_(table_ids), SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))
        .group_by(SeatHold.table_id)).tuples().all())


def barred_pairs(session: Session, room_id: int) -> set[frozenset[int]]:
    return set(map(frozenset, session.execute(_BARRED, {"room_id": room_id})))


_LIVE_SEAT_IN_GAME = select(SeatHold).join(Table, Table.id == SeatHold.table_id).where(
    SeatHold.player_id == bindparam("player_id"), SeatHold.kind == SEATED,
    SeatHold.ended_at.is_(None), Table.game_id == bindparam("game_id"))


def seated_in(session: Session, game: Game, player_id: int) -> SeatHold | None:
    """The player's live seat at a table of ``game``, if any (R18)."""
    return session.scalar(_LIVE_SEAT_IN_GAME, {"player_id": player_id, "game_id": game.id})
