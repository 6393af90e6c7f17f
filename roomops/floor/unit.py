"""One unit of work for every entry point: a web request, the scheduler's sweep, a CLI command,
the demo loader (Indico's ``RH.process``: the change, one commit, then the side effects).

Given the session, who acts and ``now``, it runs services as commands (their events handled in
the same transaction, ``roomops.floor.bus``), commits once (the audit rows queued are written
by the commit, R60), and only then runs the work queued for after the commit; that work may fail
without undoing the change, and is logged."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.floor.bus import forget, run_command, take_after_commit

log = logging.getLogger("roomops.floor")

P = ParamSpec("P")
T = TypeVar("T")


class UnitOfWork:
    """``actor``: the staff member acting, or None where the acting is done per room by the
    scheduler (the sweep) or before anyone exists (creating a room)."""

    def __init__(self, session: Session, actor: Actor | None, now: datetime) -> None:
        self.session, self.actor, self.now = session, actor, now

    def run(self, service: Callable[Concatenate[Session, Actor, datetime, P], T],
            *args: P.args, **kwargs: P.kwargs) -> T:
        """Call ``service(session, actor, now, ...)`` as a command of this unit."""
        if self.actor is None:
            raise RuntimeError("this unit of work has no actor to run a service as")
        return run_command(self.session, self.actor, self.now, service, *args, **kwargs)

    def commit(self) -> None:
        self.session.commit()
        for work in take_after_commit(self.session):
            try:
                work()
            except Exception:  # the change is committed: a failed message must not undo it
                log.exception("after-commit work failed; the change it reports stands")

    def rollback(self) -> None:
        self.session.rollback()
        forget(self.session)


@contextmanager
def unit(session: Session, actor: Actor | None, now: datetime) -> Iterator[UnitOfWork]:
    """A unit of work on ``session``; what it has not committed when the block ends is rolled
    back, with the events and after-commit work it queued."""
    uow = UnitOfWork(session, actor, now)
    try:
        yield uow
    finally:
        uow.rollback()
