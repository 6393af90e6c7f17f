"""Running the Alembic migrations from code (CLI, tests, benchmarks)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

ROOT = Path(__file__).resolve().parent.parent


def alembic_config(url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


@cache
def head() -> str | None:
    """The newest revision of the migration scripts: read from disk once per process (the scripts
    do not change under a running server)."""
    return ScriptDirectory.from_config(alembic_config("")).get_current_head()


def current(connection: Connection) -> str | None:
    """The revision the database is at (alembic's ``alembic_version``); never migrates."""
    return MigrationContext.configure(connection).get_current_revision()
