"""A consistent copy of the live database while the room runs (docs/backups.md).

SQLite: the online backup API (``sqlite3.Connection.backup``) in one step, which reads one
snapshot of the file under a read lock (writers go on, in WAL mode) and so copies only committed
transactions, whole; a plain file copy of a live database can catch a page half written or miss
the ``-wal`` file. PostgreSQL: ``pg_dump`` in its custom format, which reads the whole database in
one repeatable-read snapshot, so each ledger row comes with its audit events and every close with
the rows it froze (R52, R54, R60). Either way the copy is written beside its target and renamed
into place once complete, so a failed backup never leaves a file that looks like one."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import URL, make_url

from roomops.errors import Conflict


def backup(database_url: str, target: Path) -> str:
    """Write a consistent copy of ``database_url`` to ``target`` (refused if it exists); returns
    what was done, in one line."""
    if target.exists():
        raise Conflict(f"{target} exists already: name a new file (a backup never overwrites one)")
    url = make_url(database_url)
    part = target.with_name(f"{target.name}.part")
    try:
        if url.get_backend_name() == "sqlite":
            _sqlite(url, part)
            how = "SQLite online backup"
        else:
            _pg_dump(url, part)
            how = "pg_dump, custom format (restore with pg_restore)"
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)
    return f"{target}: {how}, {target.stat().st_size} bytes"


def _sqlite(url: URL, part: Path) -> None:
    if not url.database or url.database == ":memory:":
        raise Conflict("the database is in memory: there is no file to back up")
    source = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True)
    copy = sqlite3.connect(part)
    try:
        source.backup(copy)  # pages=-1: one step, one snapshot, never restarted by a writer
        if copy.execute("PRAGMA quick_check").fetchone() != ("ok",):
            raise Conflict(f"the copy in {part} fails SQLite's check: nothing was kept")
    finally:
        copy.close()
        source.close()


def _pg_dump(url: URL, part: Path) -> None:
    """``pg_dump`` as the URL's user; the password through the environment, not the command line
    (which every user of the machine can read)."""
    env = {**os.environ, **({"PGPASSWORD": url.password} if url.password else {})}
    libpq = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    done = subprocess.run(["pg_dump", "--format=custom", f"--file={part}", f"--dbname={libpq}"],
                          env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise Conflict(f"pg_dump failed: {done.stderr.strip()}")
