"""Joining, checking in, leaving and reordering lists (R10-R13, R16). Services never commit."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.events import EntriesLeft, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game, table_in_room
from roomops.games.models import Game
from roomops.holds.queries import holds_offer
from roomops.holds.refusals import player_name
from roomops.lists import ordering
from roomops.lists.endings import NO_SHOW
from roomops.lists.entries import add_entry, require_joinable
from roomops.lists.history import end_entry
from roomops.lists.models import ListEntry
from roomops.rooms.models import Player, Room


def join(unit: UnitOfWork, *, player_id: int,
         game_id: int | None = None, table_id: int | None = None,
         source: str = "in_person") -> ListEntry:
    """R10/R11/R12: put a player on a game's waiting list or a table's reserve list; a call-in
    (``phone``) only where the room takes them."""
    unit.actor.require("floor")
    if source not in ("in_person", "phone"):
        raise Invalid("the desk enters a player in person or by phone; a remote entry is the "
                      "player's own, from the phone page", "R12")
    if (game_id is None) == (table_id is None):
        raise Invalid("give either a game (waiting list) or a table (reserve list)", "R10")
    if source == "phone" and not unit.session.get_one(Room, unit.actor.room_id).call_ins:
        raise Conflict("this room takes no call-ins: the player puts their name down at the desk",
                       "R12")
    get_in_room(unit.session, Player, player_id, unit.actor, "player")
    table = table_in_room(unit.session, unit.actor, table_id) if table_id else None
    game = locked_game(unit.session, table.game_id if table else get_in_room(
        unit.session, Game, game_id or 0, unit.actor, "game").id)
    require_joinable(unit.session, game, table, player_id)
    entry = add_entry(unit, game, table, player_id, source)
    unit.emit(SeatsMayOpen(game.id))
    return entry


def check_in(unit: UnitOfWork, entry_id: int) -> ListEntry:
    """R12: a phone entry checks in at the desk before its deadline and can then be offered."""
    unit.actor.require("floor")
    entry = _active_entry(unit.session, unit.actor, entry_id)
    if entry.checkin_deadline is None or entry.checked_in_at is not None:
        raise Conflict(f"{player_name(unit.session, entry.player_id)} has no check-in pending", "R12")
    if unit.now >= entry.checkin_deadline:
        raise Conflict("the check-in time has run out", "R12")
    entry.checked_in_at = unit.now
    unit.audit("entry.checked_in", ("list_entry", entry.id))
    unit.emit(SeatsMayOpen(entry.game_id))
    return entry


def remove(unit: UnitOfWork, entry_id: int, reason: str) -> ListEntry:
    """R16: leaving a list keeps a history row with who and why."""
    unit.actor.require("floor")
    if not reason.strip():
        raise Invalid("removing a player from a list needs a reason", "R16")
    entry = _active_entry(unit.session, unit.actor, entry_id)
    end_entry(unit, entry, reason.strip())
    unit.emit(EntriesLeft(entry.game_id, (entry.id,)))
    return entry


def reorder(unit: UnitOfWork, entry_id: int, position: int,
            reason: str) -> ListEntry:
    """R13: order is sacred; a supervisor moves an entry only with a written reason."""
    unit.actor.require("floor")
    if not reason.strip():
        raise Invalid("reordering a list needs a written reason", "R13")
    entry = _active_entry(unit.session, unit.actor, entry_id)
    entries = list_entries(unit.session, entry.game_id, entry.table_id)
    if not 1 <= position <= len(entries):
        raise Invalid(f"position must be between 1 and {len(entries)}", "R13")
    src = entries.index(entry)
    times = ordering.move([e.queue_at for e in entries], src, position - 1)
    moved = entries[:src] + entries[src + 1 :]
    moved.insert(position - 1, entry)
    for e, when in zip(moved, times, strict=True):
        e.queue_at = when
    unit.audit("entry.reordered", ("list_entry", entry.id), reason=reason.strip(),
               from_position=src + 1, to_position=position)
    unit.emit(SeatsMayOpen(entry.game_id))
    return entry


def list_entries(session: Session, game_id: int, table_id: int | None) -> list[ListEntry]:
    """A list in order: the game's waiting list, or one table's reserve list."""
    where = ListEntry.table_id == table_id if table_id else ListEntry.kind == "waiting"
    stmt = select(ListEntry).where(
        ListEntry.game_id == game_id, ListEntry.status == "active", where
    ).order_by(ListEntry.queue_at, ListEntry.id)
    return list(session.scalars(stmt))


def drop_no_shows(unit: UnitOfWork,
                  games: Sequence[Game]) -> list[ListEntry]:
    """R12: a phone entry that did not check in by its deadline is dropped as a no-show; R13: so
    is an entry whose lockup ran out before the player came back (a deposit stays recorded).
    The games' lists in one read; the caller holds their locks."""
    stmt = select(ListEntry).where(
        ListEntry.game_id.in_([g.id for g in games]), ListEntry.status == "active", or_(
            and_(ListEntry.checked_in_at.is_(None), ListEntry.checkin_deadline <= unit.now),
            ListEntry.locked_until <= unit.now),
    ).order_by(ListEntry.id)
    dropped = list(unit.session.scalars(stmt))
    for entry in dropped:
        if entry.locked_until is not None and entry.locked_until <= unit.now:
            end_entry(unit, entry, f"{NO_SHOW}: the lockup ran out",
                      action="entry.lockup_expired")
        else:
            end_entry(unit, entry, f"{NO_SHOW}: did not check in",
                      action="entry.no_show")
    return dropped


def lock_up(unit: UnitOfWork, entry_id: int,
            deposit: int | None = None) -> ListEntry:
    """R13/R14: a listed player steps away and keeps their place for the room's
    ``lockup_minutes``, passed over for offers meanwhile; a deposit taken for it is recorded."""
    unit.actor.require("floor")
    minutes = unit.session.get_one(Room, unit.actor.room_id).lockup_minutes
    if not minutes:
        raise Conflict("this room takes no lockups: a player who steps away is called in turn",
                       "R13")
    entry = _active_entry(unit.session, unit.actor, entry_id)
    if entry.locked_until is not None:
        raise Conflict(f"{player_name(unit.session, entry.player_id)} is already locked up", "R13")
    if holds_offer(unit.session, unit.actor.room_id, entry.player_id):
        raise Conflict(f"{player_name(unit.session, entry.player_id)} has a seat called: they take it or "
                       "decline it first", "R20")
    entry.locked_until, entry.lockup_deposit = unit.now + timedelta(minutes=minutes), deposit
    unit.audit("entry.locked_up", ("list_entry", entry.id),
               player_id=entry.player_id, until=entry.locked_until.isoformat(), deposit=deposit)
    return entry


def end_lockup(unit: UnitOfWork, entry_id: int) -> ListEntry:
    """R13/R14: the player is back before the lockup ran out: the entry is offered in its place
    again (any deposit is handed back, as the audit row says)."""
    unit.actor.require("floor")
    entry = _active_entry(unit.session, unit.actor, entry_id)
    if entry.locked_until is None:
        raise Conflict(f"{player_name(unit.session, entry.player_id)} is not locked up", "R13")
    if unit.now >= entry.locked_until:
        raise Conflict(f"the lockup has run out: {player_name(unit.session, entry.player_id)} joins the "
                       "list again", "R13")
    unit.audit("entry.lockup_ended", ("list_entry", entry.id),
               player_id=entry.player_id, deposit_returned=entry.lockup_deposit)
    entry.locked_until, entry.lockup_deposit = None, None
    unit.emit(SeatsMayOpen(entry.game_id))
    return entry


def _active_entry(session: Session, actor: Actor, entry_id: int) -> ListEntry:
    entry = get_in_room(session, ListEntry, entry_id, actor, "list entry")
    locked_game(session, entry.game_id, reread=entry)
    if entry.status != "active":
        raise Conflict(f"{player_name(session, entry.player_id)} is no longer on the list "
                       f"({entry.status})", "R16")
    return entry
