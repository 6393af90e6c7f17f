"""Test databases: a migrated SQLite file always; PostgreSQL too when ROOMOPS_TEST_POSTGRES_URL is set.

Each test process gets its own PostgreSQL databases (created on the given URL's server and
dropped afterwards), so parallel runs never meet. A migrated database is a copy of one the process
migrated once (``Templates``): running the migrations costs more than most tests."""

from __future__ import annotations

import atexit
import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from roomops import migrate
from roomops.db import make_engine

PG_ENV = "ROOMOPS_TEST_POSTGRES_URL"


def backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get(PG_ENV) else ["sqlite"]


@contextmanager
def fresh_database(backend: str, tmp: Path, name: str = "t", template: str = "template1") -> Iterator[str]:
    """A new database's URL: empty (not yet migrated), or on PostgreSQL a copy of ``template``."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp / f'{name}.db'}"
        return
    base = make_url(os.environ[PG_ENV])
    dbname = f"roomops_{name}_{os.getpid()}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{dbname}" TEMPLATE "{template}"'))
    try:
        yield base.set(database=dbname).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def fresh_engine(backend: str, tmp: Path, name: str = "t") -> Iterator[tuple[str, Engine]]:
    """``fresh_database``'s URL and an engine on it, disposed afterwards (a migration's own test
    moves it up and down itself)."""
    with fresh_database(backend, tmp, name) as url:
        engine = make_engine(url)
        try:
            yield url, engine
        finally:
            engine.dispose()


class Templates:
    """One migrated database per backend and process, made on first use and copied for each
    ``migrated_database``: SQLite's with its backup API, PostgreSQL's as ``CREATE DATABASE ...
    TEMPLATE`` (which wants no one connected to the template: the migration's engine is disposed
    by then). Removed when the process ends."""

    def __init__(self) -> None:
        self.made: dict[str, str] = {}
        self.kept = ExitStack()

    def url(self, backend: str) -> str:
        if backend not in self.made:
            if not self.made:
                atexit.register(self.kept.close)
            folder = self.kept.enter_context(tempfile.TemporaryDirectory(prefix="roomops-template-"))
            url = self.kept.enter_context(fresh_database(backend, Path(folder), "template"))
            migrate.upgrade(url)
            self.made[backend] = url
        return self.made[backend]


TEMPLATES = Templates()


@contextmanager
def migrated_database(backend: str, tmp: Path, name: str = "t") -> Iterator[str]:
    """A database at the migrations' head, copied from the process's migrated template."""
    template = make_url(TEMPLATES.url(backend)).database or ""
    if backend == "postgresql":
        with fresh_database(backend, tmp, name, template=template) as url:
            yield url
        return
    with fresh_database(backend, tmp, name) as url:
        with closing(sqlite3.connect(template)) as source, \
                closing(sqlite3.connect(make_url(url).database or "")) as target:
            source.backup(target)
        yield url
