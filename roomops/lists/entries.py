"""Putting players on the lists (R10-R13): a new entry at the bottom of its list, a player's own
entry from the phone (R12), players put on a game's waiting list in an order of their own (R19,
R24). What the lists' actions (``services``) and other packages' (a seat released, a broken
table, a join from the phone) are made of; each audited (R60)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from roomops.db import insert_one, insert_rows
from roomops.errors import Conflict
from roomops.floor.events import EntryJoined
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.holds.queries import seated_in
from roomops.holds.refusals import player_name, seat_name
from roomops.lists.models import CHECK_IN_SOURCES, ListEntry
from roomops.lists.ordering import TICK
from roomops.rooms.models import Room


def join_remote(unit: UnitOfWork, game: Game, player_id: int,
                link_id: int, phone: str, verified: bool) -> ListEntry:
    """R12: the player's own entry on the game's waiting list, from the phone page, made through
    their link with the number it came from, and whether the phone proved it. The caller locked
    the game."""
    require_joinable(unit.session, game, None, player_id)
    return add_entry(unit, game, None, player_id, "remote", link_id=link_id,
                      remote_phone=phone, phone_verified=verified)


def to_bottom_of_waiting_list(unit: UnitOfWork,
                              released: list[tuple[Game, int, str]]) -> list[ListEntry]:
    """R24: players whose seats were released, as (game, player, why), go to the bottom of that
    game's waiting list in that order; one already on it keeps their place. The caller locked the
    games and offers the seats."""
    return _waiting_in_order(unit, released, unit.now)


def to_top_of_waiting_list(unit: UnitOfWork, game: Game,
                           player_ids: list[int], reason: str) -> list[ListEntry]:
    """R19: players of a broken table who found no seat go to the top of the game's waiting list,
    ahead of every active entry, in the order given. The caller locked the game."""
    first = unit.session.scalar(select(func.min(ListEntry.queue_at)).where(
        ListEntry.game_id == game.id, ListEntry.kind == "waiting", ListEntry.status == "active"))
    top = min(first or unit.now, unit.now) - len(player_ids) * TICK
    return _waiting_in_order(unit, [(game, p, reason) for p in player_ids], top)


def _waiting_in_order(unit: UnitOfWork,
                      rows: list[tuple[Game, int, str]], start: datetime) -> list[ListEntry]:
    """New waiting-list entries for (game, player, why) in the order given, from ``start`` one
    tick apart; a player already on the game's list keeps their place. One read and one
    INSERT ... RETURNING for them all, however many and of however many games (a sweep may
    release thousands)."""
    on_it = set(unit.session.execute(select(ListEntry.game_id, ListEntry.player_id).where(
        ListEntry.game_id.in_({g.id for g, _, _ in rows}), ListEntry.kind == "waiting",
        ListEntry.status == "active", ListEntry.player_id.in_({p for _, p, _ in rows}))).tuples())
    joining = [(g, p, why) for g, p, why in rows if (g.id, p) not in on_it]
    if not joining:
        return []
    made = {(e.game_id, e.player_id): e for e in insert_rows(unit.session, ListEntry, [
        {"room_id": g.room_id, "player_id": p, "kind": "waiting", "game_id": g.id,
         "source": "in_person", "joined_at": unit.now, "queue_at": start + i * TICK, "status": "active"}
        for i, (g, p, _) in enumerate(joining)])}
    for g, p, why in joining:
        joined(unit, made[g.id, p], why)
    return [made[g.id, p] for g, p, _ in joining]


def add_entry(unit: UnitOfWork, game: Game, table: Table | None,
               player_id: int, source: str, reason: str | None = None,
               **remote: object) -> ListEntry:
    """A new entry at the bottom of its list (its time is now), audited; a call-in or remote
    entry checks in within the room's minutes (R12). ``remote``: a remote entry's link and
    number."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    entry = insert_one(unit.session, ListEntry, {
        "room_id": unit.actor.room_id, "player_id": player_id, "kind": "reserve" if table else "waiting",
        "game_id": game.id, "table_id": table.id if table else None, "source": source,
        "joined_at": unit.now, "queue_at": unit.now, "status": "active",
        "checkin_deadline": (unit.now + timedelta(minutes=room.checkin_minutes)
                             if source in CHECK_IN_SOURCES else None),
    } | remote)
    joined(unit, entry, reason)
    return entry


def joined(unit: UnitOfWork, entry: ListEntry, reason: str | None) -> None:
    unit.emit(EntryJoined(entry.id))
    unit.audit("entry.joined", ("list_entry", entry.id), reason=reason,
               player_id=entry.player_id, kind=entry.kind, game_id=entry.game_id,
               table_id=entry.table_id, source=entry.source,
               **({"verified": entry.phone_verified} if entry.source == "remote" else {}))


# built once, as every statement on a desk action's path (docs/benchmarks.md)
_ON_RESERVE = select(ListEntry.id).where(
    ListEntry.player_id == bindparam("player_id"), ListEntry.status == "active",
    ListEntry.table_id == bindparam("table_id"))


_ON_WAITING = select(ListEntry.id).where(
    ListEntry.player_id == bindparam("player_id"), ListEntry.status == "active",
    ListEntry.game_id == bindparam("game_id"), ListEntry.kind == "waiting")


def require_joinable(session: Session, game: Game, table: Table | None, player_id: int) -> None:
    if game.status != "open" or (table is not None and table.status != "open"):
        raise Conflict("that game or table is closed", "R5")
    hold = seated_in(session, game, player_id)
    if table is None and hold is not None:
        raise Conflict(f"{player_name(session, player_id)} already sits at {seat_name(session, hold)}"
                       ": use a reserve list to change tables", "R18")
    if table is not None and hold is not None and hold.table_id == table.id:
        raise Conflict(f"{player_name(session, player_id)} already sits at {seat_name(session, hold)}",
                       "R11")
    dup = (session.scalar(_ON_RESERVE, {"player_id": player_id, "table_id": table.id}) if table
           else session.scalar(_ON_WAITING, {"player_id": player_id, "game_id": game.id}))
    if dup:
        raise Conflict(f"{player_name(session, player_id)} is already on that list", "R10")
