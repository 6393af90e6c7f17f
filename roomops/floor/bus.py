"""The message bus: events raised by services are handled in the same transaction, when the
outermost service call (a command) returns (cosmicpython's ``messagebus.handle``).

A command is a service ``fn(session, actor, now, ...)``. Events it raises, and those its
handlers raise in turn, are handled in order once it returns. ``Gathered`` events are kept apart,
merged by kind and key, and handled after the others, in ``GATHERED``'s order: ``SeatsMayOpen``
once per game, so that every change is in before the seats are offered (R14), then
``OffersMade`` once for all the offers those made.
A command that raises an error leaves no event behind: its caller rolls the change back.
The handler table is the session's (``HANDLERS_KEY`` in ``Session.info``, set by the
sessionmaker ``roomops.reactions.session_factory`` builds): this module knows no domain package,
so every service can raise events through it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.floor.events import Event, Gathered, OffersMade, SeatsMayOpen

HANDLERS_KEY = "roomops.reactions"
_PENDING_KEY = "roomops.floor.pending"

GATHERED: tuple[type[Gathered], ...] = (SeatsMayOpen, OffersMade)

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True)
class Context:
    """Who handles an event, and when: the command's session, actor and clock reading."""

    session: Session
    actor: Actor
    now: datetime


Handler = Callable[[Context, Any], None]
Handlers = Mapping[type[Event], Sequence[Handler]]


@dataclass
class _Pending:
    """What a session's commands raised and has not been handled yet, and the work that waits for
    the commit (``after_commit``)."""

    events: list[Event] = field(default_factory=list)
    gathered: dict[tuple[type[Gathered], object], Gathered] = field(default_factory=dict)
    after: list[Callable[[], None]] = field(default_factory=list)
    depth: int = 0


def _pending(session: Session) -> _Pending:
    pending = session.info.get(_PENDING_KEY)
    if pending is None:
        pending = session.info[_PENDING_KEY] = _Pending()
    return pending


def emit(session: Session, event: Event) -> None:
    """Raise ``event`` in the command running on ``session``."""
    pending = _pending(session)
    if not pending.depth:
        raise RuntimeError(f"{type(event).__name__} raised outside a command: call the service "
                           "through roomops.floor (a unit of work) or mark it @command")
    if isinstance(event, Gathered):
        key = (type(event), event.key)
        held = pending.gathered.get(key)
        pending.gathered[key] = event if held is None else held.merged(event)
    else:
        pending.events.append(event)


def after_commit(session: Session, work: Callable[[], None]) -> None:
    """Run ``work`` once the session's transaction has committed (a message, a screen push);
    dropped if it rolls back. Only a unit of work commits, and runs it (``roomops.floor.unit``)."""
    _pending(session).after.append(work)


def take_after_commit(session: Session) -> list[Callable[[], None]]:
    """The work waiting for the commit, handed over once."""
    pending = _pending(session)
    work, pending.after = pending.after, []
    return work


def forget(session: Session) -> None:
    """Drop everything pending: the transaction was rolled back."""
    session.info.pop(_PENDING_KEY, None)


def run_command(session: Session, actor: Actor, now: datetime,
                fn: Callable[Concatenate[Session, Actor, datetime, P], T],
                *args: P.args, **kwargs: P.kwargs) -> T:
    """Call ``fn`` as a command; if it is the outermost, handle the events raised once it returns."""
    pending = _pending(session)
    pending.depth += 1
    try:
        result = fn(session, actor, now, *args, **kwargs)
    except BaseException:
        if pending.depth == 1:
            pending.events.clear()
            pending.gathered.clear()
        raise
    finally:
        pending.depth -= 1
    if not pending.depth:
        pending.depth += 1  # handlers raise events too
        try:
            _handle(Context(session, actor, now), pending, _handlers(session))
        except BaseException:
            pending.events.clear()
            pending.gathered.clear()
            raise
        finally:
            pending.depth -= 1
    return result


def command(fn: Callable[Concatenate[Session, Actor, datetime, P], T]
            ) -> Callable[Concatenate[Session, Actor, datetime, P], T]:
    """Mark a service as a command (``run_command``): the events it raises are handled when the
    outermost command returns, whoever called it (a view, the sweep, the CLI, a test)."""

    @wraps(fn)
    def call(session: Session, actor: Actor, now: datetime, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return run_command(session, actor, now, fn, *args, **kwargs)

    return call


def _handle(context: Context, pending: _Pending, handlers: Handlers) -> None:
    """Every event in the order raised, then the gathered ones: each game's open seats once,
    then the offers made."""
    while pending.events or pending.gathered:
        if pending.events:
            event: Event = pending.events.pop(0)
        else:
            event = pending.gathered.pop(min(pending.gathered, key=lambda k: GATHERED.index(k[0])))
        for handler in handlers[type(event)]:
            handler(context, event)


def _handlers(session: Session) -> Handlers:
    handlers: Handlers | None = session.info.get(HANDLERS_KEY)
    if handlers is None:
        raise RuntimeError("this session has no handler table: make its sessionmaker with "
                           "roomops.reactions.session_factory")
    return handlers
