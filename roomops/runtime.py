"""What the app carries for every request and job (``app.extensions["roomops"]``): settings,
engine, sessions and the one clock. Low in the tree, so entry points read it typed."""

from __future__ import annotations

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
