"""Issue 3's benchmark: the desk's core loop on a large room, against the app's own durability.

    .venv/bin/python bench/core_loop.py [--db sqlite|postgresql] [--pg-url URL] [--json]
                                        [--ops N] [--audit-multiplier 10]

See docs/benchmarks.md for what each figure means. It is a benchmark, not a test: it never fails
the suite, it only prints. The app runs on a FrozenClock the benchmark advances (no sleeping);
``time.perf_counter`` measures the elapsed time of each operation.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import roomgen  # noqa: E402
from flask import Flask  # noqa: E402
from sqlalchemy import (  # noqa: E402
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
)
from sqlalchemy import Table as SATable  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlalchemy.engine.interfaces import CacheStats  # noqa: E402

from roomops import migrate  # noqa: E402
from roomops.actors import Actor  # noqa: E402
from roomops.clock import FrozenClock  # noqa: E402
from roomops.config import Settings  # noqa: E402
from roomops.db import make_engine  # noqa: E402
from roomops.factory import create_app  # noqa: E402
from roomops.games.models import Game, Table  # noqa: E402
from roomops.jobs.scheduler import sweep_once  # noqa: E402
from roomops.lists.models import ListEntry  # noqa: E402
from roomops.playovers.models import Playover  # noqa: E402
from roomops.seating.models import SeatHold  # noqa: E402

DEFAULT_PG = "postgresql+psycopg://postgres@127.0.0.1:5432/"
DESK_OPS = ("join", "offer", "claim", "decline", "leave", "hand")
DESK_RATIO, DESK_P99, BOARD_P99, AUDIT_DRIFT = 8.0, 25.0, 30.0, 20.0
P99_TARGET = {"hand": 15.0}  # issue 5: recording a hand, the most frequent action, under 15 ms p99
SWEEP_S = {"sweep_1000": 1.0, "sweep_mixed": 2.0}  # seconds (issue 3; issue 4)
SWEEP_DUE = {"sweep_1000": "1000", "sweep_mixed": "1000 of each"}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------- databases


@contextmanager
def fresh_database(backend: str, workdir: Path, name: str, pg_url: str) -> Iterator[str]:
    """A new, migrated, empty database (SQLite file in ``workdir``, or a private PostgreSQL one)."""
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
    """Counts SQL statements sent on an engine while ``active`` (BEGIN itself not counted)."""

    def __init__(self, engine: Engine) -> None:
        self.active = False
        self.count = 0
        self.statements: list[str] = []
        self.keep = False
        event.listen(engine, "before_cursor_execute", self._on)

    def _on(self, _conn: Any, _cur: Any, statement: str, _params: Any, context: Any,
            _many: bool) -> None:
        if self.active and not statement.lstrip().upper().startswith("BEGIN"):
            self.count += 1
            if self.keep:
                # "*": compiled afresh, not taken from SQLAlchemy's statement cache (slow)
                fresh = getattr(context, "cache_hit", None) is not CacheStats.CACHE_HIT
                self.statements.append(("* " if fresh else "  ") + statement)


# ---------------------------------------------------------------- figures


@dataclass
class Figure:
    name: str
    via: str
    samples_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    statements: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # the baseline insert-and-commit run right after each timed op on the same room (``Baseline``)
    base_ms: list[float] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)  # --calls

    @property
    def p50(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p99(self) -> float:
        s = sorted(self.samples_ms)
        return s[max(0, math.ceil(0.99 * len(s)) - 1)]

    @property
    def cpu_p50(self) -> float:
        return statistics.median(self.cpu_ms) if self.cpu_ms else self.p50

    @property
    def cpu_p99(self) -> float:
        s = sorted(self.cpu_ms or self.samples_ms)
        return s[max(0, math.ceil(0.99 * len(s)) - 1)]

    @property
    def base_p50(self) -> float | None:
        return statistics.median(self.base_ms) if self.base_ms else None

    def ratio(self, base: Figure) -> float:
        """p50 over the baseline's: the one run beside this op's own samples when there is one, so a
        VM that slows down or speeds up during the run moves both alike."""
        return self.p50 / (self.base_p50 or base.p50)

    @property
    def stmts(self) -> int:
        return int(statistics.median(self.statements)) if self.statements else 0


# ---------------------------------------------------------------- profiling (--profile OP)

PROFILE: set[str] = set()
CALLS = False  # --calls


class CallCounter:
    """Counts the Python and C function calls made while installed (``sys.setprofile``): a
    measure of an operation's work that, unlike its time on a shared VM, does not move from one
    run to the next, so a change of a few percent shows (docs/benchmarks.md)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, _frame: Any, event: str, _arg: Any) -> None:
        if event in ("call", "c_call"):
            self.count += 1
BOARD_OPS = 50  # --board-ops: timed board and board_live ops, each after an untimed join


def _profiled(profiler: Any, do: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def wrapped(target: Any) -> Any:
        profiler.start()
        try:
            return do(target)
        finally:
            profiler.stop()

    return wrapped


def _print_statements(name: str, statements: list[str], ops: int) -> None:
    """The statements an operation sent, most frequent first, per operation; "*" marks one
    compiled afresh instead of taken from SQLAlchemy's statement cache."""
    counts: dict[str, int] = {}
    for st in statements:
        key = " ".join(st.split())[:160]
        counts[key] = counts.get(key, 0) + 1
    print(f"\n{name}: statements per operation", file=sys.stderr)
    for key, c in sorted(counts.items(), key=lambda kv: -kv[1]):
        print(f"  {c / ops:6.2f}  {key}", file=sys.stderr)


# ---------------------------------------------------------------- the room under test


class Bench:
    def __init__(self, url: str, built: roomgen.Built, engine: Engine) -> None:
        self.engine = engine
        self.built = built
        self.clock = FrozenClock(roomgen.NOW)
        settings = Settings(database_url=url, scheduler="off", secret_key="bench", testing=True)
        self.app: Flask = create_app(settings, clock=self.clock, engine=engine, WTF_CSRF_ENABLED=False)
        self.ext = self.app.extensions["roomops"]
        # The API is called with a token and the board with nothing: no cookie to keep. The test
        # client's cookie jar is its own work on every request, which no server does.
        self.client = self.app.test_client(use_cookies=False)
        self.headers = {"Authorization": f"Bearer {built.token}"}
        self.counter = StatementCounter(engine)
        self.baseline = Baseline(engine)
        self.actor = Actor(built.room_id, built.supervisor_id, "bench-supervisor", "supervisor")
        self.routes = {(m, r.rule) for r in self.app.url_map.iter_rules() for m in r.methods or ()}
        new_games = roomgen.RoomSpec().new_games
        with self.ext.read_sessions() as s:
            n_games = s.scalar(select(Game.id).order_by(Game.id.desc()).limit(1)) or 0
        self.normal_games = list(range(1, n_games - new_games + 1))

    # -- plumbing
    def has(self, method: str, rule: str) -> bool:
        return (method, rule) in self.routes

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        resp = self.client.open(path, method=method, json=body, headers=self.headers)
        if resp.status_code >= 400:
            answer = resp.get_data(as_text=True)[:300]
            raise RuntimeError(f"{method} {path} {body} -> {resp.status_code}: {answer}")
        return resp.get_json(silent=True)

    def service(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """The same work a request does, without HTTP: one session, the service, one commit."""
        with self.ext.sessions() as s:
            result = fn(s, self.actor, self.clock.now(), *args, **kwargs)
            s.commit()
            return result

    def read(self, stmt: Any) -> list[Any]:
        with self.ext.read_sessions() as s:
            return list(s.execute(stmt).all())

    def tick(self) -> None:
        self.clock.advance(milliseconds=100)

    # -- state for picking fresh targets (read outside the timed sections)
    def live_seated(self) -> list[tuple[int, int, int]]:
        rows = self.read(select(SeatHold.id, SeatHold.player_id, Table.game_id).join(
            Table, Table.id == SeatHold.table_id).where(SeatHold.kind == "seated",
                                                         SeatHold.ended_at.is_(None))
            .order_by(SeatHold.id))
        return [tuple(r) for r in rows if r[2] in self.normal_games]

    def live_offers(self) -> list[Any]:
        return self.read(select(SeatHold.id, SeatHold.deadline, SeatHold.started_at, Table.game_id).join(
            Table, Table.id == SeatHold.table_id).where(SeatHold.kind == "offer", SeatHold.ended_at.is_(None))
            .order_by(SeatHold.deadline, SeatHold.id))


# ---------------------------------------------------------------- the timed operations


@dataclass
class Phase:
    """One kind of operation on one room: ``prepare(i)`` picks the i-th fresh target (untimed,
    None to skip), ``do(target)`` is the timed part."""

    name: str
    via: str
    prepare: Callable[[int], Any]
    do: Callable[[Any], Any]


def lockstep(benches: list[Bench], phases: list[Phase], n: int, warmup: int) -> list[Figure]:
    """Run the same phase on every room, op by op in turn (room 1, room 2, room 2, room 1, ...),
    so the rooms compared meet the same machine load at the same moments."""
    figs = [Figure(ph.name, ph.via) for ph in phases]
    profilers: list[Any] = [None] * len(phases)
    if phases[0].name in PROFILE:
        from pyinstrument import Profiler  # pip install pyinstrument (not a requirement)

        profilers[0] = Profiler(interval=0.0005)
        benches[0].counter.keep, benches[0].counter.statements = True, []
    gc.collect()
    rooms = list(zip(benches, phases, figs, profilers, strict=True))
    for i in range(n + warmup):
        # ABBA order: neither room always runs right after the other's garbage.
        for b, ph, fig, prof in rooms if i % 2 == 0 else rooms[::-1]:
            target = ph.prepare(i)
            if target is None:
                continue
            b.counter.count = 0
            b.counter.active = True
            calls = CallCounter()
            if prof is not None:
                prof.start()
            c0, t0 = time.process_time(), time.perf_counter()
            if CALLS:
                sys.setprofile(calls)
            try:
                ph.do(target)
            finally:
                sys.setprofile(None)
                elapsed = (time.perf_counter() - t0) * 1000
                cpu = (time.process_time() - c0) * 1000
                b.counter.active = False
                if prof is not None:
                    prof.stop()
            base_ms = b.baseline.once(i)
            if i >= warmup:
                fig.samples_ms.append(elapsed)
                fig.cpu_ms.append(cpu)
                fig.statements.append(b.counter.count)
                fig.base_ms.append(base_ms)
                if CALLS:
                    fig.calls.append(calls.count)
    for fig in figs:
        if len(fig.samples_ms) < n:
            log(f"  {fig.name}: only {len(fig.samples_ms)} of {n} targets were available")
    if profilers[0] is not None:
        print(profilers[0].output_text(unicode=False, color=False, show_all=False), file=sys.stderr)
        _print_statements(phases[0].name, benches[0].counter.statements, n + warmup)
        benches[0].counter.keep = False
    return figs


def drive(benches: list[Bench], gens: list[Iterator[Phase]], n: int, warmup: int) -> list[dict[str, Figure]]:
    """Advance every room's sequence of phases together; each phase's Figure is sent back in."""
    results: list[dict[str, Figure]] = [{} for _ in benches]

    def step(g: Any, value: Any) -> Phase | None:
        try:
            return g.send(value)  # type: ignore[no-any-return]
        except StopIteration:
            return None

    phases = [step(g, None) for g in gens]
    while all(ph is not None for ph in phases):
        heavy = phases[0].name in ("board", "board_live")  # type: ignore[union-attr]
        ops = min(n, BOARD_OPS) if heavy else n
        figs = lockstep(benches, phases, ops, warmup)  # type: ignore[arg-type]
        for k, fig in enumerate(figs):
            results[k][fig.name] = fig
            log(f"    {fig.name} on room {k + 1}: p50 {fig.p50:.2f} ms p99 {fig.p99:.2f} ms "
                f"{fig.stmts} stmts ({fig.via})")
        phases = [step(g, fig) for g, fig in zip(gens, figs, strict=True)]
    return results


def run_ops(b: Bench, n: int, warmup: int, seed: int) -> Generator[Phase, Figure, None]:
    """The timed operations in turn, one Figure each; a generator so two rooms can take turns."""
    import random

    from roomops.lists import services as lists
    from roomops.rooms.services import update_policy
    from roomops.seating import offers, seats

    r = random.Random(seed)
    api = "/api/v1"
    total = n + warmup

    # floor: the cheapest authenticated API request (token check, one read): what any request costs
    # in Flask, werkzeug's test client, flask-login and pydantic before the service does anything.
    if b.has("GET", f"{api}/policy"):
        yield Phase("http_floor", "http", lambda i: i, lambda _x: b.call("GET", f"{api}/policy"))

    # join: a player who is on no list of that game joins its waiting list, or (one in four) a
    # table's reserve list; join then runs the R14 allocation for the game (auto_offer is on).
    seated_game = {(p, g) for _h, p, g in b.live_seated()}
    seated_table = set(b.read(select(SeatHold.player_id, SeatHold.table_id).where(
        SeatHold.kind == "seated", SeatHold.ended_at.is_(None))))
    on_list = {(p, g, t) for p, g, t in b.read(select(ListEntry.player_id, ListEntry.game_id,
                                                     ListEntry.table_id).where(ListEntry.status == "active"))}
    tables_of: dict[int, list[int]] = {}
    for tid, gid in b.read(select(Table.id, Table.game_id).where(Table.status == "open")):
        tables_of.setdefault(gid, []).append(tid)
    n_players = b.built.counts["players"]
    join_targets: list[dict[str, int]] = []
    while len(join_targets) < total:
        p, g = r.randint(1, n_players), r.choice(b.normal_games)
        if len(join_targets) % 4 == 3:
            t = r.choice(tables_of[g])
            if (p, t) in seated_table or (p, g, t) in on_list:
                continue
            on_list.add((p, g, t))
            join_targets.append({"player_id": p, "table_id": t})
        else:
            if (p, g) in seated_game or (p, g, None) in on_list:
                continue
            on_list.add((p, g, None))
            join_targets.append({"player_id": p, "game_id": g})
    via = "http" if b.has("POST", f"{api}/entries") else "service"

    def do_join(body: dict[str, int]) -> None:
        if via == "http":
            b.call("POST", f"{api}/entries", body)
        else:
            b.service(lists.join, **body)

    def prep_list(targets: list[Any]) -> Callable[[int], Any]:
        def prep(i: int) -> Any:
            b.tick()
            return targets[i] if i < len(targets) else None
        return prep

    yield Phase("join", via, prep_list(join_targets), do_join)

    # leave: a seated player leaves with a counted stack; the seat is offered at once (R14, R20).
    leave_start = b.clock.now()
    holds = b.live_seated()
    r.shuffle(holds)
    leave_targets = [h for h, _p, _g in holds[:total]]
    via = "http" if b.has("POST", f"{api}/seats/<int:hold_id>/leave") or any(
        rule.endswith("/leave") for _m, rule in b.routes) else "service"

    def do_leave(hold_id: int) -> None:
        amount = 10000 + hold_id % 50000
        if via == "http":
            b.call("POST", f"{api}/seats/{hold_id}/leave", {"leave_amount": amount})
        else:
            b.service(seats.leave, hold_id, amount)

    yield Phase("leave", via, prep_list(leave_targets), do_leave)

    # claim: the offers the leaves just made, each claimed in time with the game's minimum buy-in.
    min_buyin = dict(b.read(select(Game.id, Game.min_buyin)))
    fresh = [o for o in b.live_offers() if o.started_at >= leave_start]
    older = [o for o in b.live_offers() if o.started_at < leave_start]
    claim_targets = [(o.id, min_buyin[o.game_id]) for o in [*fresh, *older][:total]]
    via = "http" if any(rule.endswith("/claim") for _m, rule in b.routes) else "service"

    def do_claim(t: tuple[int, int]) -> None:
        if via == "http":
            b.call("POST", f"{api}/offers/{t[0]}/claim", {"buy_in": t[1]})
        else:
            b.service(seats.claim, t[0], t[1])

    yield Phase("claim", via, prep_list(claim_targets), do_claim)

    # offer: by hand, in a room that offers by hand (auto_offer off for this phase, R3): seats
    # freed just before, each offered to the next eligible entry (R14).
    b.service(update_policy, auto_offer=False)
    holds = b.live_seated()
    r.shuffle(holds)
    freed = []
    for h, _p, _g in holds[:total]:
        b.tick()
        freed.append(b.service(seats.leave, h, 20000))
    via = "http" if b.has("POST", f"{api}/offers") else "service"
    made: list[int] = []

    def prep_offer(i: int) -> Any:
        b.tick()
        if i >= len(freed):
            return None
        hold = freed[i]
        with b.ext.read_sessions() as s:
            game = s.get_one(Game, s.get_one(Table, hold.table_id).game_id)
            nxt = offers.next_for_seat(s, game, offers.open_seat(s, game, hold.table_id, hold.seat_no))
        if nxt is None:
            return None
        return {"table_id": hold.table_id, "seat_no": hold.seat_no, "entry_id": nxt.entry_id}

    def do_offer(body: dict[str, int]) -> None:
        if via == "http":
            made.append(b.call("POST", f"{api}/offers", body)["id"])
        else:
            made.append(b.service(offers.offer_by_hand, **body).id)

    yield Phase("offer", via, prep_offer, do_offer)
    b.service(update_policy, auto_offer=True)

    # decline: the offers just made by hand; each is a missed call and the seat goes to the next.
    via = "http" if any(rule.endswith("/decline") for _m, rule in b.routes) else "service"

    def do_decline(offer_id: int) -> None:
        if via == "http":
            b.call("POST", f"{api}/offers/{offer_id}/decline")
        else:
            b.service(offers.decline, offer_id)

    yield Phase("decline", via, prep_list(made), do_decline)

    # hand: the dealer records the next hand at a table (R33-R35), each table in turn; every table
    # dealt its first hand from the high card beforehand, untimed.
    fig = yield from hand_phase(b, total)
    # sweep: one run per due offer (the clock set to each deadline in turn, R22): the run finds
    # the due game, expires the offer and offers the seat to the next player.
    due = b.live_offers()
    expired: list[int] = []

    def prep_sweep(i: int) -> Any:
        if i >= len(due):
            return None
        if due[i].deadline > b.clock.now():
            b.clock.set(due[i].deadline)
        return i

    def do_sweep(_i: int) -> None:
        expired.append(len(sweep_once(b.app).expired_offers))

    fig = yield Phase("sweep", "job", prep_sweep, do_sweep)
    fig.extra["expired_per_run"] = statistics.mean(expired[warmup:]) if expired[warmup:] else 0
    yield from board_phases(b)


def hand_phase(b: Bench, total: int) -> Generator[Phase, Figure, Figure]:
    from roomops.hands.services import record_hand

    api = "/api/v1"
    seated: dict[int, list[int]] = {}
    for t, seat in b.read(select(SeatHold.table_id, SeatHold.seat_no).where(
            SeatHold.kind == "seated", SeatHold.ended_at.is_(None)).order_by(SeatHold.seat_no)):
        seated.setdefault(t, []).append(seat)
    tables = sorted(t for t, s in seated.items() if len(s) >= 3)
    hand_no: dict[int, int] = {}
    for t in tables:
        b.service(record_hand, t, hand_no=1, high_card_seat=seated[t][0])
        hand_no[t] = 1
    via = "http" if b.has("POST", f"{api}/tables/<int(min=1, max=2147483647):table_id>/hands") else "service"

    def prep(i: int) -> Any:
        b.tick()
        t = tables[i % len(tables)]
        hand_no[t] += 1
        return t, hand_no[t]

    def do(target: tuple[int, int]) -> None:
        b.call("POST", f"{api}/tables/{target[0]}/hands", {"hand_no": target[1]})

    return (yield Phase("hand", via, prep, do))


def board_phases(b: Bench) -> Generator[Phase, Figure, None]:
    """The public board: a screen loading the page after a change (GET /board), loading it again with
    nothing changed (the per-game cache's hits), its poll after a change (the live fragment, no
    ETag) and its poll while nothing changed (If-None-Match: 304).

    "After a change": each timed ``board``/``board_live`` op follows an untimed join of a fresh
    player to one game's waiting list (the service, as the desk calls it), each time a different
    game in turn, so what is timed is a render where one game's section is new and the others are
    not. Without it every op after the first would time the cache."""
    from roomops.lists import services as lists
    from roomops.rooms.models import Player
    from roomops.seating.snapshot import load

    if not b.has("GET", "/board"):
        def do_load(_x: Any) -> None:
            with b.ext.read_sessions() as s:
                load(s, b.built.room_id, b.clock.now())

        yield Phase("board", "service", lambda i: i, do_load)
        return

    def get(path: str, status: int, headers: dict[str, str] | None = None) -> Callable[[Any], None]:
        def do(_x: Any) -> None:
            resp = b.client.get(path, headers=headers or {})
            if resp.status_code != status:
                raise RuntimeError(f"GET {path} -> {resp.status_code}, expected {status}")
        return do

    # Players on no list and in no seat, each joining every game in turn (R10: one list per game).
    busy = {p for (p,) in b.read(select(ListEntry.player_id).where(ListEntry.status == "active"))}
    busy |= {p for (p,) in b.read(select(SeatHold.player_id).where(SeatHold.ended_at.is_(None)))}
    free = [p for (p,) in b.read(select(Player.id).order_by(Player.id)) if p not in busy]
    games = [g for (g,) in b.read(select(Game.id).where(Game.status == "open").order_by(Game.id))]
    fresh = ((player_id, game_id) for player_id in free for game_id in games)

    def after_a_join(i: int) -> int:
        player_id, game_id = next(fresh)
        b.tick()
        b.service(lists.join, player_id=player_id, game_id=game_id)
        return i

    def unchanged(i: int) -> int:
        b.tick()  # time passes (countdowns move), nothing changes
        return i

    yield Phase("board", "http", after_a_join, get("/board", 200))
    yield Phase("board_cached", "http", unchanged, get("/board", 200))
    live = "/board/bench/live"
    if b.has("GET", "/board/<slug>/live"):
        yield Phase("board_live", "http", after_a_join, get(live, 200))
        tag = b.client.get(live).headers.get("ETag", "")
        yield Phase("board_poll304", "http", unchanged, get(live, 304, {"If-None-Match": tag}))


# ---------------------------------------------------------------- baseline and scale runs


class Baseline:
    """One bare insert-and-commit of a small row through make_engine (WAL, synchronous=FULL,
    BEGIN IMMEDIATE on SQLite): the floor any write request pays for its durability. Measured on
    its own before the ops, and once more right after each timed op (``Figure.base_ms``)."""

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
        fig = Figure("baseline", "sqlalchemy")
        for i in range(n + 10):
            ms = self.once(i)
            if i >= 10:
                fig.samples_ms.append(ms)
                fig.statements.append(1)
        return fig


def build_room(engine: Engine, spec: roomgen.RoomSpec, label: str) -> roomgen.Built:
    log(f"building {label}: {spec.tables} tables, {spec.active_entries} entries, "
        f"{spec.audit_rows:,} audit rows")
    built = roomgen.build(engine, spec)
    log(f"  built in {built.seconds:.1f} s: {built.counts}")
    return built


def rounds(args: argparse.Namespace, workdir: Path, specs: list[tuple[str, roomgen.RoomSpec]]
           ) -> list[tuple[Figure, dict[str, Figure], roomgen.Built]]:
    """Build every room, then run each timed operation on every room in turn (1x, 10x, 1x, ...),
    so a comparison between rooms is not skewed by whatever else the machine did meanwhile."""
    with ExitStack() as stack:
        benches = []
        for name, spec in specs:
            url = stack.enter_context(fresh_database(args.db, workdir, name, args.pg_url))
            engine = make_engine(url)
            stack.callback(engine.dispose)
            built = build_room(engine, spec, name)
            benches.append(Bench(url, built, engine))
        results: list[tuple[Figure, dict[str, Figure], roomgen.Built]] = []
        for b in benches:
            base = b.baseline.figure(args.ops)
            log(f"  baseline ({b.built.counts['audit_events']:,} audit rows) p50 {base.p50:.3f} ms "
                f"p99 {base.p99:.3f} ms")
            results.append((base, {}, b.built))
        gens = [run_ops(b, args.ops, args.warmup, args.seed) for b in benches]
        for k, figs in enumerate(drive(benches, gens, args.ops, args.warmup)):
            results[k][1].update(figs)
        return results


def small_board(args: argparse.Namespace, workdir: Path, spec: roomgen.RoomSpec) -> dict[str, Figure]:
    with fresh_database(args.db, workdir, "small", args.pg_url) as url:
        engine = make_engine(url)
        try:
            built = build_room(engine, spec.small(), "small room")
            b = Bench(url, built, engine)
            return drive([b], [board_phases(b)], args.ops, args.warmup)[0]
        finally:
            engine.dispose()


def sweep_specs(spec: roomgen.RoomSpec) -> dict[str, roomgen.RoomSpec]:
    """sweep_1000: 1,000 offers due at once (issue 3). sweep_mixed: 1,000 offers, 1,000 breaks,
    1,000 away pickups and 1,000 playovers ending with them, all due at once (issue 4), in a room
    of 400 tables so the seats exist."""
    big = roomgen.RoomSpec(**{**spec.__dict__, "tables": 400, "players": 11000, "active_entries": 4800})

    def due(s: roomgen.RoomSpec, **more: Any) -> roomgen.RoomSpec:
        running = sum(1 for t in range(s.tables) if t % s.games < s.games - s.new_games)
        return roomgen.RoomSpec(**{**s.__dict__, "offers_due": True,
                                   "offers_per_table": 1000 / running + 1e-9, **more})

    return {"sweep_1000": due(spec),
            "sweep_mixed": due(big, absences_due=1000, playovers_due=1000)}


def sweep_scale(args: argparse.Namespace, workdir: Path, name: str, due_spec: roomgen.RoomSpec) -> Figure:
    """Everything due at once, swept in one run (one transaction)."""
    with fresh_database(args.db, workdir, name, args.pg_url) as url:
        engine = make_engine(url)
        try:
            built = build_room(engine, due_spec, f"{name} room")
            b = Bench(url, built, engine)
            fig = Figure(name, "job")
            profiler = None
            if name in PROFILE:
                from pyinstrument import Profiler

                profiler = Profiler(interval=0.001)
                b.counter.keep = True
                profiler.start()
            b.counter.count, b.counter.active = 0, True
            c0, t0 = time.process_time(), time.perf_counter()
            result = sweep_once(b.app)
            fig.samples_ms.append((time.perf_counter() - t0) * 1000)
            fig.cpu_ms.append((time.process_time() - c0) * 1000)
            b.counter.active = False
            if profiler is not None:
                profiler.stop()
                print(profiler.output_text(unicode=False, color=False), file=sys.stderr)
                _print_statements(name, b.counter.statements, 1)
            fig.statements.append(b.counter.count)
            ended = b.read(select(func.count()).select_from(Playover).where(
                Playover.outcome == "seat_released"))[0][0]
            fig.extra.update(expired=len(result.expired_offers),
                             released=len(result.released_absences), playovers_ended=ended,
                             new_offers=len(b.live_offers()))
            return fig
        finally:
            engine.dispose()


# ---------------------------------------------------------------- report


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def report(args: argparse.Namespace, base: Figure, figs: dict[str, Figure], small: dict[str, Figure],
           sweeps: dict[str, Figure], ten: tuple[Figure, dict[str, Figure]] | None) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []

    def add(fig: Figure, target: str, ok: bool | None, **extra: Any) -> None:
        rows.append(dict(name=fig.name, p50_ms=round(fig.p50, 3), p99_ms=round(fig.p99, 3),
                         statements=fig.stmts, ratio_to_baseline=round(fig.ratio(base), 2),
                         baseline_p50_ms=round(fig.base_p50 or base.p50, 3),
                         cpu_p50_ms=round(fig.cpu_p50, 3), cpu_p99_ms=round(fig.cpu_p99, 3),
                         via=fig.via, n=len(fig.samples_ms), target=target,
                         result=None if ok is None else verdict(ok), db=args.db, **fig.extra, **extra,
                         **({"calls": int(statistics.median(fig.calls))} if fig.calls else {})))

    add(base, "", None)
    if "http_floor" in figs:
        add(figs["http_floor"], "(reference: GET /api/v1/policy)", None)
    for name in DESK_OPS:
        if name in figs:
            f = figs[name]
            p99 = P99_TARGET.get(name, DESK_P99)
            add(f, f"p50<={DESK_RATIO:g}x base, p99<{p99:g}ms",
                f.ratio(base) <= DESK_RATIO and f.p99 < p99)
    if "sweep" in figs:
        add(figs["sweep"], "(job, no target)", None)
    for name, f in figs.items():
        if name.startswith("board"):
            sm = small.get(name)
            const = sm is not None and sm.stmts == f.stmts
            add(f, f"p99<{BOARD_P99:g}ms, constant stmts", f.p99 < BOARD_P99 and const,
                statements_small_room=sm.stmts if sm else None,
                p50_ms_small_room=round(sm.p50, 3) if sm else None)
    for name, fig in sweeps.items():
        limit = SWEEP_S[name]
        add(fig, f"{SWEEP_DUE[name]} due in <{limit:g}s", fig.p50 < limit * 1000)
    if ten:
        base10, figs10 = ten
        tenfold = [("baseline", base, base10), *((k, figs[k], figs10[k]) for k in figs if k in figs10)]
        for name, f1, f10 in tenfold:
            d50 = 100 * (f10.p50 - f1.p50) / f1.p50
            d99 = 100 * (f10.p99 - f1.p99) / f1.p99
            rows.append(dict(name=f"{name}@audit{args.audit_multiplier}x", p50_ms=round(f10.p50, 3),
                             p99_ms=round(f10.p99, 3), statements=f10.stmts,
                             ratio_to_baseline=round(f10.ratio(base10), 2), via=f10.via,
                             n=len(f10.samples_ms), p50_ms_1x=round(f1.p50, 3), p99_ms_1x=round(f1.p99, 3),
                             p50_change_pct=round(d50, 1), cpu_p50_ms=round(f10.cpu_p50, 3),
                             cpu_p50_ms_1x=round(f1.cpu_p50, 3),
                             cpu_p50_change_pct=round(100 * (f10.cpu_p50 - f1.cpu_p50) / f1.cpu_p50, 1),
                             p99_change_pct=round(d99, 1), statements_1x=f1.stmts,
                             target=f"within {AUDIT_DRIFT:g}%", db=args.db,
                             result=verdict(abs(d50) <= AUDIT_DRIFT and f1.stmts == f10.stmts),
                             result_p99=verdict(abs(d99) <= AUDIT_DRIFT)))
    return rows


def print_table(args: argparse.Namespace, rows: list[dict[str, Any]], built: roomgen.Built) -> None:
    out = sys.stdout
    c = built.counts
    print(f"\nroomops core-loop benchmark on {args.db}: {c['tables']} tables, {c['games']} games, "
          f"{c['list_entries']:,} list entries ({c.get('active_entries', 3000):,} active), "
          f"{c['seat_holds']:,} seat holds, {c['audit_events']:,} audit rows; {args.ops} ops each "
          f"after {args.warmup} warm-up\n", file=out)
    head = (f"{'operation':<14}{'via':<9}{'p50 ms':>9}{'p99 ms':>9}{'cpu p50':>9}{'cpu p99':>9}{'stmts':>7}"
            f"{'base p50':>9}{'x base':>8}  {'target':<34}result")
    print(head, file=out)
    print("-" * len(head), file=out)
    tenfold = [r for r in rows if "@audit" in r["name"]]
    for r in rows:
        if r in tenfold:
            continue
        extra = ""
        if "statements_small_room" in r:
            extra = (f"  (10-table room: {r['statements_small_room']} stmts, "
                     f"p50 {r['p50_ms_small_room']:.2f} ms)")
        if r["name"].startswith("sweep_"):
            extra = (f"  ({r['expired']} offers expired, {r['released']} seats released, "
                     f"{r['playovers_ended']} playovers ended, {r['statements']} stmts, one transaction)")
        if r["name"] == "sweep":
            extra = f"  ({r['expired_per_run']:.2f} offers expired per run)"
        if "calls" in r:
            extra = f"  ({r['calls']:,} calls){extra}"
        print(f"{r['name']:<14}{r['via']:<9}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}{r['cpu_p50_ms']:>9.2f}"
              f"{r['cpu_p99_ms']:>9.2f}"
              f"{r['statements']:>7}{r['baseline_p50_ms']:>9.2f}"
              f"{r['ratio_to_baseline']:>8.1f}  {r['target']:<34}{r['result'] or ''}{extra}", file=out)
    if tenfold:
        print(f"\naudit history x{args.audit_multiplier} ({tenfold[0].get('audit_rows', '')}):", file=out)
        m = f"{args.audit_multiplier}x"
        head = (f"{'operation':<14}{'p50 1x':>9}{'p50 ' + m:>9}{'change':>8}{'p99 1x':>9}{'p99 ' + m:>9}"
                f"{'change':>8}{'cpu p50':>9}{'stmts':>10}  p50+stmts  p99")
        print(head, file=out)
        print("-" * len(head), file=out)
        for r in tenfold:
            name = r["name"].split("@")[0]
            print(f"{name:<14}{r['p50_ms_1x']:>9.2f}{r['p50_ms']:>9.2f}{r['p50_change_pct']:>+7.1f}%"
                  f"{r['p99_ms_1x']:>9.2f}{r['p99_ms']:>9.2f}{r['p99_change_pct']:>+7.1f}%"
                  f"{r['cpu_p50_change_pct']:>+8.1f}%"
                  f"{r['statements_1x']:>4}->{r['statements']:<4}  {r['result']:<9}  {r['result_p99']}",
                  file=out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--pg-url", default=os.environ.get("ROOMOPS_BENCH_POSTGRES_URL", DEFAULT_PG))
    ap.add_argument("--json", action="store_true", help="one JSON object per operation per line")
    ap.add_argument("--ops", type=int, default=200, help="timed operations of each kind")
    ap.add_argument("--warmup", type=int, default=5, help="untimed operations before each kind")
    ap.add_argument("--audit-multiplier", type=int, default=10,
                    help="re-run with this many times the audit history (1: skip)")
    ap.add_argument("--audit-rows", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--keep", action="store_true", help="keep the SQLite files (printed at the end)")
    ap.add_argument("--profile", action="append", default=[], metavar="OP",
                    help="profile OP's timed runs with pyinstrument and list its statements (repeatable)")
    ap.add_argument("--calls", action="store_true",
                    help="count each timed op's Python and C function calls (sys.setprofile); "
                         "slows every op, so the times of such a run are not the figures")
    ap.add_argument("--board-ops", type=int, default=50,
                    help="timed GET /board and live-fragment requests, each after an untimed change")
    args = ap.parse_args(argv)
    PROFILE.update(args.profile)
    global BOARD_OPS, CALLS
    BOARD_OPS, CALLS = args.board_ops, args.calls
    workdir = Path(tempfile.mkdtemp(prefix="roomops-bench-"))
    t0 = time.perf_counter()
    try:
        spec = roomgen.RoomSpec(audit_rows=args.audit_rows)
        specs = [("room1x", spec)]
        if args.audit_multiplier > 1:
            specs.append((f"room{args.audit_multiplier}x",
                          roomgen.RoomSpec(audit_rows=args.audit_rows * args.audit_multiplier)))
        done = rounds(args, workdir, specs)
        base, figs, built = done[0]
        ten = (done[1][0], done[1][1]) if len(done) > 1 else None
        small = small_board(args, workdir, spec)
        sweeps = {name: sweep_scale(args, workdir, name, due)
                  for name, due in sweep_specs(spec).items()}
        rows = report(args, base, figs, small, sweeps, ten)
        if ten:
            for r in rows:
                if "@audit" in r["name"]:
                    r["audit_rows"] = args.audit_rows * args.audit_multiplier
        if args.json:
            for r in rows:
                print(json.dumps(r))
        else:
            print_table(args, rows, built)
        log(f"done in {time.perf_counter() - t0:.0f} s")
    finally:
        if args.keep:
            log(f"databases kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
