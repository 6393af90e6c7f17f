"""``/health`` for a load balancer (no login, JSON), and the sweep's state every staff screen and
the board show (docs/architecture.md, "Scheduler").

200 when the database answers, its schema is at the migrations' head, a scheduler swept within
``sweep_stale_seconds`` and, with a broker, a push server beat within its limit (``push``: ok or
down, issue 40); 503 otherwise. ``warnings`` (only when there is one, and the answer stays 200):
the app's PostgreSQL role is a superuser or owns the tables (issue 40). ``rooms_failing`` counts
the rooms whose own sweep has been failing for longer than that, for a monitor: their screens
say so, and the answer stays 200 (one room's bad row must not take the web servers of every room
out of a load balancer). The answer
holds only those facts: no room data, no revision ids, no error text (a load balancer needs none
of them, an attacker would like them)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from flask import Blueprint, jsonify
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops import migrate
from roomops.books.roles import role_warnings
from roomops.heartbeat.rules import SweepState, room_last_run, sweep_state
from roomops.heartbeat.services import last_run, room_runs, rooms_failing
from roomops.push import alive
from roomops.runtime import ext
from roomops.web.uow import db, now

bp = Blueprint("health", __name__)


def scheduler_state(session: Session, at: datetime) -> SweepState:
    """Whether the deployment's sweep is late at ``at`` (the app's clock), by its setting."""
    return sweep_state(last_run(session), at, ext().settings.sweep_stale_seconds)


def room_sweep_state(session: Session, at: datetime, room_id: int) -> SweepState:
    """Whether the room's timers are late at ``at``: no sweep for too long, or the room's own sweep
    failing for too long (what its desk and board show)."""
    return sweep_state(room_last_run(*room_runs(session, room_id)), at,
                       ext().settings.sweep_stale_seconds)


def _limit() -> timedelta:
    return timedelta(seconds=ext().settings.sweep_stale_seconds)


def _checks(session: Session, at: datetime) -> dict[str, Any]:
    """What the database says; raises SQLAlchemyError when it cannot be reached."""
    session.execute(text("SELECT 1"))
    state = scheduler_state(session, at)
    checks: dict[str, Any] = {
        "database": "ok",
        "migrations": "at_head" if migrate.current(session.connection()) == migrate.head()
        else "not_at_head",
        "scheduler": {"heartbeat_age_seconds": state.age, "stale": state.stale,
                      "rooms_failing": rooms_failing(session, at - _limit())}}
    warnings = role_warnings(session.connection())
    if warnings:
        checks["warnings"] = warnings
    return checks


@bp.get("/health")
def health() -> Response:
    try:
        checks = _checks(db(), now())
    except SQLAlchemyError:
        checks = {"database": "unreachable", "migrations": "unknown",
                  "scheduler": {"heartbeat_age_seconds": None, "stale": True, "rooms_failing": None}}
    settings = ext().settings
    checks["scheduler"]["stale_after_seconds"] = settings.sweep_stale_seconds
    healthy = checks["migrations"] == "at_head" and not checks["scheduler"]["stale"]
    if settings.push_broker:  # the push server serves the screens' streams (issue 40)
        checks["push"] = "ok" if alive.serving(settings.push_broker, settings.push_prefix) else "down"
        healthy = healthy and checks["push"] == "ok"
    resp = jsonify(status="ok" if healthy else "unhealthy", **checks)
    resp.status_code = 200 if healthy else 503
    resp.headers["Cache-Control"] = "no-store"
    return resp
