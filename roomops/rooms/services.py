"""Rooms, policy (R3), players and barred pairs (R15); staff are ``roomops.rooms.staff``.
Services never commit."""

from __future__ import annotations

from datetime import datetime, time
from typing import Any
from zoneinfo import available_timezones

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.events import AutoOffersOn, RotationMayMove
from roomops.floor.unit import UnitOfWork
from roomops.money import check_currency_code, check_locale
from roomops.rooms.models import BarredPair, Player, Room
from roomops.rooms.phones import read_optional_phone
from roomops.rooms.shifts import shift_policy
from roomops.rooms.twins import Known, LikelyTwin, region_of, twins_of
from roomops.text import check_shown


def shown_name(text: str, field: str) -> str:
    """A name others will read (a room's, a staff member's), refused as the request bodies' names
    are (``roomops.text``) when it holds a control character or a direction override."""
    try:
        return check_shown(text)
    except ValueError as err:
        raise Invalid(f"{field}: {err}") from None


def create_room(session: Session, now: datetime, *, slug: str, name: str, **policy: Any) -> Room:
    """R1: a room; its currency (R32) is set here once, as its ledger's amounts are its units."""
    if session.scalar(select(Room.id).where(Room.slug == slug)):
        raise Conflict(f"a room called {slug} already exists", "R1")
    if "currency" in policy:
        policy["currency"] = check_currency_code(policy["currency"])
    if "locale" in policy:
        policy["locale"] = check_locale(policy["locale"])
    room = Room(slug=slug, name=shown_name(name, "name"), created_at=now, **policy)
    session.add(room)
    session.flush()
    return room


# R26, R28: 0 turns the policy off (NULL)
OFF_WHEN_ZERO = ("max_away_minutes", "max_missed_bb", "cash_out_approval_over")


def policy_values(policy: dict[str, Any], room: Room) -> dict[str, Any]:
    """The policy values to store: 0 means "off" for the policies that can be off; the gaming
    day's start (R2) is sent as "HH:MM"; the shifts (R54) as a list of "HH:MM", stored as
    ``shift_starts`` (``roomops.rooms.shifts.shift_policy``, against the day's new start if one
    is sent)."""
    values: dict[str, Any] = {k: None if k in OFF_WHEN_ZERO and v == 0 else v for k, v in policy.items()}
    if isinstance(values.get("gaming_day_start"), str):
        values["gaming_day_start"] = time.fromisoformat(values["gaming_day_start"])
    if "shifts" in values:
        values["shift_starts"] = shift_policy(values.pop("shifts"),
                                              values.get("gaming_day_start", room.gaming_day_start))
    return values


def update_policy(unit: UnitOfWork, /, **policy: Any) -> Room:
    """R3: room policy is edited by a supervisor or admin and audited with before and after.
    Automatic offers switched on offer every seat already open, in this transaction
    (``AutoOffersOn``; R14, R20)."""
    unit.actor.require("policy")
    room = unit.session.get_one(Room, unit.actor.room_id)
    policy = policy_values(policy, room)
    if "timezone" in policy and policy["timezone"] not in available_timezones():
        raise Invalid(f"unknown time zone {policy['timezone']!r}", "R3")
    if "locale" in policy:
        policy["locale"] = check_locale(policy["locale"])
    if (policy.get("return_tolerance_unit", room.return_tolerance_unit) == "percent"
            and policy.get("return_tolerance", room.return_tolerance) > 100):
        raise Invalid("a return tolerance in percent is at most 100", "R27")
    before = {k: getattr(room, k) for k in policy}
    for key, value in policy.items():
        setattr(room, key, value)
    unit.audit("policy.changed", ("room", room.id),
               before={k: str(v) for k, v in before.items()},
               after={k: str(v) for k, v in policy.items()})
    if policy.get("auto_offer") and not before.get("auto_offer", True):
        unit.emit(AutoOffersOn(room.id))
    if "dealer_rotation" in policy or "down_minutes" in policy:
        unit.emit(RotationMayMove(room.id))  # R63: turned on, the open tables take dealers
    return room


def add_player(unit: UnitOfWork, *, first_name: str,
               last_name: str = "", phone: str | None = None,
               create_anyway: bool = False) -> Player:
    """A new player record. One whose name or phone matches a player the room knows is refused
    with those players as candidates (``twins.LikelyTwin``, R10) unless ``create_anyway``: then
    the audit row names them. The number is stored in E.164, read in the room's country; one
    that cannot be read is refused (R12, ``roomops.rooms.phones``), as on the phone page."""
    unit.actor.require("floor")
    room = unit.session.get_one(Room, unit.actor.room_id)
    phone = read_optional_phone(phone, room.locale)
    new = Known(0, first_name.strip(), last_name.strip(), phone)
    found = twins_of(new, known_players(unit.session, unit.actor.room_id), region_of(room.locale))
    if found and not create_anyway:
        raise LikelyTwin(found)
    player = Player(room_id=unit.actor.room_id, first_name=new.first_name, last_name=new.last_name,
                    phone=phone, created_at=unit.now)
    unit.session.add(player)
    unit.session.flush()
    twins: dict[str, Any] = {"twins": [t.player.id for t in found]} if found else {}
    unit.audit("player.added", ("player", player.id), name=player.full_name,
               **twins)
    return player


def known_players(session: Session, room_id: int) -> list[Known]:
    """The room's players as the twin check reads them: one narrow statement (a room knows some
    thousands of players; names and phones are compared in Python, as SQL cannot fold case and
    read phone numbers the same way on both databases)."""
    return [Known(*row) for row in session.execute(
        select(Player.id, Player.first_name, Player.last_name, Player.phone).where(
            Player.room_id == room_id).order_by(Player.id))]


def bar_pair(unit: UnitOfWork, a: int, b: int,
             reason: str) -> BarredPair:
    """R15: the house prohibits two players from playing in the same game."""
    unit.actor.require("floor")
    if a == b:
        raise Invalid("a player cannot be barred from themselves", "R15")
    if not reason.strip():
        raise Invalid("barring two players needs a reason", "R15")
    low, high = sorted((get_in_room(unit.session, Player, a, unit.actor, "player").id,
                        get_in_room(unit.session, Player, b, unit.actor, "player").id))
    exists = select(BarredPair.id).where(BarredPair.player_low_id == low,
                                         BarredPair.player_high_id == high,
                                         BarredPair.lifted_at.is_(None))
    if unit.session.scalar(exists):
        raise Conflict("those two players are already barred from each other", "R15")
    pair = BarredPair(room_id=unit.actor.room_id, player_low_id=low, player_high_id=high,
                      reason=reason.strip(), created_at=unit.now, created_by_id=unit.actor.staff_id)
    unit.session.add(pair)
    unit.session.flush()
    unit.audit("barred.added", ("barred_pair", pair.id), reason=reason.strip(),
               players=[low, high])
    return pair
