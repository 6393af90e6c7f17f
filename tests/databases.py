"""Test databases: a migrated SQLite file always; PostgreSQL too when ROOMOPS_TEST_POSTGRES_URL is set.

Each test process gets its own PostgreSQL database (created from the given URL's server and
dropped afterwards), so parallel runs never meet."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from roomops import migrate

PG_ENV = "ROOMOPS_TEST_POSTGRES_URL"


def backends() -> list[str]:
    return ["sqlite", "postgresql"] if os.environ.get(PG_ENV) else ["sqlite"]


@contextmanager
def fresh_database(backend: str, tmp: Path, name: str = "t") -> Iterator[str]:
    """A new, empty database's URL (not yet migrated)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp / f'{name}.db'}"
        return
    base = make_url(os.environ[PG_ENV])
    dbname = f"roomops_{name}_{os.getpid()}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{dbname}"'))
    try:
        yield base.set(database=dbname).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def migrated_database(backend: str, tmp: Path, name: str = "t") -> Iterator[str]:
    with fresh_database(backend, tmp, name) as url:
        migrate.upgrade(url)
        yield url
