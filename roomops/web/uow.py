"""One database session per request and one commit point: the request's unit of work."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Concatenate, ParamSpec, TypeVar

from flask import g, request
from flask_login import current_user
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.errors import Forbidden
from roomops.floor.unit import UnitOfWork
from roomops.runtime import ext

P = ParamSpec("P")
T = TypeVar("T")


def db() -> Session:
    """The request's session; GET requests read without taking SQLite's write lock."""
    session: Session | None = g.get("db")  # one look through the proxy: every service call asks
    if session is None:
        app = ext()
        maker = app.read_sessions if request.method in ("GET", "HEAD") else app.sessions
        session = g.db = maker()
    return session


@contextmanager
def apart() -> Iterator[Session]:
    """A session of its own for slow reads (a password's check, R61) before the request writes
    anything: no write transaction is open while it runs. The request's own transaction, which
    has only read so far (the logged-in staff member) and on SQLite began IMMEDIATE, holding the
    database's one write lock, ends first; what it loaded is read again when next used. The
    session handed out begins DEFERRED on SQLite (a snapshot: it waits for no writer)."""
    session: Session | None = g.get("db")
    if session is not None and session.in_transaction():
        if session.new or session.dirty or session.deleted:
            raise RuntimeError("apart() after the request has changed something")
        session.rollback()
    with ext().read_sessions() as reading:
        yield reading


def now() -> datetime:
    return ext().clock.now()


def actor() -> Actor:
    user = current_user._get_current_object()  # once: each use of the proxy looks it up again
    if not user.is_authenticated:
        raise Forbidden("log in first", "R61")
    actor: Actor = user.actor()
    return actor


def run(service: Callable[Concatenate[UnitOfWork, P], T],
        *args: P.args, **kwargs: P.kwargs) -> T:
    """Call a service as the logged-in staff member in the request's unit of work, then commit:
    the request's one commit point (``roomops.floor.unit``).

    A refusal raises before the commit, so nothing is half-written."""
    return run_as(actor(), service, *args, **kwargs)


def run_as(who: Actor, service: Callable[Concatenate[UnitOfWork, P], T],
           *args: P.args, **kwargs: P.kwargs) -> T:
    """``run`` as ``who``: a player on the phone page or through their personal link (R12)."""
    uow = ext().unit(db(), who, now())
    result = uow.run(service, *args, **kwargs)
    uow.commit()
    return result


def close(_exc: BaseException | None) -> None:
    session = g.pop("db", None)
    if session is not None:
        session.close()
