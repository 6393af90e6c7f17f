"""The public board (no login, GET only): every running game, its tables, called seats and lists.

``/board`` is the room when the deployment has exactly one (a chooser when it has several);
``/board/<slug>`` always works. The page polls ``/board/<slug>/live`` every ``POLL_SECONDS``: an
HTML fragment whose ETag is the room's change mark (``change_mark``), so an unchanged poll costs
two statements and answers 304. Every answer carries ``X-Server-Now`` (the app's clock, in ms) so
the page's countdowns run on the server's time, frozen clock included.

Privacy (R61): templates never see a ``Player``. ``public_board`` turns the snapshot into plain
strings first, with names passed through ``public_name`` under the room's ``display_name`` policy:
no phone numbers, no ids of players or entries, no staff.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, make_response, render_template, request, url_for
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.audit.models import AuditEvent
from roomops.board import snapshot
from roomops.board.names import public_name
from roomops.rooms.models import Player, Room
from roomops.web.uow import db, now

bp = Blueprint("board", __name__)

POLL_SECONDS = 2
PAGE_SECONDS = 12  # TV: how long each page of a large room stays up
TV_LIST_ROWS = 12  # TV: entries shown per list before "and N more" (the phone shows them all)
MINOR_DIGITS = 2
# Bump when the fragment's markup changes, so pollers holding an old ETag fetch the new markup.
MARKUP = "1"
# Audit ids are handed out before commit: on PostgreSQL a lower id can commit after a higher one.
# Counting the room's rows among the last WINDOW ids catches that late row, which max(id) alone
# would miss (it would leave a board stale until the next change).
WINDOW = 1000
POLICY_LABELS = {"full": "full names", "first_initial": "first name and initial",
                 "initials": "initials"}


# ---- money and stakes (R4, R40, R53) --------------------------------------------------------


def money(amount: int) -> str:
    """Integer minor units to the room currency, exactly (no float): 100 -> '1', 250 -> '2.50',
    1000000 -> '10,000', 5 -> '0.05'."""
    sign = "-" if amount < 0 else ""
    whole, frac = divmod(abs(amount), 10**MINOR_DIGITS)
    text = f"{whole:,}" if frac == 0 else f"{whole:,}.{frac:0{MINOR_DIGITS}d}"
    return sign + text


def stakes(small_blind: int, big_blind: int, ante: int = 0) -> str:
    text = f"{money(small_blind)}/{money(big_blind)}"
    return f"{text} ante {money(ante)}" if ante else text


def straddle_text(allowed: bool, max_straddles: int, button: bool) -> str:
    """R40, as new players must be told it before they sit."""
    if not allowed:
        return "No straddles"
    if max_straddles == 1:
        text = "Straddle: UTG only"
    elif max_straddles > 1:
        text = f"Straddles: up to {max_straddles}, in rotation from UTG"
    else:
        text = "Straddles allowed"
    return text + (", button straddle with the floor's consent" if button else ", no button straddle")


def fee_text(kind: str, hourly_fee: int, rake_percent: int, rake_cap: int) -> str:
    """R50/R51, displayed to players as R53 asks."""
    if kind == "hourly":
        return f"Time: {money(hourly_fee)} per hour, paid in advance"
    if kind == "rake":
        return f"Rake: {rake_percent}%" + (f", max {money(rake_cap)} a pot" if rake_cap else "")
    return "No fee"


# ---- the public view of a room: plain strings only --------------------------------------------


@dataclass
class Called:
    seat_no: int
    name: str
    state: str  # offered | expired
    deadline_ms: int
    seconds_left: int


@dataclass
class Place:
    position: int
    name: str
    note: str = ""
    kind: str = ""  # "" | called | expired | checkin
    missed: str = ""  # the note once a call's deadline has passed
    deadline_ms: int = 0
    seconds_left: int = 0


@dataclass
class TableBoard:
    name: str
    seats: list[tuple[int, str]]  # (seat_no, state)
    seated: int
    open_seats: list[int]
    called: list[Called]
    reserve: list[Place]


@dataclass
class GameBoard:
    key: str
    variant: str
    stakes: str
    buy_in: str
    straddles: str
    fees: str
    seats_per_table: int
    tables: list[TableBoard] = field(default_factory=list)
    waiting: list[Place] = field(default_factory=list)

    @property
    def open_count(self) -> int:
        return sum(len(t.open_seats) for t in self.tables)


@dataclass
class Board:
    room_name: str
    slug: str
    timezone: str
    policy: str
    now_ms: int
    local_time: str
    games: list[GameBoard]


def _ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def _natural(name: str) -> list[object]:
    """Table "2" before table "10"."""
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name)]


def public_board(snap: snapshot.RoomSnapshot) -> Board:
    room, at = snap.room, snap.now
    tz = ZoneInfo(room.timezone)

    def name(player: Player | None) -> str:
        return public_name(player.first_name, player.last_name, room.display_name) if player else ""

    table_names = {tv.table.id: tv.table.name for gv in snap.games for tv in gv.tables}

    def place(v: snapshot.EntryView) -> Place:
        p = Place(v.position, name(v.player))
        if v.offer is not None and v.offer.deadline is not None:
            left = max(0, int((v.offer.deadline - at).total_seconds()))
            where = f"table {table_names.get(v.offer.table_id, '?')} seat {v.offer.seat_no}"
            p.missed = f"missed {where}, re-calling"
            p.kind, p.note = ("called", f"called to {where}") if left else ("expired", p.missed)
            p.deadline_ms, p.seconds_left = _ms(v.offer.deadline), left
        elif v.awaiting_checkin and v.entry.checkin_deadline is not None:
            p.kind = "checkin"
            p.note = f"on the way, check in by {v.entry.checkin_deadline.astimezone(tz):%H:%M}"
        return p

    games = []
    for gv in snap.games:
        gm = gv.game
        board = GameBoard(
            key=f"g{gm.id}", variant=gm.variant, stakes=stakes(gm.small_blind, gm.big_blind, gm.ante),
            buy_in=f"{money(gm.min_buyin)} to {money(gm.max_buyin)}",
            straddles=straddle_text(gm.straddle_allowed, gm.max_straddles, gm.button_straddle),
            fees=fee_text(gm.fee_kind, gm.hourly_fee, gm.rake_percent, gm.rake_cap),
            seats_per_table=gm.seats_per_table, waiting=[place(v) for v in gv.waiting])
        for tv in sorted(gv.tables, key=lambda t: _natural(t.table.name)):
            called = [Called(s.seat_no, name(s.player), s.state, _ms(s.hold.deadline), s.seconds_left)
                      for s in tv.seats
                      if s.state in ("offered", "expired") and s.hold and s.hold.deadline]
            board.tables.append(TableBoard(
                name=tv.table.name, seats=[(s.seat_no, s.state) for s in tv.seats], seated=tv.seated,
                open_seats=[s.seat_no for s in tv.seats if s.state == "empty"], called=called,
                reserve=[place(v) for v in tv.reserve]))
        games.append(board)
    return Board(room.name, room.slug, room.timezone, POLICY_LABELS.get(room.display_name, "initials"),
                 _ms(at), f"{at.astimezone(tz):%H:%M}", games)


# ---- change mark and ETag ---------------------------------------------------------------------


def change_mark(session: Session, room_id: int) -> tuple[int, int]:
    """(latest audit id, how many of the room's rows lie among the last WINDOW ids): one statement.

    The first is ``roomops.audit.service.latest_id`` (the snapshot's version); the second moves when
    a row with a lower id commits late, which the first alone would miss."""
    latest = (select(func.max(AuditEvent.id)).where(AuditEvent.room_id == room_id)
              .scalar_subquery())
    row = session.execute(select(func.max(AuditEvent.id), func.count()).where(
        AuditEvent.room_id == room_id, AuditEvent.id > latest - WINDOW)).one()
    return int(row[0] or 0), int(row[1])


def etag(room: Room, mark: tuple[int, int]) -> str:
    return f"board-{room.id}-{mark[0]}-{mark[1]}-m{MARKUP}"


def _stamp(resp: Response, at: datetime) -> Response:
    resp.headers["X-Server-Now"] = str(_ms(at))
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Robots-Tag"] = "noindex"
    return resp


# ---- views ------------------------------------------------------------------------------------


def _room(slug: str) -> Room:
    room = db().scalar(select(Room).where(Room.slug == slug))
    if room is None:
        abort(404)
    return room


def _page(room: Room) -> Response:
    session, at = db(), now()
    mark = change_mark(session, room.id)
    snap = snapshot.load(session, room.id, at, version=mark[0])
    page = render_template(
        "board/page.html", board=public_board(snap), etag_header=f'"{etag(room, mark)}"', poll=POLL_SECONDS,
        page_seconds=PAGE_SECONDS, tv_rows=TV_LIST_ROWS,
        live_url=url_for("board.live", slug=room.slug),
        phone_url=url_for("board.room", slug=room.slug, _external=True))
    return _stamp(make_response(page), at)


@bp.get("/board")
def index() -> Response:
    rooms = list(db().scalars(select(Room).order_by(Room.name)))
    if not rooms:
        abort(404)
    if len(rooms) == 1:
        return _page(rooms[0])
    resp = make_response(render_template("board/rooms.html", rooms=[(r.name, r.slug) for r in rooms]))
    return _stamp(resp, now())


@bp.get("/board/<slug>")
def room(slug: str) -> Response:
    return _page(_room(slug))


@bp.get("/board/<slug>/live")
def live(slug: str) -> Response:
    """The games fragment for the page's poll: 304 (two statements) while nothing has changed."""
    session, at = db(), now()
    rm = _room(slug)
    mark = change_mark(session, rm.id)
    tag = etag(rm, mark)
    if request.if_none_match.contains(tag):
        resp = Response(status=304)
        resp.set_etag(tag)
        return _stamp(resp, at)
    snap = snapshot.load(session, rm.id, at, version=mark[0])
    resp = make_response(render_template("board/_live.html", board=public_board(snap),
                                         tv_rows=TV_LIST_ROWS))
    resp.set_etag(tag)
    return _stamp(resp, at)
