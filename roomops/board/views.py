"""The public board (no login, GET only): every running game, its tables, called seats and lists.

``/board`` is the room when the deployment has exactly one (a chooser when it has several);
``/board/<slug>`` always works. Where a stream is served (``roomops.push``) the page is pushed each
change; otherwise, or when the stream fails, it polls ``/board/<slug>/live`` every ``POLL_SECONDS``: an
HTML fragment whose ETag is the room's change mark (``roomops.games.marks``) and whether
the sweep is late (``roomops.web.health``: the header's "times may be late"), so an unchanged poll
costs three statements and answers 304. Every answer carries ``X-Server-Now`` (the
app's clock, in ms) so the page's countdowns run on the server's time, frozen clock included.

A page or fragment reads the room's rows (``roomops.board.rows``: a fixed number of statements),
takes each game's HTML from the per-game cache or draws it (``roomops.board.render``), with the
countdowns filled in for the app's clock (``roomops.board.countdown``), so what is served is right
for ``now`` even when every game came from the cache (R20, R22).

Privacy (R61): templates never see a ``Player``, only plain strings, names passed through
``public_name`` under the room's ``display_name`` policy: no phone numbers, no ids of players or
entries, no staff.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, current_app, make_response, render_template, request, url_for
from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.board import countdown
from roomops.board.qr import qr_svg
from roomops.board.render import MARKUP, FragmentCache, games_html
from roomops.board.rows import RowsCache, read_room
from roomops.errors import Invalid
from roomops.games.marks import Mark, change_mark
from roomops.jackpots import reads as jackpot_reads
from roomops.rooms.models import Room
from roomops.waits.services import EXTENSION
from roomops.web.health import room_sweep_state
from roomops.web.language import fragment_language, in_language, tr, use_language
from roomops.web.live import tag
from roomops.web.money import use_room
from roomops.web.public import public_url
from roomops.web.routing import parse_id
from roomops.web.uow import db, now
from roomops.words import N_

bp = Blueprint("board", __name__)


@bp.app_template_filter("breakable")
def breakable(address: str) -> Markup:
    """An address that wraps where a reader expects it to: after a slash, a dot or a colon
    (``<wbr>``), never inside a word, in the TV's narrow side column (issue 40)."""
    return Markup(re.sub(r"(?<=[/.:])(?![/]|$)", "<wbr>", str(escape(address))))

POLL_SECONDS = 2
PAGE_SECONDS = 12  # TV: how long each page of a large room stays up
CACHE = "roomops.board"  # app.extensions key of the app's FragmentCache
ROWS = "roomops.board.rows"  # and of its RowsCache
WAITS = EXTENSION  # and of its WaitsCache (roomops.waits.services), the desk's and player's page's too
WAIT_REFRESH = 15 * 60  # seconds: a board with nothing changed gets its typical waits anew this often
# and, where the page offers its pushed stream (roomops.push), the room's latest message number:
# the page is at least that new, so its stream starts after it (no redraw as it connects)
STREAMS = "roomops.board.streams"
POLICY_LABELS = {"full": N_("full names"), "first_initial": N_("first name and initial"),
                 "initials": N_("initials")}


@dataclass
class Header:
    """The page's header: the room, the naming policy in force (R61) and the room's clock."""

    room_name: str
    timezone: str
    policy: str
    now_ms: int
    local_time: str


def _games(session: Session, room: Room, at: datetime, lang: str) -> Markup:
    """The room's games as shown at ``at`` (countdowns included) in ``lang``, only those of
    ``?games=`` when a TV is given some (``_chosen``)."""
    cache: FragmentCache = current_app.extensions[CACHE]
    known: RowsCache = current_app.extensions[ROWS]
    history = current_app.extensions[WAITS].history(session, room.id, at)
    chosen = _chosen()
    games = [rows for rows in read_room(session, room.id, known)
             if chosen is None or rows[0][0] in chosen]
    return games_html(games, room.id, room.display_name, room.timezone, use_room(room), at, cache,
                      history, lang, jackpot_reads.by_game(session, room.id))


def _chosen() -> frozenset[int] | None:
    """``?games=3,7``: a room with several TVs gives each some of its games (their ids, as the
    desk's game menu and the public feed name them); absent, every game."""
    raw = request.args.get("games")
    if raw is None:
        return None
    ids = [parse_id(part) for part in raw.split(",")]
    if not ids or None in ids:
        raise Invalid(f"games= takes game numbers separated by commas, like 3,7 (got {raw!r})")
    return frozenset(i for i in ids if i is not None)


# ---- change mark and ETag ---------------------------------------------------------------------


def etag(room: Room, mark: Mark, late: bool, at: datetime, lang: str) -> str:
    """``late``: the sweep is late, so the board says its times may be (the page is redrawn when
    that changes). The stretch of ``WAIT_REFRESH`` that ``at`` is in: the typical waits follow the
    hours of the week and the history they learn from, not only the floor's changes. ``lang``:
    the fragment's language (a German phone's copy is no English TV's)."""
    stretch = countdown.to_ms(at) // (WAIT_REFRESH * 1000)
    return tag(f"board-{room.id}", mark, f"m{MARKUP}", lang, f"w{stretch}", "late" if late else "")


def _stamp(resp: Response, at: datetime) -> Response:
    resp.headers["X-Server-Now"] = str(countdown.to_ms(at))
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Robots-Tag"] = "noindex"
    return resp


# ---- views ------------------------------------------------------------------------------------


def _room(slug: str) -> Room:
    room = db().scalar(select(Room).where(Room.slug == slug))
    if room is None:
        abort(404)
    return room


def events_url(room: Room, lang: str) -> str:
    """The room's pushed stream in ``lang`` for a page drawn now (after the room's latest message
    in it), or "" when the deployment serves none (the page polls)."""
    latest: Callable[[int, str], int] | None = current_app.extensions.get(STREAMS)
    return "" if latest is None else url_for("push.board_events", slug=room.slug,
                                             last=latest(room.id, lang), lang=in_language(lang))


def _page(room: Room) -> Response:
    session, at = db(), now()
    lang = use_language(room)
    mark = change_mark(session, room.id)
    late = room_sweep_state(session, at, room.id).stale
    at_ms = countdown.to_ms(at)
    header = Header(room.name, room.timezone, tr(POLICY_LABELS.get(room.display_name, "initials")),
                    at_ms, f"{at.astimezone(ZoneInfo(room.timezone)):%H:%M}")
    page = render_template(
        "board/page.html", head=header, games_html=_games(session, room, at, lang), late=late,
        etag_header=f'W/"{etag(room, mark, late, at, lang)}"', poll=POLL_SECONDS,
        page_seconds=PAGE_SECONDS,
        live_url=url_for("board.live", slug=room.slug, games=request.args.get("games"),
                         lang=in_language(lang)),
        events_url=events_url(room, lang), games=request.args.get("games") or "",
        slug=room.slug, phone_url=public_url("board.room", slug=room.slug),
        join_url=url_for("board.join", slug=room.slug) if room.remote_entries else None)  # R12
    return _stamp(make_response(page), at)


@bp.get("/board")
def index() -> Response:
    rooms = list(db().scalars(select(Room).order_by(Room.name)))
    if not rooms:
        abort(404)
    if len(rooms) == 1:
        return _page(rooms[0])
    use_language(None)  # the player's choice, else the browser's (issue 21)
    resp = make_response(render_template("board/rooms.html", rooms=[(r.name, r.slug) for r in rooms]))
    return _stamp(resp, now())


@bp.get("/board/<slug>")
def room(slug: str) -> Response:
    return _page(_room(slug))


@bp.get("/board/<slug>/live")
def live(slug: str) -> Response:
    """The games fragment for the page's poll, in the page's language (``?lang=``): 304 (three
    statements) while nothing has changed."""
    session, at = db(), now()
    rm = _room(slug)
    lang = fragment_language()
    mark = change_mark(session, rm.id)
    late = room_sweep_state(session, at, rm.id).stale
    tag = etag(rm, mark, late, at, lang)
    if request.if_none_match.contains_weak(tag):
        resp = Response(status=304)
        resp.set_etag(tag)
        return _stamp(resp, at)
    resp = make_response(render_template("board/_live.html", games_html=_games(session, rm, at, lang),
                                         late=late))
    resp.set_etag(tag)
    return _stamp(resp, at)


@bp.get("/board/<slug>/qr.svg")
def qr(slug: str) -> Response:
    """The QR code of the room's phone page, for the TV (the address is the deployment's, so it
    changes only with ``ROOMOPS_PUBLIC_URL``: cached for a day)."""
    resp = Response(qr_svg(public_url("board.room", slug=_room(slug).slug)),
                    mimetype="image/svg+xml")
    resp.headers["Cache-Control"] = "public, max-age=86400"
    return resp
