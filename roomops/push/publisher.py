"""After a commit, the board's changes drawn once and published (issue 21).

Every commit of the app's sessions (a desk action, the sweep, a CLI command: SQLAlchemy's
``after_commit``, so never for a rollback) nudges the publisher; its thread wakes, reads each room
as the board does (``roomops.board.rows``: only games whose board mark moved are read again),
compares each game's ``GameKey`` with what it last published, draws only the games that changed
(from the per-game cache where it can) and sends one update per room that changed. Nudges that
come while it works fold into its next pass, so a burst of commits costs one pass. It also wakes
every ``TICK`` seconds: a call or a break runs out with no commit, and the sweep may be late
(the header's "times may be late"), and a change committed by another process is its own
publisher's to send. A process's first pass sends each room whole (a broker's state is then
complete); the publisher's work happens off the request's thread, a moment after the commit
(``SETTLE``), and a game at a time, each when the process answers no request
(``roomops.push.inflight``): the desk does not wait for it.

Each game is drawn once per language its screens read (issue 21; at most once per supported
language, never per screen), and sent on the room's channel in that language; a language no
screen reads is not drawn (issue 41: ``Broker.shown``, the push servers' pages' languages)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from flask import Flask
from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.board import countdown
from roomops.board.render import FragmentCache, GameKey, Wait, game_html, game_key, kept_wait
from roomops.board.rows import GameRows, RowsCache, read_room
from roomops.board.views import CACHE, ROWS, WAITS
from roomops.jackpots import reads as jackpot_reads
from roomops.push.brokers import Broker
from roomops.push.hub import Channel
from roomops.push.inflight import PATIENCE, InFlight, Patience
from roomops.push.messages import Update
from roomops.rooms.languages import DEFAULT
from roomops.rooms.models import Room
from roomops.runtime import ext, favour_waiting_threads
from roomops.waits.services import KeptWaits
from roomops.web.health import room_sweep_state

log = logging.getLogger("roomops.push")
TICK = 2.0
# After a nudge, let the committing request send its answer before the pass takes the interpreter
# (one process, one GIL): the desk pays nothing, the screens ~20 ms.
SETTLE = 0.02


@dataclass
class _Sent:
    keys: dict[str, GameKey]
    order: tuple[str, ...]
    late: bool


class Publisher:
    def __init__(self, app: Flask, broker: Broker, inflight: InFlight | None = None) -> None:
        self.app, self.broker = app, broker
        self.inflight = inflight or InFlight()  # the process's requests, answered first
        self._drawn: tuple[str, ...] = (DEFAULT,)  # the languages of the last pass
        self._asked: dict[str, None] = {}  # languages pages asked for since it (in order)
        # apart from the start lock, which a first pass run on the caller's thread holds
        self._languages_lock = threading.Lock()
        self._sent: dict[Channel, _Sent] = {}
        self._waits: KeptWaits[GameRows, Wait] = KeptWaits()  # the games' waits
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        # other sends of each pass, made first (roomops.push.staff: the staff screens' notices)
        self.before: list[Callable[[Session], int]] = []

    def want(self, lang: str) -> None:
        """A page or screen reads ``lang``: draw it too, from the next pass (at once when the
        thread runs; its first message is the room whole), in every web process (``Broker.want``)."""
        self.broker.want(lang)
        with self._languages_lock:
            known = lang in self._drawn or lang in self._asked
            self._asked[lang] = None
        if self.running and not known:
            self.nudge()

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages drawn: the last pass's and those asked for since."""
        with self._languages_lock:
            return tuple(dict.fromkeys((*self._drawn, *self._asked)))

    def _languages_now(self) -> tuple[str, ...]:
        """This pass's languages: the room's default always (its TV), those asked for since the
        last pass and those a screen reads now (``Broker.shown``), never one no screen shows
        (issue 41). A language left out is forgotten: shown again, it is sent whole."""
        with self._languages_lock:
            asked, self._asked = tuple(self._asked), {}
        drawn = tuple(dict.fromkeys((DEFAULT, *asked, *sorted(self.broker.shown()))))
        for channel in [c for c in self._sent if c[1] not in drawn]:
            del self._sent[channel]
        with self._languages_lock:
            self._drawn = drawn
        return drawn

    def nudge(self) -> None:
        """Something was committed: publish what changed (soon, on the publisher's thread)."""
        self._wake.set()

    def start(self, first_pass_here: bool = False) -> None:
        """Start the thread, once; its first pass at once, or first here on the caller's thread
        (a page about to be drawn then starts its stream after that pass)."""
        with self._start_lock:
            if self._thread is None:
                if first_pass_here:  # for the request asking: it waits for none (itself)
                    self.publish_changes(waiting=0.0)
                else:
                    self._wake.set()
                favour_waiting_threads()  # the drawing beside the requests
                self._thread = threading.Thread(target=self._run, name="roomops-push", daemon=True)
                self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        with self._start_lock:  # a start under way has started its thread by the time it lets go
            thread = self._thread
        if thread is not None:
            thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._wake.wait(TICK):
                time.sleep(SETTLE)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                self.publish_changes()
            except Exception:  # a screen update must never end the thread: the next pass retries
                log.exception("publishing the board's changes failed")

    def publish_changes(self, waiting: float = PATIENCE) -> int:
        """One pass over every room, waiting ``waiting`` seconds at most in all for the process's
        requests; returns how many updates it sent."""
        patience = Patience(self.inflight, waiting)
        with self.app.app_context():
            session = ext(self.app).read_sessions()
            try:
                for send in self.before:
                    patience.wait()
                    try:
                        send(session)
                    except Exception:  # never the board's pass: the staff screens' safety poll covers
                        log.exception("telling the staff screens failed")
                        session.rollback()
                languages = self._languages_now()
                return sum(self._room(session, room, languages, patience)
                           for room in list(session.scalars(select(Room))))
            finally:
                session.close()

    def _room(self, session: Session, room: Room, languages: tuple[str, ...],
              patience: Patience) -> int:
        """The room read once, sent in each of ``languages``."""
        patience.wait()
        at = ext(self.app).clock.now()
        late = room_sweep_state(session, at, room.id).stale
        known: RowsCache = self.app.extensions[ROWS]
        games = list(read_room(session, room.id, known))
        history = self.app.extensions[WAITS].history(session, room.id, at)
        jackpots = jackpot_reads.by_game(session, room.id)  # R69: a drop pushes its games
        # each game's key worked out once (its wait among it), then named in each language
        first: dict[str, GameKey] = {}
        for rows in games:
            patience.wait()
            first[f"g{rows[0][0]}"] = game_key(rows, room.id, room.display_name, room.timezone,
                                               room.money, at,
                                               kept_wait(self._waits, room.id, rows, history, at), DEFAULT,
                                               jackpots.get(rows[0][0], ()))
        open_now = {rows[0][0] for rows in games}
        self._waits.forget(lambda key: key[0] == room.id and key[1] not in open_now)
        return sum(self._language(room, lang, late, {k: key._replace(language=lang)
                                                     for k, key in first.items()}, at, patience)
                   for lang in languages)

    def _language(self, room: Room, lang: str, late: bool, keys: dict[str, GameKey],
                  at: datetime, patience: Patience) -> int:
        now_ms = countdown.to_ms(at)
        cache: FragmentCache = self.app.extensions[CACHE]
        order = tuple(keys)
        before = self._sent.get((room.id, lang))
        changed = [k for k, key in keys.items() if before is None or before.keys.get(k) != key]
        gone = [] if before is None else [k for k in before.keys if k not in keys]
        if before is not None and not changed and not gone and order == before.order \
                and late == before.late:
            return 0
        games: dict[str, str | None] = dict.fromkeys(gone)
        for k in changed:
            patience.wait()
            games[k] = game_html(keys[k], cache).at(now_ms)
        self.broker.send(Update(room.id, now_ms, order, games, late, full=before is None,
                                lang=lang), room.slug)
        self._sent[room.id, lang] = _Sent(keys, order, late)
        return 1
