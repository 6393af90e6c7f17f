"""Estimated waits from the room's own history (issue 21, R10, R13, R14; docs/waits.md).

Reads only. The room's history of the last ``HISTORY_WEEKS`` comes in one statement
(``_history_statement``: players who sat down and left by game and hour, the tables' spans, offers
by outcome and by how long their player had waited, the players seated now), is fitted per game by
``roomops.waits.model`` and kept in a ``WaitsCache`` (one per app) for ``TTL`` of the app's
clock, so a poll never recomputes history. An estimate for a given line (places ahead, tables
running, seats open, the quarter hour it is asked in) is kept too (``_estimate``).

- ``typical_wait``: a new player joining a game now (the board, from the rows it read anyway:
  ``typical_for``).
- ``estimate_for_entry``: a player already on a list (their personal page), by entry id, or by
  game and place (``estimate_at``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

from sqlalchemy import Float, String, and_, case, cast, func, literal, or_, select, union_all
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import FunctionElement

from roomops.errors import NotFound
from roomops.games.models import Game, Table
from roomops.holds.models import OFFER, SEATED, SeatHold
from roomops.kept import Kept
from roomops.lists.models import ListEntry
from roomops.rooms.models import Room
from roomops.waits.model import (
    CALL_BUCKET,
    CALL_BUCKETS,
    MIN_OPENINGS,
    Estimate,
    Rates,
    Tally,
    estimate,
    fit,
    room_prior,
)
from roomops.waits.shown import shown

EXTENSION = "roomops.waits"  # the app's WaitsCache, in app.extensions (roomops.factory)
HISTORY_WEEKS = 8
TTL = timedelta(minutes=10)  # how long a room's fitted history is used before it is read again
BUCKET = timedelta(minutes=15)  # estimates are worked out for the start of each such stretch
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NO_SHOW = ("declined", "expired")  # offers not taken up (R20, R22); a cancelled one says nothing

From = TypeVar("From")  # what a kept wait is worked out from, beside the history
W = TypeVar("W")


@dataclass(frozen=True)
class History:
    """A room's fitted history: each game's rates, the room's own (a game with no history yet, or
    one opened after the read) and whether the room has seen too few seats open yet for its
    estimates to be more than early ones, from priors."""

    read_at: datetime
    timezone: str
    games: dict[int, Rates]
    room: Rates
    early: bool

    def rates(self, game_id: int) -> Rates:
        return self.games.get(game_id, self.room)


class WaitsCache:
    """Each room's ``History`` while younger than ``TTL`` (one per app; thread-safe). It holds
    every room read within the last ``TTL``, however many rooms the deployment has (issue 21): a
    count would have a larger group's rooms push each other out; older ones are dropped as
    others are read, being of no use."""

    def __init__(self) -> None:
        self._rooms: dict[int, History] = {}
        self._lock = threading.Lock()
        self.reads = 0  # how many times history was read (tests)

    def history(self, session: Session, room_id: int, now: datetime) -> History:
        with self._lock:
            kept = self._rooms.get(room_id)
        if kept is not None and now - kept.read_at < TTL and kept.read_at <= now:
            return kept
        fresh = read_history(session, room_id, now)
        with self._lock:
            self.reads += 1
            self._rooms[room_id] = fresh
            for old in [r for r, h in self._rooms.items() if now - h.read_at >= TTL]:
                del self._rooms[old]
        return fresh

    def __len__(self) -> int:
        return len(self._rooms)

    def clear(self) -> None:
        """Forget every room's history, as a new process starts (``roomops.factory.renew``)."""
        with self._lock:
            self._rooms.clear()
            self.reads = 0


# ---- reading the history: one statement ------------------------------------------------------


def _text(column: Any) -> Any:
    return cast(column, String)


_NONE = cast(literal(None), String)


class MinutesBetween(FunctionElement[float]):
    """Minutes from one stored time to another, in each database's own arithmetic."""

    type = Float()
    inherit_cache = True


@compiles(MinutesBetween, "sqlite")
def _minutes_sqlite(element: MinutesBetween, compiler: SQLCompiler, **kw: Any) -> str:
    start, end = (compiler.process(c, **kw) for c in element.clauses)
    return f"((julianday({end}) - julianday({start})) * 1440.0)"


@compiles(MinutesBetween, "postgresql")
def _minutes_postgresql(element: MinutesBetween, compiler: SQLCompiler, **kw: Any) -> str:
    start, end = (compiler.process(c, **kw) for c in element.clauses)
    return f"(EXTRACT(EPOCH FROM ({end} - {start})) / 60.0)"


def _call_bucket(minutes: Any) -> Any:
    """Which ``CALL_BUCKET`` step a wait falls in, the last taking every longer one."""
    return case(*((minutes < (b + 1) * CALL_BUCKET, b) for b in range(CALL_BUCKETS - 1)),
                else_=CALL_BUCKETS - 1)


def _history_statement(room_id: int, since: datetime, now: datetime) -> Any:
    """Rows of (what, game, at, until, n, m), each ``at`` the database's text of a time or its hour:
    1 seated players who left in an hour (``n``; ``m`` of them not as their table closed, R19: the
    seats that opened); 2 a table's span (opened ``at``, closed ``until``, ``n`` seats per table);
    3 offers by outcome (``at``) and how long their player had waited (``m``, in ``CALL_BUCKET``
    steps); 4 players seated in an hour; 5 players seated now. The seats are read by room and time
    (the indexes of migration 0038), the players seated now through the live seats' index."""
    in_room = (SeatHold.room_id == room_id) & (Table.id == SeatHold.table_id)
    ended = func.substr(_text(SeatHold.ended_at), 1, 13)
    opened = case((or_(Table.closed_at.is_(None), SeatHold.ended_at < Table.closed_at), 1), else_=0)
    window_end = (SeatHold.ended_at >= since) & (SeatHold.ended_at < now)
    left = select(literal(1).label("what"), Table.game_id, ended.label("at"), _NONE.label("until"),
                  func.count().label("n"), func.sum(opened).label("m")).where(
        in_room, SeatHold.kind == SEATED, window_end).group_by(Table.game_id, ended)
    spans = select(literal(2), Table.game_id, _text(Table.opened_at), _text(Table.closed_at),
                   Game.seats_per_table, literal(0)).join(Game, Game.id == Table.game_id).where(
        Table.room_id == room_id, Table.opened_at < now,
        or_(Table.closed_at.is_(None), Table.closed_at > since))
    waited = _call_bucket(MinutesBetween(ListEntry.joined_at, SeatHold.started_at))
    offers = select(literal(3), Table.game_id, SeatHold.outcome, _NONE, func.count(), waited).where(
        in_room, ListEntry.id == SeatHold.entry_id, SeatHold.kind == OFFER, window_end,
        SeatHold.outcome.in_(("claimed", *_NO_SHOW))).group_by(Table.game_id, SeatHold.outcome, waited)
    started = func.substr(_text(SeatHold.started_at), 1, 13)
    sat = select(literal(4), Table.game_id, started, _NONE, func.count(), literal(0)).where(
        in_room, SeatHold.kind == SEATED, SeatHold.started_at >= since, SeatHold.started_at < now
    ).group_by(Table.game_id, started)
    live = select(literal(5), Table.game_id, _NONE, _NONE, func.count(), literal(0)).where(
        in_room, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None), SeatHold.started_at < now
    ).group_by(Table.game_id)  # as the sat-down rows: one seated at ``now`` is no history yet
    return union_all(left, spans, offers, sat, live)


def _utc(text: str) -> datetime:
    """The database's text of a stored naive UTC time (or of its hour), as an aware datetime."""
    return datetime.fromisoformat(text[:19]).replace(tzinfo=UTC)


@dataclass
class _Game:
    """A game's rows of the history statement, gathered before they are counted."""

    tally: Tally = field(default_factory=Tally)
    live: int = 0  # players seated now
    moves: dict[datetime, int] = field(default_factory=dict)  # by hour: seated less those who left


def read_tallies(session: Session, room_id: int, now: datetime) -> tuple[str, dict[int, Tally]]:
    """The room's time zone and its games' last ``HISTORY_WEEKS`` as counts: two statements (the
    time zone, then ``_history_statement``). Player-hours seated are rebuilt hour by hour from
    who sat down and who left (``Tally.add_seated_counts``), so no seat's rows are read."""
    timezone = session.scalar(select(Room.timezone).where(Room.id == room_id))
    if timezone is None:
        raise NotFound(f"room {room_id}")
    tz = ZoneInfo(timezone)
    since = now - timedelta(weeks=HISTORY_WEEKS)
    games: dict[int, _Game] = {}
    for what, game_id, at, until, n, m in session.execute(_history_statement(room_id, since, now)):
        game = games.setdefault(game_id, _Game())
        if what in (1, 4):
            hour = _utc(at)
            game.moves[hour] = game.moves.get(hour, 0) + (int(n) if what == 4 else -int(n))
            if what == 1:
                game.tally.add_left(hour, tz, int(m))
        elif what == 2:
            start = _utc(at)
            if start >= since:  # a new table's seats open with it
                game.tally.add_new_table(start, tz, int(n))
            game.tally.add_tables(max(start, since), now if until is None else min(_utc(until), now), tz)
        elif what == 3:
            game.tally.add_offers(int(n), int(n) if at == "claimed" else 0, int(m) * CALL_BUCKET)
        else:
            game.live = int(n)
    for game in games.values():  # seated as the window began: those now, less the window's change
        game.tally.add_seated_counts(since, now, tz, game.live - sum(game.moves.values()), game.moves)
    return timezone, {game_id: game.tally for game_id, game in games.items()}


def read_history(session: Session, room_id: int, now: datetime) -> History:
    """The room's history fitted per game, each towards the room's overall rate (``fit``)."""
    timezone, tallies = read_tallies(session, room_id, now)
    room = Tally()
    for tally in tallies.values():
        room.merge(tally)
    prior = room_prior(room)
    return History(now, timezone, {game_id: fit(tally, prior) for game_id, tally in tallies.items()},
                   fit(room, prior), room.seen < MIN_OPENINGS)


# ---- estimates ---------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _estimate(rates: Rates, ahead: int, tables: int, seats: int, open_now: int, at: datetime,
              timezone: str, early: bool) -> Estimate | None:
    est = estimate(rates, ahead, tables, open_now, at, ZoneInfo(timezone), seats)
    return None if est is None else replace(est, early=early)


def estimate_stretch(now: datetime) -> datetime:
    """The start of the ``BUCKET`` that ``now`` is in: the estimates of a stretch are alike."""
    return now - (now - _EPOCH) % BUCKET


class KeptWaits(Kept[tuple[int, int], tuple[From, datetime, datetime], W]):
    """Each game's typical wait as last worked out, by (room, game): the board's and the desk's
    (one of each, or one per publisher), kept under what it was worked out from (``From``: the
    board's rows of the game, the desk's counts of it), the history's read and the stretch of time
    the estimate is for (docs/waits.md)."""

    def wait(self, room_id: int, game_id: int, inputs: From, history: History, now: datetime,
             work: Callable[[], W]) -> W:
        return self.keep((room_id, game_id), (inputs, history.read_at, estimate_stretch(now)), work)


def typical_for(history: History, game_id: int, waiting: int, tables: int, seats: int, open_now: int,
                now: datetime) -> Estimate | None:
    """The wait of a new player joining the game now, behind the ``waiting`` entries of its lists
    (R13), with ``tables`` of ``seats`` running; None while the game has no table running. A room
    with too little history yet gets an early estimate, from priors."""
    return _estimate(history.rates(game_id), waiting, tables, seats, open_now, estimate_stretch(now),
                     history.timezone, history.early)


# the game's line now: its tables running and their free seats (neither seated nor called)
def _line(game_id: int) -> Any:
    tables = select(func.count()).where(Table.game_id == game_id, Table.status == "open").scalar_subquery()
    seats = select(Game.seats_per_table).where(Game.id == game_id).scalar_subquery()
    held = select(func.count()).select_from(SeatHold).join(Table, Table.id == SeatHold.table_id).where(
        Table.game_id == game_id, Table.status == "open", SeatHold.ended_at.is_(None)).scalar_subquery()
    return tables, seats, held


def _ahead_filter(now: datetime) -> Any:
    """Entries that take a seat before a later one: active, not locked up (R10-R14: a lockup is
    passed over while it runs) and not called already (R20: their seat is held for them, not one
    still to open)."""
    called = select(SeatHold.id).where(SeatHold.entry_id == ListEntry.id, SeatHold.kind == OFFER,
                                       SeatHold.ended_at.is_(None)).exists()
    return and_(ListEntry.status == "active",
                or_(ListEntry.locked_until.is_(None), ListEntry.locked_until <= now), ~called)


def typical_wait(session: Session, cache: WaitsCache, room_id: int, game_id: int, now: datetime
                 ) -> Estimate | None:
    """``typical_for`` read from the database: the room's history (cached) and one statement."""
    tables, seats, held = _line(game_id)
    waiting = select(func.count()).where(ListEntry.game_id == game_id, _ahead_filter(now)).scalar_subquery()
    row = session.execute(select(tables, seats, held, waiting)).one()
    if row[1] is None:
        raise NotFound(f"game {game_id}")
    return typical_for(cache.history(session, room_id, now), game_id, int(row[3]), int(row[0]),
                       int(row[1]), _free(row), now)


def _free(row: Any) -> int:
    return max(0, int(row[0]) * int(row[1]) - int(row[2]))


def estimate_at(session: Session, cache: WaitsCache, room_id: int, game_id: int, ahead: int,
                now: datetime) -> Estimate | None:
    """The wait of the player with ``ahead`` entries before them on the game's lists (R13)."""
    tables, seats, held = _line(game_id)
    row = session.execute(select(tables, seats, held)).one()
    if row[1] is None:
        raise NotFound(f"game {game_id}")
    history = cache.history(session, room_id, now)
    return _estimate(history.rates(game_id), ahead, int(row[0]), int(row[1]), _free(row),
                     estimate_stretch(now), history.timezone, history.early)


def estimate_for_entry(session: Session, cache: WaitsCache, entry_id: int, now: datetime
                       ) -> Estimate | None:
    """The wait of an active list entry: the entries of its game ahead of it in list order (R13;
    waiting and reserve lists alike, as R14 offers a seat to the earliest of them; a reserve entry
    is estimated as if any of the game's tables would do), the game's tables running and free
    seats now. None when it is no longer waiting or no table runs. A must-move player (R17), who
    goes first, frees a seat as they take one, so counts for nothing."""
    entry = session.get(ListEntry, entry_id)
    if entry is None:
        raise NotFound(f"list entry {entry_id}")
    if entry.status != "active":
        return None
    before = or_(ListEntry.queue_at < entry.queue_at,
                 and_(ListEntry.queue_at == entry.queue_at, ListEntry.id < entry.id))
    ahead = select(func.count()).where(ListEntry.game_id == entry.game_id, _ahead_filter(now),
                                       before).scalar_subquery()
    tables, seats, held = _line(entry.game_id)
    row = session.execute(select(tables, seats, held, ahead)).one()
    history = cache.history(session, entry.room_id, now)
    return _estimate(history.rates(entry.game_id), int(row[3]), int(row[0]), int(row[1]), _free(row),
                     estimate_stretch(now), history.timezone, history.early)


def keep_wait_shown(session: Session, cache: WaitsCache, entry_id: int, now: datetime) -> None:
    """R10-R14, R80: the wait a player is shown as they join, kept on their entry to be scored
    against the real one on the figures screen; nothing with no table running (none is shown)."""
    est = estimate_for_entry(session, cache, entry_id, now)
    if est is None:
        return
    s = shown(est)
    entry = session.get_one(ListEntry, entry_id)
    entry.shown_low, entry.shown_median, entry.shown_high = s.low, s.median, s.high
