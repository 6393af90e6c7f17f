"""Shared fixtures: migrated databases (SQLite, and PostgreSQL when configured), a session per
test inside a rolled-back transaction, a frozen clock, and a Flask app bound to the same session."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from copy import copy
from datetime import UTC, datetime

import pytest
from argon2 import profiles
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.db import make_engine, make_sessionmaker
from roomops.factory import create_app, renew
from roomops.messages.courier import LOG_ONLY, Courier
from roomops.reactions import handlers
from roomops.rooms.passwords import use_parameters
from roomops.security_log import formatter
from roomops.security_log import log as security_logger
from roomops.waits.services import EXTENSION as WAITS
from tests.databases import backends, migrated_database
from tests.factories import PASSWORD, Room_
from tests.units import COURIER

START = datetime(2026, 11, 21, 20, 0, 0, tzinfo=UTC)  # a Saturday night


def pytest_configure(config: pytest.Config) -> None:
    """Every staff member the tests create is hashed (and every log-in checked) with argon2's
    cheapest parameters, ~0.05 ms instead of production's ~0.1 s (docs/security.md, "Logins")."""
    use_parameters(profiles.CHEAPEST)


@pytest.fixture(scope="session", params=backends())
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with migrated_database(request.param, tmp_path_factory.mktemp("db"), "suite") as url:
        yield url


@pytest.fixture(scope="session")
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    yield eng
    eng.dispose()


@pytest.fixture()
def connection(engine: Engine) -> Iterator[Connection]:
    """One outer transaction per test, rolled back at the end; commits inside become savepoints."""
    with engine.connect() as conn:
        outer = conn.begin()
        yield conn
        outer.rollback()


@pytest.fixture()
def courier() -> Courier:
    """Who sends the texts of the test's units and app: nobody (a module overrides it)."""
    return LOG_ONLY


@pytest.fixture()
def sessions(connection: Connection, courier: Courier) -> sessionmaker[Session]:
    return make_sessionmaker(connection, join_transaction_mode="create_savepoint",
                             info={COURIER: courier})


@pytest.fixture()
def session(sessions: sessionmaker[Session]) -> Iterator[Session]:
    with sessions() as s:
        yield s


@pytest.fixture(scope="session")
def worker_clock() -> FrozenClock:
    """The clock of the worker's app (``worker_app``): each test's ``clock`` starts it again."""
    return FrozenClock(START)


@pytest.fixture()
def clock(worker_clock: FrozenClock) -> FrozenClock:
    worker_clock.set(START)
    return worker_clock


@pytest.fixture()
def now(clock: FrozenClock) -> datetime:
    return clock.now()


@pytest.fixture()
def room(session: Session, now: datetime) -> Room_:
    return Room_(session, now)


def new_app(db_url: str, engine: Engine, clock: FrozenClock) -> Flask:
    settings = Settings(database_url=db_url, scheduler="off", secret_key="test", testing=True)
    return create_app(settings, clock=clock, engine=engine, WTF_CSRF_ENABLED=False)


@pytest.fixture(scope="session")
def worker_app(db_url: str, engine: Engine, worker_clock: FrozenClock) -> Flask:
    """One app per worker and database: making one (its routes, then its templates compiled on
    first use) costs more than most tests. Each test renews it (``app``)."""
    return new_app(db_url, engine, worker_clock)


@contextmanager
def bound(application: Flask, sessions: sessionmaker[Session], courier: Courier) -> Iterator[Flask]:
    """``application`` on the test's sessions and courier, for the test: its memory renewed first
    (``roomops.factory.renew``: the rows it remembers are rolled back), its config put back after."""
    ext = application.extensions["roomops"]
    kept = (dict(application.config), ext.settings, ext.sessions, ext.read_sessions, ext.courier,
            ext.handlers)
    ext.settings = copy(ext.settings)  # a test may change its own
    renew(application)
    ext.sessions = ext.read_sessions = sessions
    if courier is not LOG_ONLY:  # the module's provider, for the app's texts as for its units'
        ext.courier, ext.handlers = courier, handlers(courier, application.extensions[WAITS])
    try:
        yield application
    finally:
        application.config.clear()
        application.config.update(kept[0])
        ext.settings, ext.sessions, ext.read_sessions, ext.courier, ext.handlers = kept[1:]


@pytest.fixture()
def app(worker_app: Flask, sessions: sessionmaker[Session], clock: FrozenClock,
        courier: Courier) -> Iterator[Flask]:
    with bound(worker_app, sessions, courier) as application:
        yield application


@pytest.fixture()
def own_app(db_url: str, engine: Engine, sessions: sessionmaker[Session], clock: FrozenClock,
            courier: Courier) -> Iterator[Flask]:
    """An app of the test's own, for a test that adds routes (Flask takes none once it has
    answered a request)."""
    with bound(new_app(db_url, engine, clock), sessions, courier) as application:
        yield application


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class SecurityLog:
    """The security log's JSON lines written during a test, as written (``text``) and parsed."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    @property
    def text(self) -> str:
        return self.stream.getvalue()

    @property
    def events(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.text.splitlines()]

    def named(self, event: str) -> list[dict[str, object]]:
        return [e for e in self.events if e["event"] == event]


@pytest.fixture()
def security_log() -> Iterator[SecurityLog]:
    """Catches what the security log writes (it does not go through the root logger: no caplog)."""
    caught = SecurityLog()
    handler = logging.StreamHandler(caught.stream)
    handler.setFormatter(formatter())
    security_logger.addHandler(handler)
    yield caught
    security_logger.removeHandler(handler)


def login(client: FlaskClient, username: str) -> FlaskClient:
    resp = client.post("/login", data={"username": username, "password": PASSWORD})
    assert resp.status_code == 302, resp.text
    return client


@pytest.fixture()
def sup_client(client: FlaskClient, room: Room_, session: Session) -> FlaskClient:
    session.commit()
    return login(client, "main-supervisor")
