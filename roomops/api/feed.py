"""The public live-games feed (R4, R40, R53, R61): each running game's stakes, buy-in, fees,
straddle settings, tables, open seats, players waiting and the typical wait, for a room's website or a listing
site. No login, no player names or ids (R61: players appear only as counts).

It is read from the board's own read model (``roomops.board.rows``: a fixed number of
statements, whatever the room's size) and its words from the board's (``game_board``), so the
feed and the wall board never disagree; the typical wait is the board's too (``roomops.waits``).
Its ETag is the board's (the room's change mark and the quarter hour the waits are for): an
unchanged poll costs one statement and answers 304. Any site may read it (CORS ``*``; no
credentials are involved) and caches may keep it for ``MAX_AGE`` seconds."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from flask import current_app, request
from pydantic import BaseModel, Field
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.api.views import route
from roomops.board import countdown
from roomops.board.render import GameBoard, absences_running, calls_live, game_board, game_wait
from roomops.board.rows import GameRows, RowsCache, read_room
from roomops.board.views import ROWS, WAITS, etag
from roomops.errors import NotFound
from roomops.games.marks import change_mark
from roomops.rooms.languages import DEFAULT
from roomops.rooms.models import Room
from roomops.waits.model import Estimate
from roomops.waits.shown import shown, wait_text
from roomops.web.money import use_room
from roomops.web.uow import db, now

MAX_AGE = 5  # seconds: a listing site's refresh need not reach the database every time


class Amounts(BaseModel):
    """Amounts in the room's currency, in integer minor units, and as the room writes them."""

    currency: str = Field(description="ISO 4217 code")
    text: str = Field(description="as the room writes it, e.g. £1/£2")


class Stakes(Amounts):
    small_blind: int
    big_blind: int
    ante: int


class BuyIn(Amounts):
    minimum: int
    maximum: int


class Straddles(BaseModel):
    allowed: bool
    max_straddles: int
    button_straddle: bool
    text: str = Field(description="R40 in words, e.g. 'Straddles: up to 2, button straddle allowed'")


class FeedTable(BaseModel):
    name: str
    seats: int
    seated: int
    open_seats: int = Field(description="seats nobody sits in or is called to (R14, R20)")


class Wait(BaseModel):
    """The typical wait of a player joining now, learned from the room's history (docs/waits.md)."""

    text: str = Field(description="as the board says it, e.g. 'Typical wait ~25 min (15-40)'")
    seats_open: bool = Field(description="a seat is free for a player joining now")
    low_minutes: int | None = Field(description="R10-R14: the range's low end as shown, whole minutes; "
                                    "null without a figure")
    median_minutes: int | None = Field(description="the most likely wait, as shown")
    high_minutes: int | None = Field(description="the range's high end as shown; null: open-ended, "
                                     "or without a figure")
    early: bool = Field(False, description="R10-R14: an early estimate, from priors: the room has "
                        "little history yet")


class FeedGame(BaseModel):
    id: int
    variant: str
    stakes: Stakes
    buy_in: BuyIn
    fees: str = Field(description="R53: the session fee or rake in force, in words")
    straddles: Straddles
    seats_per_table: int
    tables: list[FeedTable]
    open_seats: int
    waiting: int = Field(description="players on the game's lists (R10, R11)")
    typical_wait: Wait


class LiveGames(BaseModel):
    room: str
    timezone: str
    games: list[FeedGame] = Field(description="running games, lowest stakes first (R4)")


def _wait(est: Estimate | None, seats_open: bool) -> Wait:
    s = None if est is None else shown(est)
    return Wait(text=wait_text(est, seats_open), seats_open=seats_open,
                low_minutes=None if s is None else s.low, median_minutes=None if s is None else s.median,
                high_minutes=None if s is None else s.high, early=s is not None and s.early)


def _game(rows: GameRows, board: GameBoard, currency: str, wait: Wait) -> FeedGame:
    game = rows[0]
    (game_id, variant, small_blind, big_blind, ante, min_buyin, max_buyin, seats) = game[:8]
    allowed, max_straddles, button = game[12:15]
    return FeedGame(
        id=game_id, variant=variant,
        stakes=Stakes(currency=currency, text=board.stakes, small_blind=small_blind,
                      big_blind=big_blind, ante=ante or 0),
        buy_in=BuyIn(currency=currency, text=board.buy_in, minimum=min_buyin, maximum=max_buyin),
        fees=board.fees,
        straddles=Straddles(allowed=allowed, max_straddles=max_straddles or 0,
                            button_straddle=bool(button), text=board.straddles),
        seats_per_table=seats,
        tables=[FeedTable(name=t.name, seats=len(t.seats), seated=t.seated,
                          open_seats=len(t.open_seats)) for t in board.tables],
        open_seats=board.open_count, waiting=len(rows[3]), typical_wait=wait)


def _feed(room: Room) -> LiveGames:
    known: RowsCache = current_app.extensions[ROWS]
    at = now()
    money, tz, at_ms = use_room(room), ZoneInfo(room.timezone), countdown.to_ms(at)
    history = current_app.extensions[WAITS].history(db(), room.id, at)
    games = []
    for rows in read_room(db(), room.id, known):
        board = game_board(rows, "initials", tz, money, calls_live(rows, at_ms),
                           absences_running(rows, at_ms))
        games.append(_game(rows, board, room.currency, _wait(*game_wait(rows, history, at))))
    return LiveGames(room=room.name, timezone=room.timezone, games=games)


def _public(resp: Response, tag: str) -> Response:
    resp.set_etag(tag)
    resp.headers["Cache-Control"] = f"public, max-age={MAX_AGE}"
    resp.headers["Access-Control-Allow-Origin"] = "*"
    resp.headers["Access-Control-Expose-Headers"] = "ETag"
    return resp


@route("GET", "/public/rooms/<slug>/games", security=(), response=LiveGames, tag="public",
       refusals=(404,),
       summary="The room's running games for its website or a listing site: stakes, buy-in, "
               "fees (R53), straddles (R40), tables, open seats and players waiting; no names "
               "(R61); ETag and CORS")
def live_games(slug: str) -> Response:
    room = db().scalar(select(Room).where(Room.slug == slug))
    if room is None:
        raise NotFound(f"no room called {slug}")
    tag = "games-" + etag(room, change_mark(db(), room.id), False, now(), DEFAULT)
    if request.if_none_match.contains_weak(tag):
        return _public(Response(status=304), tag)
    return _public(Response(_feed(room).model_dump_json(), mimetype="application/json"), tag)
