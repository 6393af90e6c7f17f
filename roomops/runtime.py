"""What the app carries for every request and job (``app.extensions["roomops"]``): settings,
engine, sessions and the one clock. Low in the tree, so entry points read it typed."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from flask import Flask, current_app
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

from roomops.clock import Clock
from roomops.config import Settings


@dataclass
class Roomops:
    settings: Settings
    engine: Engine
    sessions: sessionmaker[Session]
    read_sessions: sessionmaker[Session]
    clock: Clock


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
