"""A player's own remote entries through the JSON API (R12, R16, R61; docs/phone.md): join from
the phone (no log-in, throttled per address with the phone page), read and leave one's entries
with the personal link's token in ``X-Player-Link``. Attached to the API blueprint
(``roomops.api.install``)."""

from __future__ import annotations

from datetime import datetime

from flask import request
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.actors import phone_page, player_link
from roomops.api.models import Out
from roomops.api.views import ID, REFUSED, answer, body, route
from roomops.auth.throttle import join_limits
from roomops.errors import NotFound
from roomops.lists.models import EntryStatus
from roomops.remote import reads
from roomops.remote import services as remote
from roomops.remote.models import PlayerLink
from roomops.rooms.models import Room
from roomops.schemas import RemoteJoin
from roomops.web.money import use_room
from roomops.web.uow import db, now, run_as

HEADER = "X-Player-Link"


class CallOut(Out):
    """R20: the seat offered, and when the claim runs out."""

    table: str
    seat_no: int
    deadline: datetime


class HistoryLineOut(Out):
    at: datetime
    text: str


class MyEntryOut(Out):
    """One of the link's entries: nothing of another player but the count ahead (R61)."""

    id: int
    game_id: int
    game: str
    status: EntryStatus
    place: int
    ahead: int
    checkin_deadline: datetime | None
    call: CallOut | None
    history: list[HistoryLineOut]


class MyEntriesOut(Out):
    link_token: str | None = None  # only in a join's answer, when the link is new
    entries: list[MyEntryOut]


def _entries(link: PlayerLink, token: str | None = None, status: int = 200) -> Response:
    session = db()
    room = session.get_one(Room, link.room_id)
    money = use_room(room)
    entries = [{**vars(e), "game_id": e.game.id, "ahead": e.ahead,
                "game": f"{e.game.variant} {money.stakes(e.game.small_blind, e.game.big_blind)}",
                "call": vars(e.call) if e.call else None,
                "history": [{"at": at, "text": text} for at, text in e.history]}
               for e in reads.entries_of(session, link, now())]
    return answer(MyEntriesOut, {"link_token": token, "entries": entries}, status)


def _my_link() -> PlayerLink:
    link = remote.find_link(db(), request.headers.get(HEADER, "").strip())
    if link is None:
        raise NotFound(f"send the personal link's token in {HEADER}", "R61")
    return link


@route("POST", "/remote-entries", tag="phone", body=RemoteJoin, response=MyEntriesOut, status=201,
       summary="Join waiting lists from the phone where the room allows it (R12): no log-in, "
               "throttled per address; answers the new personal link's token once",
       security=(), refusals=(*REFUSED, 429))
@join_limits
def join_remote() -> Response:
    given = body(RemoteJoin)
    room = db().scalar(select(Room).where(Room.slug == given.room))
    if room is None:
        raise NotFound(f"no room {given.room!r}", "R12")
    joined = run_as(phone_page(room.id), remote.join_from_phone,
                    **given.model_dump(exclude={"room"}), token=request.headers.get(HEADER))
    return _entries(joined.link, joined.token, 201)


@route("GET", "/remote-entries", tag="phone", response=MyEntriesOut, security=("playerLink",),
       summary="The personal link's entries: place, players ahead, check-in and claim deadlines, "
               "history in words (R12-R16, R20, R61)")
def my_entries() -> Response:
    return _entries(_my_link())


@route("POST", f"/remote-entries/<{ID}:entry_id>/leave", tag="phone", response=MyEntriesOut,
       security=("playerLink",), takes={"entry_id": "remote_entry"},
       summary="Leave a list through the personal link (R16); the link's own entries only (R61)")
def leave_remote(entry_id: int) -> Response:
    link = _my_link()
    run_as(player_link(link.room_id, link.id), remote.leave, entry_id)
    return _entries(link)
