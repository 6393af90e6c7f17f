"""Backups (docs/backups.md) on every configured database: `flask --app app backup` while a writer
thread moves money, the copy restored into a new database as the procedure says (SQLite: the copy
is the new file; PostgreSQL: pg_restore into a new database), `verify-books` clean on it (R52, R54,
R60), and the app serving on it: a log-in, the day's report, a new posting."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.db import make_engine, make_sessionmaker
from roomops.factory import create_app
from roomops.ledger import services as ledger
from roomops.ledger.models import LedgerEntry
from tests.conftest import START, login
from tests.databases import backends, fresh_database, migrated_database
from tests.db.books_helpers import END, closed_night
from tests.factories import Room_, as_staff
from tests.units import act

MORNING = END + timedelta(hours=2)  # the next gaming day: money moves while the backup runs


def _cli(url: str, *args: str) -> str:
    app = create_app(Settings(database_url=url, scheduler="off", secret_key="t", testing=True))
    out = app.test_cli_runner().invoke(args=list(args))
    app.extensions["roomops"].engine.dispose()
    assert out.exit_code == 0, out.output
    return out.output


class Writer:
    """Add-ons, one per transaction, committed as fast as the database takes them."""

    def __init__(self, sessions, actor, hold_id: int) -> None:
        self.sessions, self.actor, self.hold_id = sessions, actor, hold_id
        self.committed = 0
        self.stop = threading.Event()
        self.errors: list[BaseException] = []
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stop.is_set():
                with self.sessions() as s:
                    act(s, self.actor, MORNING, ledger.add_on, self.hold_id, 100)
                    s.commit()
                self.committed += 1
        except BaseException as err:  # handed to the test
            self.errors.append(err)

    def until(self, n: int) -> None:
        deadline = time.monotonic() + 60
        while self.committed < n and not self.errors:
            assert time.monotonic() < deadline, "the writer is stuck"
            time.sleep(0.01)

    def join(self) -> None:
        self.stop.set()
        self.thread.join(60)
        assert not self.errors, self.errors


@contextmanager
def _restore(backend: str, dump: Path, tmp: Path) -> Iterator[str]:
    """The procedure's restore into a new database; yields its URL."""
    if backend == "sqlite":  # the backup is a whole database, not a live one: copied as a file
        target = tmp / "restored.db"
        shutil.copyfile(dump, target)
        yield f"sqlite:///{target}"
        return
    with fresh_database("postgresql", tmp, "restored") as url:
        libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        subprocess.run(["pg_restore", "--exit-on-error", f"--dbname={libpq}", str(dump)],
                       check=True, capture_output=True)
        yield url


@pytest.mark.parametrize("backend", backends())
def test_a_backup_taken_while_money_moves_restores_with_clean_books(backend, tmp_path):
    with migrated_database(backend, tmp_path, "live") as url:
        engine = make_engine(url)
        sessions = make_sessionmaker(engine)
        with sessions() as s:
            room = Room_(s, START)
            closed_night(room, s, START)  # a closed day: its close is checked on the copy
            hold = s.scalars(select(LedgerEntry.hold_id).where(
                LedgerEntry.kind == "buy_in")).first()
            cashier = room.actor("cashier")
        writer = Writer(sessions, cashier, hold)
        try:
            writer.until(20)
            before = writer.committed
            dump = tmp_path / ("roomops.db" if backend == "sqlite" else "roomops.dump")
            assert str(dump) in _cli(url, "backup", str(dump))
            writer.until(writer.committed + 20)  # still moving after the backup
        finally:
            writer.join()
        with sessions() as s:
            live = s.scalar(select(func.count()).select_from(LedgerEntry))
        engine.dispose()
        with _restore(backend, dump, tmp_path) as restored:
            _check_copy(restored, before, live)


def _check_copy(url: str, before: int, live: int) -> None:
    assert "the books are as the app wrote them" in _cli(url, "verify-books")
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    with sessions() as s:
        copied = s.scalar(select(func.count()).select_from(LedgerEntry))
        # the night's 3 rows and the add-ons committed when the backup read its snapshot
        assert 3 + before <= copied < live
    app = create_app(Settings(database_url=url, scheduler="off", secret_key="t", testing=True),
                     clock=FrozenClock(MORNING), engine=engine, WTF_CSRF_ENABLED=False)
    desk = login(app.test_client(), "main-cashier")
    page = desk.get("/desk/cage/days/2026-11-21/report")
    assert page.status_code == 200 and "data-closed" in page.text
    with sessions() as s:  # the restored sequences hand out new ids: the room takes money again
        hold = s.scalars(select(LedgerEntry.hold_id).where(LedgerEntry.kind == "add_on")).first()
        act(s, as_staff(s, "main-cashier"), MORNING, ledger.add_on, hold, 100)
        s.commit()
    engine.dispose()
    assert "the books are as the app wrote them" in _cli(url, "verify-books")


def test_a_backup_never_overwrites_a_file_and_says_what_it_does(app, tmp_path):
    runner = app.test_cli_runner()
    help_text = " ".join(runner.invoke(args=["backup", "--help"]).output.split())
    for said in ("online backup API", "never a plain file copy", "pg_dump", "pg_restore",
                 "verify-books", "docs/backups.md"):
        assert said in help_text
    taken = tmp_path / "taken"
    taken.write_text("yesterday's backup")
    out = runner.invoke(args=["backup", str(taken)])
    assert out.exit_code == 1 and "exists already" in out.output
    assert taken.read_text() == "yesterday's backup"
