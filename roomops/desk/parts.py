"""Each game of the desk's live part kept as drawn, and drawn again only when something it shows
may have changed (issue 41: the cost of a change follows the change, not the room).

After one join, ~70% of the desk's redraw was work over the whole room to draw and send one game:
every game's snapshot (31%), every game's digest (18%), the suggestions over every table (~13%;
bench/desks.py, docs/benchmarks.md). Each game's drawing is now derived data (a ``Part``), kept
per room and rights with what it was drawn from, and is shown again while all of it holds:
- its rows' marks (``roomops.seating.rows``): the database moves them on every change of its
  seats, lists, tables, names, texts and blinds, whoever writes (another process too);
- how many of its moments have passed: its rows' deadlines and starts, the second before an
  offer's deadline (R22: from then its call reads as expired), the moment a player away needs a
  note (R25);
- a digest of the rest it shows, read for every game each time in a few statements whatever the
  room's size: its own row (R6), the room's policy (R3), the viewer's rights, the barred pairs
  (R15), its tables' seat-change lists (R36), the return rule on its offers (R27: it reads the
  player's seats in other games, and the clock), its typical wait (docs/waits.md);
- no commit of this process touched it since it was drawn (``roomops.floor.unit.Committed``: the
  games and tables its audit rows and events name; a barred pair or the room's policy, every game).
The others are read alone (``snapshot.load(only=...)``), their suggestions worked out (R15, R19)
and drawn (``desk/_game.html``); a drawing made from nothing is the same, part for part
(tests/http/test_desk_games.py, tests/http/test_desk_changes.py)."""

from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from threading import Lock
from typing import Any

from flask import current_app, render_template
from sqlalchemy import Row
from sqlalchemy.orm import Session

from roomops.desk import dealing
from roomops.desk.dealing import Dealing
from roomops.desk.fingerprint import digest, shared_digest
from roomops.floor.unit import Committed
from roomops.games.models import Game
from roomops.heartbeat.rules import SweepState
from roomops.holds.queries import barred_pairs
from roomops.holds.rules import seconds_left
from roomops.rooms.models import Room
from roomops.seating import returns, snapshot
from roomops.seating.return_rule import Requirement
from roomops.seating.rows import GameRows, KeptRows, Marks
from roomops.seating.seat_changes import Asking, seat_change_lists
from roomops.seating.snapshot import GameView, RoomSnapshot
from roomops.seating.suggest import for_game
from roomops.waits.services import EXTENSION, History, KeptWaits, WaitsCache, typical_for
from roomops.waits.shown import wait_text
from roomops.web.money import room_money

GAME = '<section class="game" '  # how each game's drawing starts (desk/_game.html)
ALL_GAMES = frozenset({"room", "barred_pair"})  # audited kinds any game may show (R3, R15)
_TILL_EXPIRED = timedelta(seconds=1) - timedelta(microseconds=1)  # R22: see ``_moments``


@dataclass(frozen=True)
class Counts:
    """What a game's typical wait is worked out from (docs/waits.md): its entries not called yet
    (R20), tables running, seats a table and seats free."""

    entries: int
    tables: int
    seats: int
    free: int

    def wait(self, history: History, game_id: int, at: datetime) -> str:
        est = typical_for(history, game_id, self.entries, self.tables, self.seats, self.free, at)
        return wait_text(est, self.free > self.entries)


@dataclass(frozen=True)
class Part:
    """One game's drawing (its key and html, ``keyed``) and what it was drawn from."""

    drawn: tuple[str, str]
    marks: Marks | None
    moments: tuple[datetime, ...]
    passed: int
    source: int  # the digest of the rest it shows (``_Room.source``)
    told: int  # the room's commits told when its rows were read
    tables: tuple[tuple[int, str], ...]  # its open tables, ids and names (the page's shape)
    offers: tuple[tuple[int, int, datetime], ...]  # its offers: hold, player, deadline (R27)
    counts: Counts


class Parts:
    """Each room and rights' parts as last drawn, and what this process's commits touched in each
    room (``touched``: a ``told`` hook); safe to share between the server's threads."""

    def __init__(self) -> None:
        self.waits: KeptWaits[Counts, str] = KeptWaits()  # each game's typical wait, as worded
        self._kept: dict[Hashable, dict[int, Part]] = {}
        self._told: dict[int, int] = {}  # by room: commits told so far
        self._touched: dict[tuple[int, str, int], int] = {}  # (room, "g"/"t", id): when last
        self._lock = Lock()

    def touched(self, committed: Committed) -> None:
        with self._lock:
            for room, what in committed.rooms.items():
                told = self._told[room] = self._told.get(room, 0) + 1
                named = [("g", g) for g in what.games] + [("t", t) for t in what.tables]
                for kind, entity in [*named, *([("all", 0)] if what.kinds & ALL_GAMES else [])]:
                    self._touched[(room, kind, entity)] = told

    def told(self, room_id: int) -> int:
        with self._lock:
            return self._told.get(room_id, 0)

    def kept(self, key: Hashable) -> dict[int, Part]:
        with self._lock:
            return self._kept.get(key, {})

    def keep(self, key: Hashable, parts: dict[int, Part]) -> None:
        with self._lock:
            self._kept[key] = parts  # a game closed since is dropped

    def touched_since(self, room_id: int, game_id: int, part: Part) -> bool:
        """Whether a commit told after ``part`` was read touched its game, one of its tables, or
        the room's policy or barred pairs."""
        with self._lock:
            named = [("g", game_id), ("all", 0), *(("t", t) for t, _name in part.tables)]
            return any(self._touched.get((room_id, kind, entity), 0) > part.told
                       for kind, entity in named)


@dataclass
class _Room:
    """What the parts are checked against and drawn with, read for the whole room at once."""

    room: Room
    at: datetime
    floor: bool
    history: History
    seat_changes: dict[int, list[Asking]]
    barred: set[frozenset[int]]
    returning: dict[int, tuple[int, str]]  # R27 by offer: the least buy-in, why
    common: int  # the digest of what every game shows alike
    waits: KeptWaits[Counts, str]
    dealing: Dealing  # R63, R65

    def wait(self, game_id: int, counts: Counts) -> str:
        """The game's typical wait, worked out again only when its counts, the history read or
        the stretch of time changed."""
        return self.waits.wait(self.room.id, game_id, counts, self.history, self.at,
                               lambda: counts.wait(self.history, game_id, self.at))

    def source(self, game: Game, tables: Iterable[int], offers: Iterable[int], wait: str) -> int:
        tables = list(tables)
        return digest((self.common, game, [self.seat_changes.get(t) for t in tables],
                       {hold: self.returning[hold] for hold in offers if hold in self.returning},
                       wait, self.dealing.of(game.id, tables)), self.at)


def draw(session: Session, parts: Parts, rows: KeptRows, key: Hashable, *, room_id: int,
         version: int, at: datetime, sweep: SweepState, floor: bool
         ) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The live part for the rights ``key``: its head, then each game (its key and html) as kept
    where its part holds, else drawn now (no CSRF token in its forms: the page's is put in them)."""
    room = session.get_one(Room, room_id)
    games = snapshot.open_games(session, room_id)
    told = parts.told(room_id)  # before the rows: a commit told after them is drawn next time
    found = rows.rows(session, room_id, [g.id for g in games])
    kept = parts.kept(key)
    offers = [(hold, player, game) for game in games for hold, player, deadline in
              _offers(kept.get(game.id), found.get(game.id)) if seconds_left(deadline, at) > 0]
    waiting = {g.id: sum(1 for e in found[g.id].entries if e.table_id is None)
               for g in games if g.id in found}
    shared = _room_now(session, room, at, floor, _returning(session, room, at, offers), parts.waits,
                       dealing.read(session, room, at, waiting))
    fits = {g.id: part for g in games
            if (part := kept.get(g.id)) is not None and _holds(parts, shared, g, part, found.get(g.id))}
    snap = snapshot.load(session, room_id, at, version=version, kept=rows,
                         only=[g.id for g in games if g.id not in fits])
    made = {gv.game.id: _part(gv, snap, shared, found, told, sweep) for gv in snap.games}
    # a game opened or closed between the two reads is drawn or dropped next time
    ordered = [(g, part) for g in games if (part := fits.get(g.id) or made.get(g.id)) is not None]
    parts.keep(key, {g.id: part for g, part in ordered})
    open_now = {g.id for g in games}
    parts.waits.forget(lambda kept_key: kept_key[0] == room_id and kept_key[1] not in open_now)
    form = shape([(g, list(part.tables)) for g, part in ordered], room, at)
    head = render_template("desk/_live.html", snap=snap, sweep=sweep, floor=floor, count=len(ordered),
                           shape=form)
    return head, tuple(part.drawn for _g, part in ordered)


def keyed(html: str) -> tuple[str, str]:
    """A game's drawing with its key: a digest of what it shows, the same whenever it is drawn
    until something in it changes (its clocks' texts are desk.js's)."""
    html = html.strip()
    key = hashlib.blake2b(html.encode(), digest_size=8).hexdigest()
    return key, html.replace(GAME, f'{GAME}data-key="{key}" ', 1)


def _offers(part: Part | None, rows: GameRows | None) -> Iterable[tuple[int, int, datetime]]:
    """A game's offers (R20): as its part has them while its rows are those it was drawn from."""
    if part is not None and rows is not None and part.marks == rows.marks and part.marks is not None:
        return part.offers
    return () if rows is None else _offers_in(rows)


def _offers_in(rows: GameRows) -> tuple[tuple[int, int, datetime], ...]:
    """The offers among a game's rows, counting down (R20; a seat change held for the hand's end,
    R36, has no timer): hold, player, deadline."""
    return tuple((h.id, h.player_id, h.deadline) for h in rows.holds
                 if h.kind == "offer" and h.reserved_at is None)


def _room_now(session: Session, room: Room, at: datetime, floor: bool,
              returning: dict[int, tuple[int, str]], kept_waits: KeptWaits[Counts, str],
              dealers: Dealing) -> _Room:
    waits: WaitsCache = current_app.extensions[EXTENSION]
    barred = barred_pairs(session, room.id)
    history = waits.history(session, room.id, at)
    common = digest((room, floor, sorted(sorted(pair) for pair in barred)), at)
    return _Room(room, at, floor, history, seat_change_lists(session, room.id), barred, returning,
                 common, kept_waits, dealers)


def _holds(parts: Parts, shared: _Room, game: Game, part: Part, rows: GameRows | None) -> bool:
    """Whether ``part`` is still what drawing ``game`` now gives."""
    return (rows is not None and rows.marks is not None and rows.marks == part.marks
            and bisect_right(part.moments, shared.at) == part.passed
            and part.source == shared.source(game, (t for t, _name in part.tables),
                                             (hold for hold, _p, _d in part.offers),
                                             shared.wait(game.id, part.counts))
            and not parts.touched_since(shared.room.id, game.id, part))


def _part(gv: GameView, snap: RoomSnapshot, shared: _Room, found: Mapping[int, GameRows],
          told: int, sweep: SweepState) -> Part:
    """``gv`` drawn now, with what it is drawn from. The tables it names (offers, moves,
    must-move) are its own (R14, R17, R19)."""
    game, read = gv.game, snap.rows.get(gv.game.id) or found.get(gv.game.id) or GameRows()
    uncalled = [e for e in (*gv.waiting, *(r for t in gv.tables for r in t.reserve)) if e.offer is None]
    counts = Counts(len(uncalled), len(gv.tables),
                    game.seats_per_table,
                    sum(1 for t in gv.tables for s in t.seats if s.state == "empty"))
    wait = shared.wait(game.id, counts)
    balance, barred_moves = for_game(gv, shared.barred)
    offers = _offers_in(read)
    names = {tv.table.id: tv.table.name for tv in gv.tables}
    html = render_template(
        "desk/_game.html", gv=gv, table_names=names, snap=snap, sweep=sweep, csrf_token=lambda: "",
        tz=shared.room.timezone, floor=shared.floor, returning=shared.returning,
        waits={game.id: wait}, balance={game.id: balance} if balance else {},
        barred_moves={game.id: barred_moves} if barred_moves else {},
        seat_changes=shared.seat_changes, dealing=shared.dealing)
    moments = _moments(read, shared.room)
    return Part(keyed(html), read.marks, moments, bisect_right(moments, snap.now),
                shared.source(game, names, (hold for hold, _p, _d in offers), wait), told,
                tuple(names.items()), offers, counts)


def _moments(rows: GameRows, room: Room) -> tuple[datetime, ...]:
    """Every moment at which the game's drawing may change with the clock alone: its rows' own
    (a deadline reached, R22-R24, R29), the microsecond after the last whole second before an
    offer's deadline (its seconds left reach 0: it reads as expired, R22), and when a player away
    with no note has been away ``away_notify_minutes`` (R25)."""
    notify = timedelta(minutes=room.away_notify_minutes)
    return tuple(sorted([*rows.moments,
                         *(h.deadline - _TILL_EXPIRED for h in rows.holds if h.kind == "offer"),
                         *(h.absence_started_at + notify for h in rows.holds
                           if _away_without_note(h))]))


def _away_without_note(hold: Row[Any]) -> bool:
    return bool(hold.absence_kind == "away" and hold.absence_note is None)


def shape(games: list[tuple[Game, list[tuple[int, str]]]], room: Room, at: datetime) -> str:
    """What the page around the live part is drawn from: the games and their conditions, their
    tables (ids and names), the room's policy (its forms list and name them). A desk whose page
    shows another draws its forms again (``views.forms``) once nobody is typing in them (desk.js)."""
    return shared_digest((games, room), at)


def why(required: Requirement, tz: str) -> str:
    """R27 as the desk says it: "returning within 2 h: at least £650.00 (left table 3 at 21:14)"."""
    return required.why(tz, room_money()(required.minimum))


def _returning(session: Session, room: Room, at: datetime,
               offers: list[tuple[int, int, Game]]) -> dict[int, tuple[int, str]]:
    """R27 for every live offer on the desk, by offer id: (the least buy-in, why). One statement
    for all offers."""
    found = returns.requirements(session, room, at, [(player, game) for _hold, player, game in offers])
    return {hold: (req.minimum, why(req, room.timezone)) for hold, player, game in offers
            if (req := found.get((player, game.id))) is not None}
