"""Services as the tests run them: in a unit of work with the application's handler table, as a
request, the scheduler or a CLI command does (``roomops.floor.unit``). The table's texts go by
the courier the test's sessions carry (``courier_of``: the conftest's ``courier`` fixture, which
a module overrides to give a provider), sent at once after a unit's commit."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from roomops.actors import Actor, scheduler
from roomops.floor.unit import Handlers, UnitOfWork
from roomops.jobs.sweep import SweepResult, due_rooms, sweep_room
from roomops.messages.courier import LOG_ONLY, Courier
from roomops.reactions import handlers as handler_table

T = TypeVar("T")
COURIER = "tests.courier"  # Session.info: the tests' own way to hand their sessions a courier


def courier_of(session: Session) -> Courier:
    found: Courier = session.info.get(COURIER, LOG_ONLY)
    return found


def uow(session: Session, actor: Actor | None, now: datetime,
        handlers: Handlers | None = None) -> UnitOfWork:
    """A unit of work on the test's session (which the test commits or rolls back)."""
    return UnitOfWork(session, actor, now, handlers or handler_table(courier_of(session)))


def act(session: Session, actor: Actor, now: datetime, service: Callable[..., T],
        *args: Any, **kwargs: Any) -> T:
    """``service`` run by ``actor`` at ``now``: its events handled, its audit rows written."""
    return uow(session, actor, now).run(service, *args, **kwargs)


def committed(session: Session, actor: Actor, now: datetime, service: Callable[..., T],
              *args: Any, **kwargs: Any) -> T:
    """``act``, then the unit committed: its after-commit work (a text sent) done."""
    unit = uow(session, actor, now)
    result = unit.run(service, *args, **kwargs)
    unit.commit()
    return result


def sweep(session: Session, now: datetime, handlers: Handlers | None = None) -> SweepResult:
    """What the scheduler's sweep does at ``now`` (``roomops.jobs.scheduler.sweep_once``): each
    room with something due swept by its scheduler (``sweep_room``), on the test's session."""
    result = SweepResult()
    for room_id, game_ids in due_rooms(session, now).items():
        uow(session, scheduler(room_id), now, handlers).run(sweep_room, game_ids, result)
    return result
