"""Locking a game, and finding a table, in the actor's room: every seat and list change of every
package starts here (R1), so it sits below them all."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, in_room
from roomops.errors import NotFound
from roomops.games.models import Game, Table
from roomops.rooms.models import Room

# built once: every seat and list change runs them (docs/benchmarks.md)
_LOCK_ROOM = select(Room.id).where(Room.id == bindparam("room_id")).with_for_update(key_share=True)
_TABLE_AND_GAME = select(Table, Game).join(Game, Game.id == Table.game_id).where(
    Table.id == bindparam("table_id"))
_LOCK_GAME = (select(Game).where(Game.id == bindparam("game_id")).with_for_update()
              .execution_options(populate_existing=True))
_GAMES = select(Game).where(Game.room_id == bindparam("room_id"),
                            Game.id.in_(bindparam("game_ids", expanding=True))).order_by(Game.id)
_LOCK_GAMES = _GAMES.with_for_update().execution_options(populate_existing=True)


def table_in_room(session: Session, actor: Actor, table_id: int) -> Table:
    """The table of that id in the actor's room (R1), or NotFound; read with its game in one
    statement (every action on a table reads the game next: the session then has it)."""
    table: Table | None = session.scalars(_TABLE_AND_GAME, {"table_id": table_id}).first()
    return in_room(table, table_id, actor, "table")


def lock_room(session: Session, room_id: int) -> None:
    """PostgreSQL: take the room's lock (``FOR NO KEY UPDATE``: inserts referencing the room are
    not blocked), first, before any other lock. Every change of what the public board shows of the
    room's games takes it, since each such change also moves its game's board mark (a row the
    triggers of migration 0020 update): a writer that took a seat's lock first and the mark's
    second could deadlock with one holding the room, the mark and waiting for that seat. SQLite:
    nothing to do (the transaction holds the database's one write lock)."""
    if session.get_bind().dialect.name != "sqlite":
        session.scalar(_LOCK_ROOM, {"room_id": room_id})


def lock_rooms(session: Session, room_ids: Select[tuple[int]]) -> None:
    """``lock_room`` for the rooms ``room_ids`` selects, in the order of their ids, for a writer
    that finds its rows before its room (the outbox's sender: a text's state moves its game's desk
    mark, migration 0043)."""
    if session.get_bind().dialect.name != "sqlite":
        session.execute(select(Room.id).where(Room.id.in_(room_ids)).order_by(Room.id)
                        .with_for_update(key_share=True))


def lock_game(session: Session, game_id: int) -> Game | None:
    """Serialise every seat and list change of a room. None when the game does not exist.

    PostgreSQL: the game's room row is locked first (``FOR NO KEY UPDATE``, so inserts referencing
    the room are not blocked): one open offer and one live seat per player are room-wide (R10, R14,
    R21), so two games of a room must not hand the same player an offer or a seat at the same time.
    Everyone takes the room lock before any game lock, so these locks cannot deadlock.

    SQLite: every write transaction begins IMMEDIATE and so holds the database's one write lock
    from its first statement; nothing it read can be stale, and there is no row to lock."""
    game = session.get(Game, game_id)  # usually in the session already; its room never changes
    if game is None or session.get_bind().dialect.name == "sqlite":
        return game
    lock_room(session, game.room_id)
    return session.execute(_LOCK_GAME, {"game_id": game_id}).scalar_one_or_none()


def lock_games(session: Session, room_id: int, game_ids: Collection[int]) -> list[Game]:
    """``lock_game`` for several games of one room at once (the sweep): the room's lock first,
    then the games', in one statement, in the order of their ids; those that exist, in that
    order."""
    params = {"room_id": room_id, "game_ids": sorted(game_ids)}
    if session.get_bind().dialect.name == "sqlite":
        return list(session.scalars(_GAMES, params))
    lock_room(session, room_id)
    return list(session.scalars(_LOCK_GAMES, params))


def locked_game(session: Session, game_id: int, *, reread: object | None = None) -> Game:
    """``lock_game`` or NotFound. ``reread``: a row read before the lock, read again after it so a
    change committed meanwhile is seen (not needed on SQLite, whose lock came first)."""
    game = lock_game(session, game_id)
    if game is None:
        raise NotFound(f"no game with id {game_id}")
    if reread is not None and session.get_bind().dialect.name != "sqlite":
        session.refresh(reread)
    return game
