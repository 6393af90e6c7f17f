"""Joining lists from the phone page, leaving them through the personal link, and the desk's
blocked numbers (R12, R16, R60). Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, get_in_room, player_link
from roomops.db import INT_MAX, insert_one
from roomops.errors import Conflict, Invalid, NotFound, TooMany
from roomops.floor.events import CodeAsked, EntriesLeft
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import lock_room, locked_game
from roomops.games.models import Game
from roomops.lists.entries import join_remote
from roomops.lists.history import end_entry
from roomops.lists.models import ListEntry
from roomops.remote import rules
from roomops.remote.models import BlockedPhone, PhoneCode, PlayerLink
from roomops.rooms.languages import Language
from roomops.rooms.models import Player, Room
from roomops.rooms.phones import read_phone
from roomops.rooms.twins import phone_key, region_of
from roomops.words import N_, translator

LEFT = "left from the phone"


@dataclass
class Joined:
    """What a join made: the link (``token`` only when it is new: shown once) and the entries."""

    link: PlayerLink
    token: str | None
    entries: list[ListEntry]


@dataclass
class CodeSent:
    """A join waiting for the code texted to ``code.phone``; ``secret`` (shown once, kept in the
    phone's cookie) names it when the code is typed."""

    code: PhoneCode
    secret: str


@dataclass
class WrongCode:
    """A code typed wrong: the try is counted (and committed), ``left`` tries remain."""

    left: int


@dataclass(frozen=True)
class _Asked:
    """One join as asked for: the number read, the games, the name typed, the phone's link."""

    room: Room
    number: str
    games: list[Game]
    first_name: str
    last_name: str
    link: PlayerLink | None
    language: Language | None


def blocked(session: Session, room_id: int, phone: str) -> BlockedPhone | None:
    return session.scalar(select(BlockedPhone).where(
        BlockedPhone.room_id == room_id, BlockedPhone.phone == phone,
        BlockedPhone.lifted_at.is_(None)))


def join_from_phone(unit: UnitOfWork, *, game_ids: list[int],
                    first_name: str, last_name: str, phone: str,
                    token: str | None = None, language: Language | None = None,
                    codes: bool = False) -> Joined | CodeSent:
    """R12: a player puts themselves on one or more games' waiting lists from the phone page,
    where the room takes remote entries: a number the desk blocked is refused, one entry per
    number and game, at most the room's cap per number; each entry checks in at the desk within
    the room's minutes. ``token``: the phone's personal link; ``language``: the page's, which the
    player's texts are then written in (R20, issue 21).

    Issue 40, the phone proves its number: a phone whose live link proved this number joins at
    once as the number's player; otherwise, where codes can be texted (``codes``: the app has a
    text provider), a code is texted to the number and the join waits for it (``CodeSent``,
    ``confirm_code``); without a provider the entries are unverified: the name typed, as a new
    player, never the number's known player, and counted against this phone's link rather than
    the number."""
    unit.actor.require("remote")
    lock_room(unit.session, unit.actor.room_id)  # the number's entries are counted, then added
    asked = _asked(unit, game_ids, first_name, last_name, phone, token, language)
    if asked.link is not None and asked.link.phone == asked.number:
        return _join_verified(unit, asked)
    if codes:
        _require_room_for(unit.session, asked.room, asked.number, asked.games)
        return _send_code(unit, asked)
    return _join_unverified(unit, asked)


def _asked(unit: UnitOfWork, game_ids: list[int], first_name: str,
           last_name: str, phone: str, token: str | None, language: Language | None) -> _Asked:
    """R12: the room takes remote entries, the number is readable and not blocked, the games run."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    if not room.remote_entries:
        raise Conflict(N_("this room does not take entries from the phone: put your name down "
                          "at the desk"), "R12")
    number = read_phone(phone, room.locale)
    if blocked(unit.session, room.id, number) is not None:
        raise Conflict(N_("this number may not join lists from the phone: please see the desk"),
                       "R12")
    games = _open_games(unit.session, unit.actor, game_ids)
    link = link_for(unit.session, room.id, token, unit.now) if token else None
    return _Asked(room, number, games, first_name, last_name, link, language)


def _join_verified(unit: UnitOfWork, asked: _Asked) -> Joined:
    """R10, R12: the number proved: its player (the room's first known with it, else a new one),
    one entry per number and game, the number's cap."""
    _require_room_for(unit.session, asked.room, asked.number, asked.games)
    player = _player(unit, asked.room, asked.number, asked.first_name,
                     asked.last_name)
    link = asked.link if asked.link is not None and asked.link.player_id == player.id else None
    return _entries(unit, asked, player, link, verified=True)


def _join_unverified(unit: UnitOfWork, asked: _Asked) -> Joined:
    """R12, issue 40: no provider to prove the number: the link's own (unverified) player, or a
    new one with the name typed and no number of record; the cap counts this link's entries."""
    link = asked.link if asked.link is not None and asked.link.phone is None else None
    if link is None:
        player = _new_player(unit, asked.room, asked.first_name, asked.last_name,
                             None)
    else:
        player = unit.session.get_one(Player, link.player_id)
        _require_room(asked.room, list(unit.session.scalars(select(ListEntry.game_id).where(
            ListEntry.link_id == link.id, ListEntry.status == "active"))), asked.games)
    return _entries(unit, asked, player, link, verified=False)


def _entries(unit: UnitOfWork, asked: _Asked, player: Player,
             link: PlayerLink | None, *, verified: bool) -> Joined:
    """The phone's link (``link``, else a new one), its deadline moved to this join's (R2), and
    one waiting-list entry per game, audited as the link."""
    room = asked.room
    token = None
    if link is None:
        link, token = _new_link(unit, player, asked.number if verified else None)
    link.expires_at = rules.link_deadline(unit.now, room.timezone, room.gaming_day_start)
    if asked.language is not None:  # the phone's latest choice (the API names none)
        link.language = asked.language
    who = player_link(room.id, link.id)
    entries = [join_remote(unit.acting(who), locked_game(unit.session, g.id), player.id, link.id,
                           asked.number, verified) for g in asked.games]
    return Joined(link, token, entries)


def _open_games(session: Session, actor: Actor, game_ids: list[int]) -> list[Game]:
    if not game_ids:
        raise Invalid(N_("pick at least one game"), "R10")
    games = [get_in_room(session, Game, g, actor, "game", "R10") for g in dict.fromkeys(game_ids)]
    closed = [g.variant for g in games if g.status != "open"]
    if closed:
        raise Conflict(N_("{games} is not running now"), "R5", values={"games": ", ".join(closed)})
    return games


def _require_room_for(session: Session, room: Room, number: str, games: list[Game]) -> None:
    """R12: one active verified remote entry per number and game (the database's unique index
    says so too), and the room's cap on a number's active verified remote entries: unverified
    joins count against neither."""
    _require_room(room, list(session.scalars(select(ListEntry.game_id).where(
        ListEntry.remote_phone == number, ListEntry.room_id == room.id,
        ListEntry.status == "active", ListEntry.source == "remote", ListEntry.phone_verified))),
        games)


def _require_room(room: Room, active: list[int], games: list[Game]) -> None:
    """R12: none of ``games`` among the ``active`` entries' games (of the number, or of an
    unverified phone's link), and the room's cap."""
    again = [g.variant for g in games if g.id in active]
    if again:
        raise Conflict(N_("this number is already on the {games} list"), "R12",
                       values={"games": ", ".join(again)})
    if rules.over_cap(len(active), len(games), room.remote_entry_cap):
        raise Conflict(N_("a phone may hold at most {cap} list entries at once and this number "
                          "holds {held}: leave one first"), "R12",
                       values={"cap": str(room.remote_entry_cap), "held": str(len(active))})


def _player(unit: UnitOfWork, room: Room, number: str,
            first_name: str, last_name: str) -> Player:
    """R10: the room's player with this number (the first known), else a new one, audited."""
    region = region_of(room.locale)
    known = unit.session.execute(select(Player.id, Player.phone).where(
        Player.room_id == room.id, Player.phone.is_not(None)).order_by(Player.id))
    found = next((pid for pid, p in known if phone_key(p, region) == number), None)
    if found is not None:
        return unit.session.get_one(Player, found)
    return _new_player(unit, room, first_name, last_name, number)


def _new_player(unit: UnitOfWork, room: Room, first_name: str,
                last_name: str, number: str | None) -> Player:
    player = insert_one(unit.session, Player, {"room_id": room.id, "first_name": first_name,
                                               "last_name": last_name, "phone": number,
                                               "created_at": unit.now})
    unit.audit("player.added", ("player", player.id), name=player.full_name,
               source="remote", verified=number is not None)
    return player


def _new_link(unit: UnitOfWork, player: Player,
              proved: str | None) -> tuple[PlayerLink, str]:
    """A new link for the player with its token (shown once); ``proved``: the number its phone
    proved, None for an unverified one."""
    fresh = rules.new_token()
    link = insert_one(unit.session, PlayerLink, {"room_id": unit.actor.room_id, "player_id": player.id,
                                                 "token_hash": rules.token_hash(fresh),
                                                 "created_at": unit.now, "expires_at": unit.now,
                                                 "phone": proved})
    unit.audit("player_link.made", ("player_link", link.id), player_id=player.id,
               verified=proved is not None)
    return link, fresh


def _send_code(unit: UnitOfWork, asked: _Asked) -> CodeSent:
    """R12: a code for this join texted to its number, after the commit; at most
    ``CODES_PER_NUMBER`` a number in ``CODE_WINDOW``, whoever asks."""
    sent = unit.session.scalar(select(func.count()).select_from(PhoneCode).where(
        PhoneCode.room_id == asked.room.id, PhoneCode.phone == asked.number,
        PhoneCode.created_at > unit.now - rules.CODE_WINDOW)) or 0
    if rules.too_many_codes(sent):
        raise TooMany(N_("too many codes were sent to this number: try again in a few minutes"),
                      "R12")
    secret, code = rules.new_token(), rules.new_code()
    row = insert_one(unit.session, PhoneCode, {
        "room_id": asked.room.id, "phone": asked.number, "secret_hash": rules.token_hash(secret),
        "code_hash": rules.code_hash(secret, code), "first_name": asked.first_name,
        "last_name": asked.last_name, "game_ids": ",".join(str(g.id) for g in asked.games),
        "language": asked.language, "created_at": unit.now, "deadline": unit.now + rules.CODE_LIFE,
        "attempts": 0})
    unit.audit("phone_code.sent", ("phone_code", row.id), phone=asked.number)
    body = translator(asked.language or asked.room.language)(CODE_TEXT).format(
        room=asked.room.name, code=code, minutes=rules.CODE_LIFE.seconds // 60)
    unit.emit(CodeAsked(asked.number, body))
    return CodeSent(row, secret)


CODE_TEXT = N_("{room}: your code is {code}. Type it on the phone page within {minutes} "
               "minutes. If you did not ask to join a list, ignore this text.")


def confirm_code(unit: UnitOfWork, *, secret: str, code: str,
                 token: str | None = None) -> Joined | WrongCode:
    """R12: the code texted for a pending join, typed on the phone: right, the join is made as
    the number's player (everything checked again: the lists may have moved meanwhile) and the
    new link proves the number; wrong, the try is counted and kept. Refused once the code ran
    out, was used, or was typed wrong ``CODE_TRIES`` times."""
    unit.actor.require("remote")
    lock_room(unit.session, unit.actor.room_id)
    row = pending_code(unit.session, unit.actor.room_id, secret)
    if row is None:
        raise NotFound(N_("no code is waiting for this phone: join again"), "R12")
    state = rules.code_state(row.deadline, row.attempts, row.confirmed_at, unit.now)
    if state != "open":
        raise Conflict(SPENT[state], "R12")
    if not rules.code_matches(secret, code, row.code_hash):
        row.attempts += 1
        unit.audit("phone_code.wrong", ("phone_code", row.id),
                   attempts=row.attempts)
        return WrongCode(rules.CODE_TRIES - row.attempts)
    asked = _asked(unit, [int(g) for g in row.game_ids.split(",")],
                   row.first_name, row.last_name, row.phone, token, row.language)
    joined = _join_verified(unit, asked)
    joined.link.phone = row.phone
    row.confirmed_at, row.link_id = unit.now, joined.link.id
    unit.audit("phone_code.confirmed", ("phone_code", row.id),
               player_link=joined.link.id)
    return joined


SPENT = {"expired": N_("the code ran out: join again for a new one"),
         "spent": N_("the code was typed wrong too often: join again for a new one"),
         "used": N_("that code was used already")}


def pending_code(session: Session, room_id: int, secret: str | None) -> PhoneCode | None:
    """The room's pending join of this secret (looked up by its hash), if any."""
    if not secret or len(secret) > rules.TOKEN_MAX:
        return None
    return session.scalar(select(PhoneCode).where(
        PhoneCode.room_id == room_id, PhoneCode.secret_hash == rules.token_hash(secret)))


def find_link(session: Session, token: str) -> PlayerLink | None:
    """The link of this token (looked up by its hash), if any."""
    if not token or len(token) > rules.TOKEN_MAX:
        return None
    return session.scalar(select(PlayerLink).where(
        PlayerLink.token_hash == rules.token_hash(token)))


def link_for(session: Session, room_id: int, token: str, now: datetime) -> PlayerLink | None:
    """The room's live link of this token, if any (R61: an expired one opens nothing)."""
    link = find_link(session, token)
    if link is None or link.room_id != room_id or not rules.link_live(link.expires_at, now):
        return None
    return link


def leave(unit: UnitOfWork, entry_id: int) -> ListEntry:
    """R16: the player leaves a list through their link; the history keeps who (the link) and
    why. Only the link's own entries (R61): any other is unknown."""
    unit.actor.require("remote")
    entry = unit.session.get(ListEntry, entry_id) if 1 <= entry_id <= INT_MAX else None
    if entry is None or unit.actor.link_id is None or entry.link_id != unit.actor.link_id:
        raise NotFound(N_("no entry {entry} of yours"), "R61", values={"entry": str(entry_id)})
    locked_game(unit.session, entry.game_id, reread=entry)
    if entry.status != "active":
        raise Conflict(N_("that entry is no longer on the list ({status})"), "R16",
                       values={"status": entry.status})
    end_entry(unit, entry, LEFT, action="entry.left")
    unit.emit(EntriesLeft(entry.game_id, (entry.id,)))
    return entry


def block(unit: UnitOfWork, *, phone: str,
          reason: str) -> BlockedPhone:
    """R12: the desk refuses a number's remote entries from now on, with why; its active remote
    entries come off their lists (R16)."""
    unit.actor.require("floor")
    if not reason.strip():
        raise Invalid("blocking a number needs a reason", "R12")
    lock_room(unit.session, unit.actor.room_id)
    number = read_phone(phone, unit.session.get_one(Room, unit.actor.room_id).locale)
    if blocked(unit.session, unit.actor.room_id, number) is not None:
        raise Conflict(f"{number} is already blocked", "R12")
    row = insert_one(unit.session, BlockedPhone, {
        "room_id": unit.actor.room_id, "phone": number, "reason": reason.strip(), "created_at": unit.now,
        "created_by_id": unit.actor.staff_id})
    unit.audit("phone.blocked", ("blocked_phone", row.id), reason=row.reason,
               phone=number)
    for entry in unit.session.scalars(select(ListEntry).where(
            ListEntry.room_id == unit.actor.room_id, ListEntry.remote_phone == number,
            ListEntry.status == "active", ListEntry.source == "remote").order_by(ListEntry.id)):
        locked_game(unit.session, entry.game_id)
        end_entry(unit, entry, "the number was blocked by the desk")
        unit.emit(EntriesLeft(entry.game_id, (entry.id,)))
    return row


def lift(unit: UnitOfWork, block_id: int) -> BlockedPhone:
    """R12: a block is lifted, not deleted (audited)."""
    unit.actor.require("floor")
    row = get_in_room(unit.session, BlockedPhone, block_id, unit.actor, "blocked number", "R12")
    if row.lifted_at is not None:
        raise Conflict("that block was already lifted", "R12")
    row.lifted_at, row.lifted_by_id = unit.now, unit.actor.staff_id
    unit.audit("phone.unblocked", ("blocked_phone", row.id), phone=row.phone)
    return row


def blocks(session: Session, room_id: int) -> list[BlockedPhone]:
    """The room's blocked numbers in force, newest first."""
    return list(session.scalars(select(BlockedPhone).where(
        BlockedPhone.room_id == room_id, BlockedPhone.lifted_at.is_(None)).order_by(
        BlockedPhone.id.desc())))

