"""Live screens: a page part that polls an HTML fragment with ``If-None-Match`` and is answered 304
while nothing of the room has changed (the board, the cage's open slips, the dealer's table).

The ETag is the room's change mark (``change_mark``), read in one statement, so an unchanged poll
never renders. Every answer carries ``X-Server-Now`` (the app's clock, in ms) so a page's
countdowns run on the server's time, frozen clock included. ``static/live.js`` is the staff
screens' poller (the board has its own, ``static/board.js``, which also pages a TV)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from flask import make_response, request
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.audit.models import RoomMark
from roomops.games.models import BoardMark, Game

# The staff screens poll every second so that a change made elsewhere shows within 2 s.
POLL_SECONDS = 1

_ROOM_MARK = select(RoomMark.mark).where(RoomMark.room_id == bindparam("room_id")).scalar_subquery()
# The sum of the room's board marks: each only grows, so the sum moves with every move of one.
_BOARD_MARKS = select(func.coalesce(func.sum(BoardMark.mark), 0)).join(
    Game, Game.id == BoardMark.game_id).where(Game.room_id == bindparam("room_id")).scalar_subquery()
_MARK = select(func.coalesce(_ROOM_MARK, 0), _BOARD_MARKS)


def change_mark(session: Session, room_id: int) -> tuple[int, int]:
    """(the room's audit mark, the sum of its games' board marks): one statement, which every poll
    runs, reading one row by its key and the room's games, however long the audit trail (issue 21).

    The first moves with the commit of every audit row of the room (R60), whatever order their
    ids were handed out in (migration 0040); the second with every change the board shows of a
    game, audited or not (a fix made by hand: migration 0020)."""
    row = session.execute(_MARK, {"room_id": room_id}).one()
    return int(row[0]), int(row[1])


def stamp(resp: Response, at: datetime) -> Response:
    resp.headers["X-Server-Now"] = str(int(at.timestamp() * 1000))
    return resp


def fragment(tag: str, at: datetime, render: Callable[[], str]) -> Response:
    """``render()``'s HTML under ETag ``tag``, or 304 when the poll already has it."""
    resp = make_response("", 304) if request.if_none_match.contains_weak(tag) else make_response(render())
    resp.set_etag(tag)
    return stamp(resp, at)


def screen_tag(screen: str, session: Session, room_id: int, viewer: int | None) -> str:
    """A staff screen's ETag: the screen (and what it is of), who looks (the buttons shown depend
    on it) and the room's change mark."""
    mark = change_mark(session, room_id)
    return f"{screen}-{viewer}-{mark[0]}-{mark[1]}"
