"""The staff screens' notices (issue 21): the desk, the dealer's table and the cage told that
something they show changed; each then re-reads its own fragment (per viewer, with its ETag).

The publisher's pass takes the audit rows committed since the last (``Feed``), looks up what
they touch, builds one ``Notice`` per room (``roomops.push.notices``) and sends it: to this
process's ``StaffHub`` (embedded, no broker) or over Redis to the push servers. A hub indexes
its screens by room and key (``floor``, ``cage``, ``t<table>``, ``g<game>``), so a notice
reaches only the screens it concerns, encoded once. A screen whose queue is full is sent one
"everything" notice instead of what it missed (it re-reads once).

R61: the streams are staff-only. The app's own streams need the log-in and the screen's right;
the push server (no database) takes a token signed with the app's secret key, naming the room,
the screen's keys, the log-in (staff member and session version) and when it expires
(``STREAM_SECONDS``), in a cookie scoped to the screen's stream path, never in its address: a
stream ends when its token expires, and the browser reconnects with the cookie its part's last
answer renewed. A log-out ends its streams at once (issue 40): the app's own by its hub, the push
server's through Redis (``end``), which also keeps the log-in's end for as long as a token lives."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import NamedTuple, Protocol, TypeVar

import redis
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from roomops.audit.models import AuditEvent
from roomops.audit.rows import AuditRow
from roomops.holds.models import SeatChangeRequest, SeatHold
from roomops.ledger.models import TransitSlip
from roomops.lists.models import ListEntry
from roomops.messages.sending import texts_changed
from roomops.push.inbox import AsyncInbox, ThreadInbox
from roomops.push.notices import Notice, Row, needs, row_of, scope
from roomops.rooms.models import Room
from roomops.runtime import ext
from roomops.web.health import room_sweep_state

QUEUE = 16  # notices a screen may fall behind before it is told "everything" instead
STREAM_SECONDS = 600  # a staff stream's life (and its token's): the log-in is checked again then
EVERYTHING = b'event: staff\ndata: {"all":true}\n\n'
# the staff stream's token on the push server: a cookie scoped to the screen's stream path
# (HttpOnly, SameSite=Strict), never in an address (docs/security.md)
STREAM_COOKIE = "roomops_staff_stream"
KEEPALIVE = b": keep-alive\n\n"  # a comment: no event, keeps proxies from closing an idle stream


class LoggedIn(NamedTuple):
    """Whose log-in a screen is of: the staff member and the session version it began under (a
    log-out moves the version on: every log-in of theirs before it ends, R61)."""

    staff_id: int
    version: int


class Screen:
    """One open staff screen: its room, the keys it is told of, whose log-in; offered notices
    never block. ``ended``: its log-in ended, the stream closes."""

    inbox: ThreadInbox[bytes] | AsyncInbox[bytes]

    def __init__(self, room_id: int, keys: Iterable[str], login: LoggedIn) -> None:
        self.room_id, self.keys, self.behind = room_id, frozenset(keys), False
        self.login, self.ended = login, False

    def end(self) -> None:
        """Close the stream now: its wait for the next notice is woken (a keep-alive, then out)."""
        self.ended = True
        self.inbox.clear()
        self.inbox.put(KEEPALIVE)

    def offer(self, sse: bytes) -> None:
        if not self.inbox.put(sse):
            self.behind = True

    def caught_up(self) -> bytes | None:
        """"Everything", once, for a screen that fell behind (what it missed is dropped)."""
        if not self.behind:
            return None
        self.behind = False
        self.inbox.clear()
        return EVERYTHING


class ThreadScreen(Screen):
    """Served by a server thread (the app's own streams)."""

    def __init__(self, room_id: int, keys: Iterable[str], login: LoggedIn,
                 size: int = QUEUE) -> None:
        super().__init__(room_id, keys, login)
        self.inbox: ThreadInbox[bytes] = ThreadInbox(size)

    def next(self, timeout: float) -> bytes | None:
        """The next notice, or None after ``timeout`` seconds of none (time for a keep-alive)."""
        return self.caught_up() or self.inbox.get(timeout) or self.caught_up()


class AsyncScreen(Screen):
    """Served by the push server's event loop (notices are offered from that loop)."""

    def __init__(self, room_id: int, keys: Iterable[str], login: LoggedIn,
                 size: int = QUEUE) -> None:
        super().__init__(room_id, keys, login)
        self.inbox: AsyncInbox[bytes] = AsyncInbox(size)

    async def next(self, timeout: float) -> bytes | None:
        return self.caught_up() or await self.inbox.get(timeout) or self.caught_up()


S = TypeVar("S", bound=Screen)


class StaffHub:
    """The open staff screens, by (room, key)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[tuple[int, str], set[Screen]] = {}
        self._rooms: dict[int, set[Screen]] = {}

    def subscribe(self, screen: S) -> S:
        with self._lock:
            self._rooms.setdefault(screen.room_id, set()).add(screen)
            for key in screen.keys:
                self._by_key.setdefault((screen.room_id, key), set()).add(screen)
        return screen

    def unsubscribe(self, screen: Screen) -> None:
        with self._lock:
            self._rooms.get(screen.room_id, set()).discard(screen)
            for key in screen.keys:
                self._by_key.get((screen.room_id, key), set()).discard(screen)

    def publish(self, notice: Notice) -> int:
        """Offer ``notice`` to the screens it concerns; returns how many."""
        with self._lock:
            if notice.everything:
                told = set(self._rooms.get(notice.room_id, ()))
            else:
                told = {s for k in notice.reaches() for s in self._by_key.get((notice.room_id, k), ())}
        for screen in told:
            screen.offer(notice.sse)
        return len(told)

    def watched(self) -> int:
        with self._lock:
            return sum(len(screens) for screens in self._rooms.values())

    def end(self, staff_id: int, version: int) -> int:
        """A log-out: every screen of the staff member's log-ins older than ``version`` ends."""
        with self._lock:
            ending = [s for screens in self._rooms.values() for s in screens
                      if s.login.staff_id == staff_id and s.login.version < version]
        for screen in ending:
            screen.end()
        return len(ending)


class Broker(Protocol):
    def send(self, notice: Notice) -> None: ...

    def end(self, staff_id: int, version: int) -> None: ...


class LocalBroker:
    def __init__(self, hub: StaffHub) -> None:
        self.hub = hub

    def send(self, notice: Notice) -> None:
        self.hub.publish(notice)

    def end(self, staff_id: int, version: int) -> None:
        self.hub.end(staff_id, version)


def channel(prefix: str, room_id: int | str) -> str:
    return f"{prefix}:staff:{room_id}"


def ended_channel(prefix: str) -> str:
    """Where log-outs are told to the push servers ("<staff>:<version>"); not a room's channel."""
    return f"{prefix}:staff-ended"


def ended_key(prefix: str, staff_id: int) -> str:
    """The version a staff member's log-ins must have reached, kept as long as a token lives."""
    return f"{prefix}:staff-ended:{staff_id}"


def ended_message(data: str) -> LoggedIn | None:
    staff, _, version = data.partition(":")
    try:
        return LoggedIn(int(staff), int(version))
    except ValueError:
        return None


class RedisBroker:
    """Redis pub/sub to the push servers: a notice is a nudge, kept nowhere (a screen that
    connects re-reads its part once anyway)."""

    def __init__(self, url: str, prefix: str) -> None:
        self.client, self.prefix = redis.Redis.from_url(url), prefix

    def send(self, notice: Notice) -> None:
        self.client.publish(channel(self.prefix, notice.room_id), notice.payload())

    def end(self, staff_id: int, version: int) -> None:
        """Kept (a token presented after this is refused) and told (open streams end)."""
        with self.client.pipeline() as pipe:
            pipe.set(ended_key(self.prefix, staff_id), version, ex=STREAM_SECONDS)
            pipe.publish(ended_channel(self.prefix), f"{staff_id}:{version}")
            pipe.execute()


_LOOK_UP: dict[str, tuple[InstrumentedAttribute[int], InstrumentedAttribute[int]]] = {
    "seat_hold": (SeatHold.id, SeatHold.table_id),
    "seat_change": (SeatChangeRequest.id, SeatChangeRequest.table_id),
    "transit_slip": (TransitSlip.id, TransitSlip.table_id),
    "list_entry": (ListEntry.id, ListEntry.game_id),
}


def look_up(session: Session, wanted: Mapping[str, set[int]]) -> dict[str, dict[int, int]]:
    """One indexed query per kind of entity: each id's table (a list entry's game)."""
    out: dict[str, dict[int, int]] = {}
    for entity, ids in wanted.items():
        key, target = _LOOK_UP[entity]
        out[entity] = {int(i): int(t) for i, t in session.execute(
            select(key, target).where(key.in_(sorted(ids))))}
    return out


class Feed:
    """What was committed since the publisher's last pass, and the pass that tells the screens.

    With a broker each process tells its own commits: the rows each wrote, queued after it
    (``committed``), so a change is told once however many web processes run. Embedded (one web
    process) the pass reads the audit trail back from where it last stopped instead, so a commit
    of another process (``flask sweep``, a script) is told too; on PostgreSQL a row that commits
    after a higher id was read is left to the safety poll (docs/board.md, "Staff screens")."""

    def __init__(self, broker: Broker, listening: Callable[[], bool], read_back: bool) -> None:
        self.broker, self.listening, self.read_back = broker, listening, read_back
        self._lock = threading.Lock()
        self._rows: list[Row] = []
        self._cursor: int | None = None  # the last audit id read back
        self._marks: dict[int, tuple[datetime | None, bool]] = {}

    def committed(self, written: Sequence[AuditRow]) -> bool:
        """After a commit, while any screen may be told: queue the audit rows it wrote (read back
        instead, embedded). True when the publisher has something to send."""
        if not written or not self.listening():
            return False
        if not self.read_back:
            rows = [row_of(w) for w in written]
            with self._lock:
                self._rows.extend(rows)
        return True

    def watch(self, session: Session) -> None:
        """A screen starts listening: read back, and compare what is not audited, from here (the
        page re-reads its part at once)."""
        with self._lock:
            if self.read_back and self._cursor is None:
                self._cursor = session.scalar(select(func.max(AuditEvent.id))) or 0
            if not self._marks:
                self._marks = self._marks_now(session)

    def send(self, session: Session) -> int:
        """The publisher's pass: one notice per room the rows, or what the desk shows outside the
        audit trail, touch; how many were sent."""
        rows = self._read(session) if self.read_back else self._drain()
        by_room = {n.room_id: n for n in scope(rows, look_up(session, needs(rows)))} if rows else {}
        for room_id in self._unaudited(session):
            by_room[room_id] = by_room.get(room_id, Notice(room_id)) | Notice(room_id, floor=True)
        for notice in by_room.values():
            self.broker.send(notice)
        return len(by_room)

    def _drain(self) -> list[Row]:
        with self._lock:
            rows, self._rows = self._rows, []
        return rows

    def _read(self, session: Session) -> list[Row]:
        """The audit rows after the cursor, at most ``READ_BACK`` a pass (the next pass goes on)."""
        if not self.listening():
            with self._lock:  # nobody to tell: the next screen starts from its own time
                self._cursor, self._marks = None, {}
            return []
        self.watch(session)
        found = session.execute(_AFTER, {"after": self._cursor}).mappings().all()
        if found:
            self._cursor = found[-1]["id"]
        return [row_of(dict(r)) for r in found]

    def _unaudited(self, session: Session) -> list[int]:
        """The rooms whose desk shows a change with no audit row since the last pass: a text's
        state (R20) or the sweep turning late or running again. Two indexed queries a room."""
        if not self.listening():
            return []
        marks = self._marks_now(session)
        with self._lock:
            before, self._marks = self._marks, marks
        return [room_id for room_id, mark in marks.items() if before.get(room_id, mark) != mark]

    @staticmethod
    def _marks_now(session: Session) -> dict[int, tuple[datetime | None, bool]]:
        at = ext().clock.now()
        return {room_id: (texts_changed(session, room_id), room_sweep_state(session, at, room_id).stale)
                for room_id in session.scalars(select(Room.id))}


READ_BACK = 5000
_AFTER = select(AuditEvent.id, AuditEvent.room_id, AuditEvent.entity_type, AuditEvent.entity_id,
                AuditEvent.action, AuditEvent.detail).where(
    AuditEvent.id > bindparam("after")).order_by(AuditEvent.id).limit(READ_BACK)


def _serializer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt="roomops.push.staff")


class Pass(NamedTuple):
    """What a staff stream's token says: the room, the screen's keys, until when, whose log-in."""

    room_id: int
    keys: frozenset[str]
    expires_ms: int
    login: LoggedIn


def token(secret: str, room_id: int, keys: Iterable[str], expires_ms: int,
          login: LoggedIn) -> str:
    """A push server's pass to one screen's notices (R61): its room, its keys, until when, and
    whose log-in (so a log-out ends it)."""
    return _serializer(secret).dumps({"r": room_id, "k": sorted(keys), "e": expires_ms,
                                      "u": login.staff_id, "v": login.version})


def read_token(secret: str, value: str, now_ms: int) -> Pass | None:
    """The pass of a token signed with ``secret`` and not expired at ``now_ms``; None when
    forged, altered or expired. Expiry is in the token (ms, the app's clock), so it is checked
    on the reader's clock, not the signer's."""
    try:
        data = _serializer(secret).loads(value)
        found = Pass(int(data["r"]), frozenset(str(k) for k in data["k"]), int(data["e"]),
                     LoggedIn(int(data["u"]), int(data["v"])))
    except (BadSignature, KeyError, TypeError, ValueError):
        return None
    return found if now_ms < found.expires_ms else None
