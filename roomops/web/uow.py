"""One database session per request and one commit point: the request's unit of work."""

from __future__ import annotations

from collections.abc import Callable
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


def now() -> datetime:
    return ext().clock.now()


def actor() -> Actor:
    user = current_user._get_current_object()  # once: each use of the proxy looks it up again
    if not user.is_authenticated:
        raise Forbidden("log in first", "R61")
    actor: Actor = user.actor()
    return actor


def run(service: Callable[Concatenate[Session, Actor, datetime, P], T],
        *args: P.args, **kwargs: P.kwargs) -> T:
    """Call a service as the logged-in staff member in the request's unit of work, then commit:
    the request's one commit point (``roomops.floor.unit``).

    A refusal raises before the commit, so nothing is half-written."""
    return run_as(actor(), service, *args, **kwargs)


def run_as(who: Actor, service: Callable[Concatenate[Session, Actor, datetime, P], T],
           *args: P.args, **kwargs: P.kwargs) -> T:
    """``run`` as ``who``: a player on the phone page or through their personal link (R12)."""
    uow = UnitOfWork(db(), who, now())
    result = uow.run(service, *args, **kwargs)
    uow.commit()
    return result


def close(_exc: BaseException | None) -> None:
    session = g.pop("db", None)
    if session is not None:
        session.close()
