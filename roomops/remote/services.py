"""Joining lists from the phone page, leaving them through the personal link, and the desk's
blocked numbers (R12, R16, R60). Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room, player_link
from roomops.audit.service import record
from roomops.db import INT_MAX, insert_one
from roomops.errors import Conflict, Invalid, NotFound
from roomops.floor.bus import command, emit
from roomops.floor.events import EntriesLeft
from roomops.games.locks import lock_room, locked_game
from roomops.games.models import Game
from roomops.lists.history import end_entry
from roomops.lists.models import ListEntry
from roomops.lists.services import join_remote
from roomops.remote import rules
from roomops.remote.models import BlockedPhone, PlayerLink
from roomops.rooms.languages import Language
from roomops.rooms.models import Player, Room
from roomops.rooms.twins import phone_key, region_of
from roomops.words import N_

LEFT = "left from the phone"


@dataclass
class Joined:
    """What a join made: the link (``token`` only when it is new: shown once) and the entries."""

    link: PlayerLink
    token: str | None
    entries: list[ListEntry]


def read_phone(raw: str, room: Room) -> str:
    """R12: the number as stored and compared (E.164, read in the room's country), or Invalid."""
    key = phone_key(raw, region_of(room.locale))
    if key is None or not key.startswith("+"):
        raise Invalid(N_("phone: {typed} is not a phone number we can read; write it as you "
                         "would dial it, or with its country code (+44 ...)"), "R12",
                      values={"typed": repr(raw.strip())})
    return key


def blocked(session: Session, room_id: int, phone: str) -> BlockedPhone | None:
    return session.scalar(select(BlockedPhone).where(
        BlockedPhone.room_id == room_id, BlockedPhone.phone == phone,
        BlockedPhone.lifted_at.is_(None)))


@command
def join_from_phone(session: Session, actor: Actor, now: datetime, *, game_ids: list[int],
                    first_name: str, last_name: str, phone: str,
                    token: str | None = None, language: Language | None = None) -> Joined:
    """R12: a player puts themselves on one or more games' waiting lists from the phone page,
    where the room takes remote entries: a number the desk blocked is refused, one entry per
    number and game, at most the room's cap per number; the player is the room's known player
    of that number (R10) or a new one; each entry checks in at the desk within the room's
    minutes. ``token``: the phone's personal link, reused when it is this player's;
    ``language``: the page's, which the player's texts are then written in (R20, issue 21)."""
    actor.require("remote")
    lock_room(session, actor.room_id)  # the number's entries are counted, then added
    room = session.get_one(Room, actor.room_id)
    if not room.remote_entries:
        raise Conflict(N_("this room does not take entries from the phone: put your name down "
                          "at the desk"), "R12")
    number = read_phone(phone, room)
    if blocked(session, room.id, number) is not None:
        raise Conflict(N_("this number may not join lists from the phone: please see the desk"),
                       "R12")
    games = _open_games(session, actor, game_ids)
    _require_room_for(session, room, number, games)
    player = _player(session, actor, now, room, number, first_name, last_name)
    link, new = _link(session, actor, now, player, token)
    if language is not None:  # the phone's latest choice (the API names none)
        link.language = language
    who = player_link(room.id, link.id)
    entries = [join_remote(session, who, now, locked_game(session, g.id), player.id, link.id,
                           number) for g in games]
    return Joined(link, new, entries)


def _open_games(session: Session, actor: Actor, game_ids: list[int]) -> list[Game]:
    if not game_ids:
        raise Invalid(N_("pick at least one game"), "R10")
    games = [get_in_room(session, Game, g, actor, "game", "R10") for g in dict.fromkeys(game_ids)]
    closed = [g.variant for g in games if g.status != "open"]
    if closed:
        raise Conflict(N_("{games} is not running now"), "R5", values={"games": ", ".join(closed)})
    return games


def _require_room_for(session: Session, room: Room, number: str, games: list[Game]) -> None:
    """R12: one active remote entry per number and game (the database's unique index says so
    too), and the room's cap on a number's active remote entries."""
    active = list(session.scalars(select(ListEntry.game_id).where(
        ListEntry.remote_phone == number, ListEntry.room_id == room.id,
        ListEntry.status == "active", ListEntry.source == "remote")))
    again = [g.variant for g in games if g.id in active]
    if again:
        raise Conflict(N_("this number is already on the {games} list"), "R12",
                       values={"games": ", ".join(again)})
    if rules.over_cap(len(active), len(games), room.remote_entry_cap):
        raise Conflict(N_("a phone may hold at most {cap} list entries at once and this number "
                          "holds {held}: leave one first"), "R12",
                       values={"cap": str(room.remote_entry_cap), "held": str(len(active))})


def _player(session: Session, actor: Actor, now: datetime, room: Room, number: str,
            first_name: str, last_name: str) -> Player:
    """R10: the room's player with this number (the first known), else a new one, audited."""
    region = region_of(room.locale)
    known = session.execute(select(Player.id, Player.phone).where(
        Player.room_id == room.id, Player.phone.is_not(None)).order_by(Player.id))
    found = next((pid for pid, p in known if phone_key(p, region) == number), None)
    if found is not None:
        return session.get_one(Player, found)
    player = insert_one(session, Player, {"room_id": room.id, "first_name": first_name,
                                          "last_name": last_name, "phone": number,
                                          "created_at": now})
    record(session, actor, now, "player.added", ("player", player.id), name=player.full_name,
           source="remote")
    return player


def _link(session: Session, actor: Actor, now: datetime, player: Player,
          token: str | None) -> tuple[PlayerLink, str | None]:
    """The phone's link if it is this player's, else a new one with its token (shown once)."""
    if token:
        link = link_for(session, actor.room_id, token)
        if link is not None and link.player_id == player.id:
            return link, None
    fresh = rules.new_token()
    link = insert_one(session, PlayerLink, {"room_id": actor.room_id, "player_id": player.id,
                                            "token_hash": rules.token_hash(fresh),
                                            "created_at": now})
    record(session, actor, now, "player_link.made", ("player_link", link.id), player_id=player.id)
    return link, fresh


def find_link(session: Session, token: str) -> PlayerLink | None:
    """The link of this token (looked up by its hash), if any."""
    if not token or len(token) > rules.TOKEN_MAX:
        return None
    return session.scalar(select(PlayerLink).where(
        PlayerLink.token_hash == rules.token_hash(token)))


def link_for(session: Session, room_id: int, token: str) -> PlayerLink | None:
    """The room's link of this token, if any."""
    link = find_link(session, token)
    return link if link is not None and link.room_id == room_id else None


@command
def leave(session: Session, actor: Actor, now: datetime, entry_id: int) -> ListEntry:
    """R16: the player leaves a list through their link; the history keeps who (the link) and
    why. Only the link's own entries (R61): any other is unknown."""
    actor.require("remote")
    entry = session.get(ListEntry, entry_id) if 1 <= entry_id <= INT_MAX else None
    if entry is None or actor.link_id is None or entry.link_id != actor.link_id:
        raise NotFound(N_("no entry {entry} of yours"), "R61", values={"entry": str(entry_id)})
    locked_game(session, entry.game_id, reread=entry)
    if entry.status != "active":
        raise Conflict(N_("that entry is no longer on the list ({status})"), "R16",
                       values={"status": entry.status})
    end_entry(session, actor, now, entry, LEFT, action="entry.left")
    emit(session, EntriesLeft(entry.game_id, (entry.id,)))
    return entry


@command
def block(session: Session, actor: Actor, now: datetime, *, phone: str,
          reason: str) -> BlockedPhone:
    """R12: the desk refuses a number's remote entries from now on, with why; its active remote
    entries come off their lists (R16)."""
    actor.require("floor")
    if not reason.strip():
        raise Invalid("blocking a number needs a reason", "R12")
    lock_room(session, actor.room_id)
    number = read_phone(phone, session.get_one(Room, actor.room_id))
    if blocked(session, actor.room_id, number) is not None:
        raise Conflict(f"{number} is already blocked", "R12")
    row = insert_one(session, BlockedPhone, {
        "room_id": actor.room_id, "phone": number, "reason": reason.strip(), "created_at": now,
        "created_by_id": actor.staff_id})
    record(session, actor, now, "phone.blocked", ("blocked_phone", row.id), reason=row.reason,
           phone=number)
    for entry in session.scalars(select(ListEntry).where(
            ListEntry.room_id == actor.room_id, ListEntry.remote_phone == number,
            ListEntry.status == "active", ListEntry.source == "remote").order_by(ListEntry.id)):
        locked_game(session, entry.game_id)
        end_entry(session, actor, now, entry, "the number was blocked by the desk")
        emit(session, EntriesLeft(entry.game_id, (entry.id,)))
    return row


@command
def lift(session: Session, actor: Actor, now: datetime, block_id: int) -> BlockedPhone:
    """R12: a block is lifted, not deleted (audited)."""
    actor.require("floor")
    row = get_in_room(session, BlockedPhone, block_id, actor, "blocked number", "R12")
    if row.lifted_at is not None:
        raise Conflict("that block was already lifted", "R12")
    row.lifted_at, row.lifted_by_id = now, actor.staff_id
    record(session, actor, now, "phone.unblocked", ("blocked_phone", row.id), phone=row.phone)
    return row


def blocks(session: Session, room_id: int) -> list[BlockedPhone]:
    """The room's blocked numbers in force, newest first."""
    return list(session.scalars(select(BlockedPhone).where(
        BlockedPhone.room_id == room_id, BlockedPhone.lifted_at.is_(None)).order_by(
        BlockedPhone.id.desc())))

