"""The unit of work: the one owner of a transaction's side state, for every entry point (a web
request, the scheduler's sweep, a CLI command, the demo loader, a test) — cosmicpython's unit of
work and message bus, Indico's ``RH.process``: the change, one commit, then the side effects.

Services take the unit (``def claim(unit, offer_id)``): it carries the session, who acts and
``now``, and holds what the change raises until the commit:
- the events (``emit``), handled when the service run by ``run`` returns, by the handler table
  the application passes in (``roomops.reactions``). ``Gathered`` events are kept apart, merged
  by kind and key, and handled after the others in ``GATHERED``'s order: ``SeatsMayOpen`` once
  per game, so that every change is in before the seats are offered (R14), then ``OffersMade``
  once for all the offers those made, then ``RotationMayMove`` once a room (R64);
- the audit rows (``audit``, R60), written together by one INSERT when the run returns, so they
  commit or roll back with the change;
- the work that waits for the commit (``after_commit``: a message, a screen push).

``commit`` commits once, tells the ``told`` hooks what the transaction audited and, per room,
what it touched (``Committed``: the staff screens, the board's publisher, the desk's drawn
games), then runs the after-commit work; that may fail without undoing
the change, and is logged. A service that raises leaves nothing of its run behind: the caller
rolls the change back."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.audit.rows import AuditRow, audit_row, write_rows
from roomops.floor.events import Event, Gathered, OffersMade, RotationMayMove, SeatsMayOpen, games_named

log = logging.getLogger("roomops.floor")

GATHERED: tuple[type[Gathered], ...] = (SeatsMayOpen, OffersMade, RotationMayMove)

P = ParamSpec("P")
T = TypeVar("T")

Handler = Callable[["UnitOfWork", Any], None]
Handlers = Mapping[type[Event], Sequence[Handler]]
_TABLE_FIELDS = ("table_id", "from_table_id", "feeds_table_id")  # the tables an audit row names


@dataclass(frozen=True)
class Touched:
    """What a transaction touched in one room: the games and tables its audit rows and events
    name, and the kinds of entity it audited (``seat_hold``, ``game``, ``room``...)."""

    games: frozenset[int] = frozenset()
    tables: frozenset[int] = frozenset()
    kinds: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Committed:
    """What a commit tells its ``told`` hooks: the audit rows it wrote (R60) and, by room, what
    it touched, so that a screen redraws only what it shows of that (issue 41)."""

    rows: Sequence[AuditRow]
    rooms: Mapping[int, Touched]

    @classmethod
    def of(cls, rows: Sequence[AuditRow], games: Iterable[int]) -> Committed:
        """The rows with what they name; ``games``: those the transaction's events named, given
        to each room the rows are of (a unit of work acts in one room: the others' desks skip
        a game they do not have)."""
        named: dict[int, tuple[set[int], set[int], set[str]]] = {}
        for row in rows:
            in_games, in_tables, kinds = named.setdefault(row["room_id"], (set(games), set(), set()))
            detail = row.get("detail") or {}
            kinds.add(row["entity_type"])
            in_games.update(v for v in (detail.get("game_id"),) if isinstance(v, int))
            in_tables.update(v for k in _TABLE_FIELDS if isinstance(v := detail.get(k), int))
            if row["entity_type"] in ("game", "table"):
                (in_games if row["entity_type"] == "game" else in_tables).add(row["entity_id"])
        return cls(rows, {room: Touched(frozenset(g), frozenset(t), frozenset(k))
                          for room, (g, t, k) in named.items()})


# told after each commit what it audited and touched (possibly nothing)
Told = Callable[[Committed], None]


@dataclass
class _Pending:
    """What the unit's services raised and has not been handled, written or run yet."""

    events: list[Event] = field(default_factory=list)
    gathered: dict[tuple[type[Gathered], object], Gathered] = field(default_factory=dict)
    audit: list[AuditRow] = field(default_factory=list)
    written: list[AuditRow] = field(default_factory=list)  # audited by this transaction
    games: list[int] = field(default_factory=list)  # named by the events handled
    after: list[Callable[[], None]] = field(default_factory=list)
    running: bool = False


class UnitOfWork:
    """``actor``: the staff member acting, or None where the acting is done per room by the
    scheduler (the sweep) or before anyone exists (creating a room): ``acting`` names one."""

    def __init__(self, session: Session, actor: Actor | None, now: datetime, handlers: Handlers,
                 told: Sequence[Told] = ()) -> None:
        self.session, self.now = session, now
        self._actor, self._handlers, self._told = actor, handlers, told
        self._pending = _Pending()

    @property
    def actor(self) -> Actor:
        if self._actor is None:
            raise RuntimeError("this unit of work has nobody acting: name them with acting()")
        return self._actor

    def acting(self, actor: Actor) -> UnitOfWork:
        """The same unit (its transaction, events and rows), acting as ``actor``."""
        other = copy.copy(self)
        other._actor = actor
        return other

    def at(self, now: datetime) -> UnitOfWork:
        """The same unit, its clock read as ``now`` (a deadline that passed, R24)."""
        other = copy.copy(self)
        other.now = now
        return other

    def emit(self, event: Event) -> None:
        """Raise ``event``: it is handled when the service being run returns."""
        pending = self._pending
        if isinstance(event, Gathered):
            key = (type(event), event.key)
            held = pending.gathered.get(key)
            pending.gathered[key] = event if held is None else held.merged(event)
        else:
            pending.events.append(event)

    def audit(self, action: str, entity: tuple[str, int], reason: str | None = None,
              **detail: Any) -> None:
        """One audit row (R60) of the acting staff member, now, in this transaction."""
        self._pending.audit.append(audit_row(self.actor, self.now, action, entity, reason, detail))

    def after_commit(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the transaction has committed; dropped if it rolls back."""
        self._pending.after.append(work)

    def run(self, service: Callable[Concatenate[UnitOfWork, P], T],
            *args: P.args, **kwargs: P.kwargs) -> T:
        """Call ``service(unit, ...)``, handle the events it raised (and those their handlers
        raise), and write its audit rows; if anything raises, none of it is kept."""
        pending = self._pending
        if pending.running:
            raise RuntimeError("a service called run(): call the other service directly")
        queued, after, games = len(pending.audit), len(pending.after), len(pending.games)
        pending.running = True
        try:
            result = service(self, *args, **kwargs)
            self.handle()
        except BaseException:
            pending.events.clear()
            pending.gathered.clear()
            del pending.audit[queued:], pending.after[after:], pending.games[games:]
            raise
        finally:
            pending.running = False
        return result

    def handle(self) -> None:
        """Every event in the order raised, then the gathered ones (each game's open seats once,
        then the offers made), then the audit rows written."""
        pending = self._pending
        while pending.events or pending.gathered:
            if pending.events:
                event: Event = pending.events.pop(0)
            else:
                event = pending.gathered.pop(min(pending.gathered,
                                                 key=lambda k: GATHERED.index(k[0])))
            pending.games += games_named(event)
            for handler in self._handlers[type(event)]:
                handler(self, event)
        if pending.audit:
            self.session.flush()  # the rows name what the change added
            write_rows(self.session, pending.audit)
            pending.written += pending.audit
            pending.audit = []

    def commit(self) -> None:
        self.handle()
        self.session.commit()
        pending, self._pending = self._pending, _Pending()
        committed = Committed.of(pending.written, pending.games)
        for told in self._told:
            _guarded(told, committed)
        for work in pending.after:
            _guarded(work)

    def rollback(self) -> None:
        self.session.rollback()
        self._pending = _Pending()


def _guarded(work: Callable[..., None], *args: Any) -> None:
    try:
        work(*args)
    except Exception:  # the change is committed: a failed message must not undo it
        log.exception("after-commit work failed; the change it reports stands")


@contextmanager
def rolled_back_unless_committed(uow: UnitOfWork) -> Iterator[UnitOfWork]:
    """``uow`` for a block; what it has not committed when the block ends is rolled back, with
    the events, rows and after-commit work it queued."""
    try:
        yield uow
    finally:
        uow.rollback()
