"""Live screens: a page part that polls an HTML fragment with ``If-None-Match`` and is answered 304
while nothing of the room has changed (the board, the cage's open slips, the dealer's table).

Every ETag is made by ``tag`` from the room's change mark (``roomops.games.marks``), read in one
statement, so an unchanged poll never renders. Every answer carries ``X-Server-Now`` (the app's
clock, in ms) so a page's countdowns run on the server's time, frozen clock included.
``static/live.js`` is the staff screens' poller (the board has its own, ``static/board.js``, which
also pages a TV)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from flask import make_response, request
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.games.marks import Mark, change_mark

# The staff screens poll every second so that a change made elsewhere shows within 2 s.
POLL_SECONDS = 1


def tag(screen: str, mark: Mark, *more: object) -> str:
    """The live screens' one ETag recipe: what is drawn (the screen, what it is of, who looks or in
    which language), the room's change mark, then what else the drawing depends on (empty parts
    left out)."""
    return "-".join([screen, str(mark), *(str(part) for part in more if part not in ("", None))])


def stamp(resp: Response, at: datetime) -> Response:
    resp.headers["X-Server-Now"] = str(int(at.timestamp() * 1000))
    return resp


def fragment(etag: str, at: datetime, render: Callable[[], str]) -> Response:
    """``render()``'s HTML under ETag ``etag``, or 304 when the poll already has it."""
    resp = make_response("", 304) if request.if_none_match.contains_weak(etag) else make_response(render())
    resp.set_etag(etag)
    return stamp(resp, at)


def screen_tag(screen: str, session: Session, room_id: int, viewer: int | None) -> str:
    """A staff screen's ETag: the screen (and what it is of), who looks (the buttons shown depend
    on it) and the room's change mark."""
    return tag(f"{screen}-{viewer}", change_mark(session, room_id))
