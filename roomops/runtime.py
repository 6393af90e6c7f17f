"""What the app carries for every request and job (``app.extensions["roomops"]``): settings,
engine, sessions, the one clock, and the units of work made from them. Low in the tree, so
entry points read it typed."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from flask import Flask, current_app
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from roomops.actors import Actor
from roomops.clock import Clock
from roomops.config import Settings
from roomops.floor.unit import Handlers, Told, UnitOfWork, rolled_back_unless_committed
from roomops.messages.courier import Courier


@dataclass
class Roomops:
    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    read_sessions: sessionmaker[Session]
    clock: Clock
    handlers: Handlers  # the application's handler table (roomops.reactions)
    courier: Courier  # who sends the texts, bound into the handlers
    # told after each unit's commit what it audited: the screens' pushes register here
    told: list[Told] = field(default_factory=list)

    def unit(self, session: Session, actor: Actor | None,
             now: datetime | None = None) -> UnitOfWork:
        """The one way a unit of work is made: the web's, the sweep's, the CLI's, the demo's."""
        return UnitOfWork(session, actor, now or self.clock.now(), self.handlers, self.told)

    @contextmanager
    def unit_of_work(self, session: Session, actor: Actor | None,
                     now: datetime | None = None) -> Iterator[UnitOfWork]:
        """``unit`` for a block: what it has not committed when the block ends is rolled back."""
        with rolled_back_unless_committed(self.unit(session, actor, now)) as uow:
            yield uow


def ext(app: Flask | None = None) -> Roomops:
    """The app's (the current app's, by default)."""
    found: Roomops = (app or current_app).extensions["roomops"]
    return found


# CPython hands the interpreter from a busy thread to a waiting one every 5 ms by default. A
# request gives it up at each database call and then waits up to that long to have it back
# while another thread draws (the publisher, a board page): once per statement, 100-200 ms for
# a desk action in all (docs/benchmarks.md, "The desk beside the drawing"). 0.5 ms bounds it.
SWITCH_SECONDS = 0.0005


def favour_waiting_threads() -> None:
    """For a process whose threads answer people while others draw: hand the interpreter over
    every ``SWITCH_SECONDS``."""
    sys.setswitchinterval(SWITCH_SECONDS)
