"""What the benchmarks share: a fresh database, the room built in it, the app on that room, and
the figures (percentiles, statements) of timed operations.

Everything here talks to roomops through its public face: ``migrate.upgrade`` for the schema,
``create_app`` for the app (its engine, sessions and clock are ``app.extensions["roomops"]``),
``bench/roomgen.py`` for the room, and the JSON API for every change and read after that.
"""

from __future__ import annotations

import math
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import roomgen  # noqa: E402  (bench/ is on sys.path: the scripts are run as files)
from flask import Flask  # noqa: E402
from sqlalchemy import (  # noqa: E402
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    create_engine,
    event,
    insert,
    text,
    update,
)
from sqlalchemy import Table as SATable  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlalchemy.exc import DBAPIError  # noqa: E402
from werkzeug.security import generate_password_hash  # noqa: E402

from roomops import migrate  # noqa: E402
from roomops.clock import FrozenClock  # noqa: E402
from roomops.config import Settings  # noqa: E402
from roomops.factory import create_app  # noqa: E402
from roomops.rooms.models import Staff  # noqa: E402
from roomops.web import access  # noqa: E402

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/"
TICK = os.sysconf("SC_CLK_TCK")  # /proc's CPU times are in these
SUPERVISOR, DESK_PASSWORD = "bench-supervisor", "bench-desk-password"  # roomgen's supervisor
API = "/api/v1"


def log(msg: str) -> None:
    """Progress, on stderr: the figures alone go to stdout."""
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def percentile(samples: list[float], q: float) -> float:
    """Nearest rank: with 200 samples p99 is the second slowest, with 50 the slowest."""
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)]


# ---------------------------------------------------------------- databases


@contextmanager
def fresh_database(backend: str, workdir: Path, name: str, pg_url: str) -> Iterator[str]:
    """A new, migrated, empty database: a SQLite file in ``workdir``, or a private PostgreSQL
    database ``roomops_bench_<name>_<pid>`` on ``pg_url``'s server, dropped afterwards."""
    if backend == "sqlite":
        url = f"sqlite:///{workdir / f'{name}.db'}"
        migrate.upgrade(url)
        yield url
        return
    base = make_url(pg_url)
    dbname = f"roomops_bench_{name}_{os.getpid()}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{dbname}"'))
    try:
        url = base.set(database=dbname).render_as_string(hide_password=False)
        migrate.upgrade(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)'))
        admin.dispose()


class StatementCounter:
    """Counts the SQL statements sent on an engine while ``active`` (``BEGIN`` not counted), from
    whichever thread sends them: the test client's, or the server's worker."""

    def __init__(self, engine: Engine) -> None:
        self.active = False
        self.count = 0
        event.listen(engine, "before_cursor_execute", self._on)

    def _on(self, _conn: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        if self.active and not statement.lstrip().upper().startswith("BEGIN"):
            self.count += 1

    def start(self) -> None:
        self.count, self.active = 0, True

    def stop(self) -> int:
        self.active = False
        return self.count


class Baseline:
    """One bare insert-and-commit of a small row through the app's engine (on SQLite: WAL,
    ``synchronous=FULL``, ``BEGIN IMMEDIATE``): what durability alone costs a write on this disk.
    Printed for context; the targets are absolute milliseconds."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        md = MetaData()
        self.table = SATable("bench_baseline", md, Column("id", Integer, primary_key=True),
                             Column("note", String(40)))
        md.create_all(engine)

    def once(self, i: int) -> float:
        t0 = time.perf_counter()
        with self.engine.begin() as conn:
            conn.execute(insert(self.table), {"note": f"row {i}"})
        return (time.perf_counter() - t0) * 1000

    def figure(self, n: int) -> Figure:
        fig = Figure("fsync baseline", "sqlalchemy")
        for i in range(n + 10):
            ms = self.once(i)
            if i >= 10:
                fig.samples_ms.append(ms)
                fig.statements.append(1)
        return fig


# ---------------------------------------------------------------- figures


@dataclass
class Figure:
    """The timed samples of one operation through one way in (``via``)."""

    name: str
    via: str
    samples_ms: list[float] = field(default_factory=list)
    statements: list[int] = field(default_factory=list)
    floor_ms: list[float] = field(default_factory=list)  # the floor request run beside each sample
    cpu_ms: list[float] = field(default_factory=list)
    base_ms: list[float] = field(default_factory=list)  # day_report: the baseline beside each sample
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def p50(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p99(self) -> float:
        return percentile(self.samples_ms, 0.99)

    @property
    def stmts(self) -> int:
        """Statements per operation (the median; they should all be the same)."""
        return int(statistics.median(self.statements)) if self.statements else 0

    @property
    def floor_p50(self) -> float | None:
        return statistics.median(self.floor_ms) if self.floor_ms else None

    @property
    def base_p50(self) -> float | None:
        return statistics.median(self.base_ms) if self.base_ms else None

    def ratio(self, base: Figure) -> float:
        """p50 over the baseline's (day_report's context column)."""
        return self.p50 / (self.base_p50 or base.p50)


# ---------------------------------------------------------------- the room and its app


class Bench:
    """A built room and the app on it, with a ``FrozenClock`` the benchmark moves (nothing
    sleeps). ``api`` makes untimed calls through the test client for set-up and reads."""

    FLOOR = "/bench/floor"

    def __init__(self, url: str, spec: roomgen.RoomSpec, label: str) -> None:
        self.spec = spec
        self.clock = FrozenClock(roomgen.NOW)
        # No pushed screens (push_streams=0): the board's page would start the app's publisher,
        # whose passes after each change would be timed and counted with the requests here;
        # what drawing beside the desk costs is bench/push.py's to measure.
        settings = Settings(database_url=url, scheduler="off", secret_key="bench", push_streams=0)
        self.app: Flask = create_app(settings, clock=self.clock)
        # The floor: a route doing nothing, served by the same app, hooks and server as the rest,
        # needing the right the desk's reads need (R61's route matrix checks it like theirs)
        self.app.add_url_rule(self.FLOOR, "bench_floor", lambda: "ok")
        access.RIGHTS.setdefault("bench_floor", "floor")
        self.ext = self.app.extensions["roomops"]
        self.engine: Engine = self.ext.engine
        self.built = build_room(self.engine, spec, label)
        # The API is called with a token and the board with nothing: no cookie to keep. The test
        # client's cookie jar is its own work on every request, which no server does.
        self.client = self.app.test_client(use_cookies=False)
        self.headers = {"Authorization": f"Bearer {self.built.token}"}
        self.counter = StatementCounter(self.engine)
        self.baseline = Baseline(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """An untimed request through the test client, refused answers raised."""
        resp = self.client.open(path, method=method, json=body, headers=self.headers)
        if resp.status_code >= 400:
            answer = resp.get_data(as_text=True)[:300]
            raise RuntimeError(f"{method} {path} {body} -> {resp.status_code}: {answer}")
        return resp.get_json(silent=True)

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call(method, API + path, body)

    def room(self) -> dict[str, Any]:
        """``GET /api/v1/room``: every game, table, seat, offer and list, as the desk sees them."""
        return self.api("GET", "/room")  # type: ignore[no-any-return]

    def tick(self) -> None:
        """100 ms pass between two operations."""
        self.clock.advance(milliseconds=100)

    def supervisor_password(self) -> str:
        """The supervisor's password, set now (roomgen's is nobody's): the desk's screens take a
        log-in, not a token."""
        with self.engine.begin() as conn:
            conn.execute(update(Staff).where(Staff.username == SUPERVISOR)
                         .values(password_hash=generate_password_hash(DESK_PASSWORD)))
        return DESK_PASSWORD

    def desk_cookie(self) -> dict[str, str]:
        """The supervisor logged in through ``/login`` as a person is, the session's cookie
        returned as a header for any way in."""
        password = self.supervisor_password()
        client = self.app.test_client()
        resp = client.post("/login", data=login_form(client.get("/login").get_data(as_text=True), password))
        cookie = client.get_cookie(self.app.config["SESSION_COOKIE_NAME"])
        if resp.status_code != 302 or cookie is None:
            raise RuntimeError(f"the supervisor's log-in: {resp.status_code}")
        return {"Cookie": f"{cookie.key}={cookie.value}"}


def login_form(page: str, password: str) -> dict[str, str]:
    """The supervisor's log-in form, with the CSRF token of the log-in ``page`` it answers."""
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page)
    return {"username": SUPERVISOR, "password": password, "csrf_token": csrf.group(1) if csrf else ""}


def flask_process(command: str, port: int, url: str, workdir: Path, log: IO[bytes] | int,
                  tree: Path = ROOT, **env: str) -> subprocess.Popen[bytes]:
    """``flask --app app <command> --port <port>`` (``serve``, ``push-server``) as a process of
    its own on the database at ``url``, with no scheduler, its output to ``log``; ``tree``: the
    source tree it runs from (another commit's, ``old_tree``; this venv's packages either way);
    ``env`` adds to (or replaces) the process's environment."""
    settings = {"ROOMOPS_DATABASE_URL": url, "ROOMOPS_SCHEDULER": "off",
                "ROOMOPS_SECRET_KEY": "bench", "ROOMOPS_INSTANCE": str(workdir)}
    # ``python -m`` puts the working directory first on sys.path: ``tree``'s roomops is imported
    return subprocess.Popen([str(ROOT / ".venv" / "bin" / "python"), "-m", "flask", "--app", "app",
                             command, "--port", str(port)], cwd=tree,
                            env={**os.environ, **settings, **env}, stdout=log, stderr=log)


def old_tree(commit: str, into: Path) -> Path:
    """The source tree of ``commit`` (``git archive``) in ``into``: today's code and an earlier
    commit's compared in turns in one run (docs/benchmarks.md: ratios, never absolute ms)."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def cpu_ms(pid: int) -> float:
    """A process's CPU so far (user and system, from /proc/<pid>/stat), in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / TICK  # utime, stime


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except urllib.error.HTTPError:
            return  # it answers (/health is 503 with no scheduler)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


def build_room(engine: Engine, spec: roomgen.RoomSpec, label: str) -> roomgen.Built:
    log(f"building {label}: {spec.tables} tables, {spec.active_entries:,} list entries, "
        f"{spec.audit_rows:,} audit rows")
    built = roomgen.build(engine, spec)
    log(f"  built in {built.seconds:.1f} s")
    if engine.dialect.name == "postgresql":
        checkpoint(engine)
    return built


def checkpoint(engine: Engine) -> None:
    """PostgreSQL: write the build's pages out now, so that no checkpoint of them (or of the room
    dropped before) lands inside the timed requests or the sweep (SQLite's build folds its WAL
    into the file likewise). Needs a superuser or the ``pg_checkpoint`` role; without it the run
    goes on, with a note."""
    try:
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("CHECKPOINT"))
    except DBAPIError as exc:
        log(f"  no CHECKPOINT after the build ({exc.orig}); a checkpoint may land in the figures")
