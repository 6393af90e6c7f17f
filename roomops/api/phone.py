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
from roomops.errors import Invalid, NotFound
from roomops.lists.models import EntryStatus
from roomops.remote import reads, rules
from roomops.remote import services as remote
from roomops.remote.models import PlayerLink
from roomops.rooms.models import Room
from roomops.runtime import ext
from roomops.schemas import ConfirmCode, RemoteJoin
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
    # R12: where the room texts a code, a join answers 202 with these and no entries: the code
    # texted to the number and this token complete it (POST /remote-entries/confirm)
    code_token: str | None = None
    code_deadline: datetime | None = None
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
    if not rules.link_live(link.expires_at, now()):
        raise NotFound("the personal link has ended (the gaming day after its last join): join "
                       "again", "R61", status=410)
    return link


def _room(slug: str) -> Room:
    room = db().scalar(select(Room).where(Room.slug == slug))
    if room is None:
        raise NotFound(f"no room {slug!r}", "R12")
    return room


@route("POST", "/remote-entries", tag="phone", body=RemoteJoin, response=MyEntriesOut, status=201,
       summary="Join waiting lists from the phone where the room allows it (R12): no log-in, "
               "throttled per address; answers the new personal link's token once. Where the "
               "room texts codes, 202 with a code_token instead: the join waits for the code",
       security=(), refusals=(*REFUSED, 429))
@join_limits
def join_remote() -> Response:
    given = body(RemoteJoin)
    room = _room(given.room)
    joined = run_as(phone_page(room.id), remote.join_from_phone,
                    **given.model_dump(exclude={"room"}), token=request.headers.get(HEADER),
                    codes=ext().courier.provider.configured)
    if isinstance(joined, remote.CodeSent):
        return answer(MyEntriesOut, {"code_token": joined.secret,
                                     "code_deadline": joined.code.deadline, "entries": []}, 202)
    return _entries(joined.link, joined.token, 201)


@route("POST", "/remote-entries/confirm", tag="phone", body=ConfirmCode, response=MyEntriesOut,
       status=201, security=(), refusals=(*REFUSED, 429),
       summary="Complete a join with the code texted to its number (R12): 422 for a wrong code "
               "(counted), 409 once it ran out or was typed wrong too often")
@join_limits
def confirm_remote() -> Response:
    given = body(ConfirmCode)
    room = _room(given.room)
    done = run_as(phone_page(room.id), remote.confirm_code, secret=given.code_token,
                  code=given.code, token=request.headers.get(HEADER))
    if isinstance(done, remote.WrongCode):  # the try is counted and committed
        raise Invalid(f"code: not the code texted; {done.left} tries left", "R12")
    return _entries(done.link, done.token, 201)


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
