"""The outbox, in the floor's transaction (docs/messages.md): a text queued for every offer made
(R20), worded in the player's language and written with the offer, and cancelled when the offer
ends before it went out (R21, R22). Sending is ``roomops.messages.sending``, after the commit."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.lists.models import ListEntry
from roomops.messages.courier import Courier
from roomops.messages.models import OutboxMessage
from roomops.messages.rules import BAD_NUMBER, NO_NUMBER, NO_PROVIDER, OfferText
from roomops.messages.sending import send_now
from roomops.remote.models import PlayerLink
from roomops.rooms.models import Player, Room
from roomops.rooms.twins import phone_key, region_of
from roomops.words import translator

log = logging.getLogger("roomops.messages")


_OFFERS = select(SeatHold.id, SeatHold.room_id, SeatHold.player_id, SeatHold.seat_no,
                 SeatHold.deadline, Table.name.label("table_name"), Game.variant,
                 Game.small_blind, Game.big_blind, Game.ante, Player.phone, ListEntry.source,
                 PlayerLink.language).join(
    Table, Table.id == SeatHold.table_id).join(Game, Game.id == Table.game_id).join(
    Player, Player.id == SeatHold.player_id).outerjoin(
    ListEntry, ListEntry.id == SeatHold.entry_id).outerjoin(
    PlayerLink, PlayerLink.id == ListEntry.link_id)


# A plain INSERT on the session's connection, one executemany for all of them: through the ORM's
# bulk INSERT, rows whose None values differ went one statement a row (a sweep's thousand offers:
# a thousand statements, docs/benchmarks.md). Nothing reads the rows back.
_INSERT = insert(OutboxMessage)


def queue_offer_texts(unit: UnitOfWork, courier: Courier, offer_ids: Sequence[int]) -> None:
    """R20: one text per offer still open, in the offer's transaction (one read, one INSERT for
    all of them; an offer the same run ended before its texts were queued gets none: they are
    queued once its seats are all offered); those with a number and a provider are sent once the
    transaction has committed."""
    session, now = unit.session, unit.now
    rows = session.execute(_OFFERS.where(SeatHold.id.in_(offer_ids),
                                         SeatHold.ended_at.is_(None))).all()
    if not rows:
        return
    rooms = {r: session.get_one(Room, r) for r in {row.room_id for row in rows}}
    words = _Words(courier)
    values = [_message(row, rooms[row.room_id], courier, now, words) for row in rows]
    session.connection().execute(_INSERT, values)
    queued = [v["hold_id"] for v in values if v["state"] == "queued"]
    unsent = [(v["hold_id"], v["last_error"]) for v in values if v["state"] == "not_sent"]
    unit.after_commit(lambda: _after(session, courier, now, queued, unsent))


def _after(session: Session, courier: Courier, now: datetime, queued: list[int],
           unsent: list[tuple[int, str]]) -> None:
    for hold_id, reason in unsent:
        log.info("text for offer %d not sent: %s", hold_id, reason)
    if queued and courier.sender is not None:
        courier.sender.wake()  # the process's sender sends them, not the committing request
    elif queued:
        send_now(session, courier.provider, courier.clock or (lambda: now), queued)


class _Words:
    """What many texts of one call share, worked out once: a sweep offers a game's seats together
    (Babel's stakes once, not once a seat) and the room's addresses are the same for all."""

    def __init__(self, courier: Courier) -> None:
        self.courier = courier
        self.games: dict[tuple[Any, ...], str] = {}
        self.links: dict[tuple[str, bool], str] = {}

    def game(self, row: Any, room: Room) -> str:
        key = (row.room_id, row.variant, row.small_blind, row.big_blind, row.ante)
        if key not in self.games:
            self.games[key] = f"{row.variant} {room.money.stakes(row.small_blind, row.big_blind, row.ante)}"
        return self.games[key]

    def link(self, slug: str, own_page: bool) -> str:
        if (slug, own_page) not in self.links:
            self.links[slug, own_page] = self.courier.board_link(slug, own_page)
        return self.links[slug, own_page]


def _message(row: Any, room: Room, courier: Courier, now: datetime, words: _Words) -> dict[str, Any]:
    """The row of one offer's text, worded once, here: a retry sends the same ``body``. Its
    language: the phone page's when the player joined this list from the phone (their link's,
    R12), else the room's default (issue 21)."""
    body = OfferText(room.name, words.game(row, room), row.table_name, row.seat_no, row.deadline,
                     room.timezone, words.link(room.slug, row.source == "remote")).body(
        translator(row.language or room.language))
    number = phone_key(row.phone, region_of(room.locale))
    reason = (NO_NUMBER if number is None else BAD_NUMBER if not number.startswith("+")
              else None if courier.provider.configured else NO_PROVIDER)
    return {"room_id": row.room_id, "hold_id": row.id, "player_id": row.player_id,
            "channel": "sms", "number": number, "body": body,
            "state": "not_sent" if reason else "queued", "attempts": 0,
            "next_attempt_at": None if reason else now, "lease_until": None,
            "last_error": reason, "provider_id": None, "created_at": now, "updated_at": now,
            "sent_at": None}


def cancel_offer_texts(session: Session, now: datetime, offer_ids: Sequence[int]) -> None:
    """R21/R22: an offer claimed, declined, expired or cancelled before its text went out: the
    text is not sent (a stale "your seat is ready" is worse than none). One UPDATE, no read."""
    session.execute(update(OutboxMessage).execution_options(synchronize_session=False).where(
        OutboxMessage.hold_id.in_(offer_ids), OutboxMessage.state == "queued").values(
        state="cancelled", next_attempt_at=None, updated_at=now))
