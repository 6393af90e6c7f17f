"""What a person at the desk or the board waits for, timed on a large room against absolute targets.

    .venv/bin/python bench/core_loop.py                    # SQLite (full run: see docs/benchmarks.md)
    .venv/bin/python bench/core_loop.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/
    .venv/bin/python bench/core_loop.py --quick            # smoke test, under a minute a database

On each database (SQLite always; PostgreSQL too with --postgres or ROOMOPS_BENCH_POSTGRES_URL):
builds the 250-table room with 10x the audit history (bench/roomgen.py), then times every desk
action (join, leave, claim, offer, decline, hand), the public board and the desk's screen through
Flask's test client and through waitress serving the same app on 127.0.0.1, each figure beside
the floor (a route doing nothing) through the same way in, measured in the same moments; checks
the board's statements against a 10-table room; sweeps 1,000 due offers, and the mixed sweep, at
once.
Prints one table per database with PASS/MISS against the targets (issue 17):

    desk actions   client p50 <= 5 ms, p99 <= 15 ms; server p50 <= 8 / 12 ms, p99 <= 20 / 30 ms
                   (SQLite / PostgreSQL)
    the board      p99 <= 20 ms, through either, in as many statements as on a 10-table room
    sweeps         1,000 due offers in one run < 0.5 s; 1,000 each of offers, breaks, away
                   and playovers < 2 s
    desk_screen    no target: the whole desk a supervisor's screen re-reads after a change

A benchmark, not a test: it only prints (exit status 0 even on a MISS). The app runs on a clock
the benchmark moves (nothing sleeps).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import ops  # noqa: E402
import roomgen  # noqa: E402
from harness import DEFAULT_PG, Bench, Figure, fresh_database, log  # noqa: E402
from vias import ClientVia, Via, served  # noqa: E402

# ---------------------------------------------------------------- the targets (issue 17), in ms


@dataclass(frozen=True)
class Limit:
    p50: float | None
    p99: float

    def text(self) -> str:
        p50 = f"p50<={self.p50:g} " if self.p50 is not None else ""
        return f"{p50}p99<={self.p99:g} ms"

    def met(self, fig: Figure) -> bool:
        return (self.p50 is None or fig.p50 <= self.p50) and fig.p99 <= self.p99


DESK = {("client", "sqlite"): Limit(5, 15), ("client", "postgresql"): Limit(5, 15),
        ("server", "sqlite"): Limit(8, 20), ("server", "postgresql"): Limit(12, 30)}
BOARD = Limit(None, 20)  # and a fixed number of statements: the same as on a 10-table room
SWEEP_S, MIXED_S = 0.5, 2.0  # seconds: everything due swept in one run


@dataclass
class Row:
    fig: Figure
    target: str = ""
    ok: bool | None = None
    note: str = ""

    def as_dict(self, db: str) -> dict[str, Any]:
        f = self.fig
        return dict(db=db, name=f.name, via=f.via, n=len(f.samples_ms), p50_ms=round(f.p50, 3),
                    p99_ms=round(f.p99, 3), statements=f.stmts if f.statements else None,
                    floor_p50_ms=None if f.floor_p50 is None else round(f.floor_p50, 3),
                    cpu_p50_ms=round(statistics.median(f.cpu_ms), 3) if f.cpu_ms else None,
                    target=self.target, result=None if self.ok is None else verdict(self.ok),
                    note=self.note, **f.extra)


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


# ---------------------------------------------------------------- the rooms


@dataclass
class Plan:
    """How much to build and time, from the command line."""

    room: roomgen.RoomSpec
    sweep_audit_rows: int  # the sweep rooms' history: the sweep appends to the trail, never reads it
    ops: int
    board_ops: int
    warmup: int
    due: int  # timers due at once in the sweep rooms
    seed: int
    quick: bool = False


def plan_from(args: argparse.Namespace) -> Plan:
    room = roomgen.RoomSpec(audit_rows=args.audit_rows * args.audit_multiplier)
    if args.quick:
        room = room.scaled(40)
        return Plan(room, room.audit_rows, ops=min(args.ops, 20), board_ops=min(args.board_ops, 10),
                    warmup=min(args.warmup, 2), due=100, seed=args.seed, quick=True)
    return Plan(room, args.audit_rows, args.ops, args.board_ops, args.warmup, due=1000, seed=args.seed)


def sweep_specs(plan: Plan) -> dict[str, roomgen.RoomSpec]:
    """``sweep_<due>``: ``due`` offers past their deadline at once (issue 3). ``sweep_mixed``: as many
    offers, breaks and players away past ``max_away_minutes`` all due, a playover on as many of
    those seats (issue 4), in a room with 1.6 times the tables so the seats exist. Both with the
    normal audit history (``--audit-rows``): building ten times as many rows twice more would add
    minutes to a run and nothing to the figure."""
    spec = replace(plan.room, audit_rows=plan.sweep_audit_rows)
    big = replace(spec, tables=spec.tables * 8 // 5, players=spec.players * 11 // 7,
                  active_entries=spec.active_entries * 8 // 5)

    def due(s: roomgen.RoomSpec, **more: Any) -> roomgen.RoomSpec:
        running = sum(1 for t in range(s.tables) if t % s.games < s.games - s.new_games)
        return replace(s, offers_due=True, offers_per_table=plan.due / running + 1e-9, **more)

    return {f"sweep_{plan.due}": due(spec),
            "sweep_mixed": due(big, absences_due=plan.due, playovers_due=plan.due)}


@contextmanager
def room(db: str, pg_url: str, workdir: Path, name: str, spec: roomgen.RoomSpec) -> Iterator[Bench]:
    with fresh_database(db, workdir, name, pg_url) as url:
        b = Bench(url, spec, f"{name} on {db}")
        try:
            yield b
        finally:
            b.close()


def timed_requests(b: Bench, plan: Plan, desk: bool) -> list[Figure]:
    """The desk's actions (``desk``) and the board, through the test client and the server. What
    start-up built is frozen first (``gc.freeze()``), as ``serve`` does before serving."""
    gc.collect()
    gc.freeze()
    try:
        with served(b.app) as server:
            vias: list[Via] = [ClientVia(b.app), server]
            figs = ops.desk_ops(b, vias, plan.ops, plan.warmup, plan.seed) if desk else []
            figs += ops.board_ops(b, vias, plan.board_ops, plan.warmup)
            return figs + (ops.desk_screen(b, vias, plan.board_ops, plan.warmup) if desk else [])
    finally:
        gc.unfreeze()


def run_database(db: str, pg_url: str, plan: Plan, workdir: Path) -> tuple[str, list[Row]]:
    with room(db, pg_url, workdir, "room", plan.room) as b:
        base = b.baseline.figure(100)
        figs = timed_requests(b, plan, desk=True)
        c = b.built.counts
    with room(db, pg_url, workdir, "small", plan.room.small()) as b:
        small = timed_requests(b, replace(plan, board_ops=min(plan.board_ops, 20)), desk=False)
    sweeps = []
    for name, spec in sweep_specs(plan).items():
        with room(db, pg_url, workdir, name, spec) as b:
            sweeps.append(ops.sweep(b, name))
    header = (f"roomops core loop on {db}, {time.strftime('%Y-%m-%d %H:%M %Z')}, "
              f"{os.cpu_count()} CPUs\n"
              f"room: {c['tables']} tables, {c['games']} games, {c['players']:,} players, "
              f"{plan.room.active_entries:,} active list entries, {c['audit_events']:,} audit rows\n"
              f"{plan.ops} timed requests per operation and way in (board: {plan.board_ops}), each "
              f"after {plan.warmup} untimed; fsync baseline (bare insert + commit) p50 "
              f"{base.p50:.2f} ms")
    if plan.quick:
        header += "\n--quick: a smoke test of the harness on a small room; its verdicts say nothing"
    return header, report(db, plan, figs, small, sweeps)


# ---------------------------------------------------------------- report


def report(db: str, plan: Plan, figs: list[Figure], small: list[Figure], sweeps: list[Figure]) -> list[Row]:
    rows: list[Row] = []
    for via in ("client", "server"):  # the floor over the whole run, each way in
        floor = Figure("floor", via)
        floor.samples_ms = [ms for f in figs if f.via == via for ms in f.floor_ms]
        rows.append(Row(floor, "(reference)"))
    small_stmts = {(f.name, f.via): f.stmts for f in small}
    for f in figs:
        if f.name in ("policy", "desk_screen"):
            rows.append(Row(f, "(reference)"))
        elif f.name in ops.DESK_OPS:
            limit = DESK[(f.via, db)]
            rows.append(Row(f, limit.text(), limit.met(f)))
        else:
            at_10 = small_stmts.get((f.name, f.via))
            rows.append(Row(f, f"{BOARD.text()}, stmts fixed", BOARD.met(f) and at_10 == f.stmts,
                            f"10-table room: {at_10} stmts"))
    for f in sweeps:
        mixed = f.name == "sweep_mixed"
        seconds = MIXED_S if mixed else SWEEP_S
        what = f"{plan.due} of each due" if mixed else f"{plan.due} due"
        rows.append(Row(f, f"{what} in <{seconds:g} s", f.p50 < seconds * 1000,
                        f"{f.extra['expired']} offers expired, {f.extra['released']} seats released"))
    return rows


def print_table(header: str, rows: list[Row]) -> None:
    print(f"\n{header}\n")
    head = (f"{'operation':<14}{'via':<8}{'p50 ms':>9}{'p99 ms':>9}{'stmts':>7}{'floor p50':>11}"
            f"  {'target':<32}{'result':<8}note")
    print(head)
    print("-" * len(head))
    for r in rows:
        f = r.fig
        stmts = str(f.stmts) if f.statements else "-"
        floor = f"{f.floor_p50:.2f}" if f.floor_p50 is not None else "-"
        result = verdict(r.ok) if r.ok is not None else ""
        print(f"{f.name:<14}{f.via:<8}{f.p50:>9.2f}{f.p99:>9.2f}{stmts:>7}{floor:>11}  "
              f"{r.target:<32}{result:<8}{r.note}".rstrip())
    missed = [r for r in rows if r.ok is False]
    print(f"\n{len(missed)} of {sum(r.ok is not None for r in rows)} targets missed"
          + (f": {', '.join(f'{r.fig.name} ({r.fig.via})' for r in missed)}" if missed else ""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--postgres", metavar="URL", default=os.environ.get("ROOMOPS_BENCH_POSTGRES_URL"),
                    help="also run on PostgreSQL: a server URL (e.g. " + DEFAULT_PG + ") whose user may "
                         "create databases; each room gets a private roomops_bench_* database, dropped "
                         "afterwards (default: $ROOMOPS_BENCH_POSTGRES_URL, else SQLite only)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke test: a 40-table room, 1x history, 20 requests per operation, 100 timers "
                         "due; its verdicts say nothing about the targets")
    ap.add_argument("--ops", type=int, default=200,
                    help="timed requests of each desk action through each way in (default 200)")
    ap.add_argument("--board-ops", type=int, default=50,
                    help="timed requests of each board kind through each way in (default 50)")
    ap.add_argument("--warmup", type=int, default=5, help="untimed requests before each kind (default 5)")
    ap.add_argument("--audit-rows", type=int, default=200_000,
                    help="the audit history of a normal room (default 200,000)")
    ap.add_argument("--audit-multiplier", type=int, default=10,
                    help="the timed room's audit history, in multiples of --audit-rows (default 10; "
                         "--quick: 1); the sweep rooms keep 1x")
    ap.add_argument("--seed", type=int, default=11, help="which targets are picked (default 11)")
    ap.add_argument("--json", action="store_true", help="one JSON object per row instead of the tables")
    args = ap.parse_args(argv)
    if args.quick:
        args.audit_multiplier = 1
    plan = plan_from(args)
    databases = [("sqlite", "")] + ([("postgresql", args.postgres)] if args.postgres else [])
    workdir = Path(tempfile.mkdtemp(prefix="roomops-bench-"))
    t0 = time.perf_counter()
    try:
        for db, pg_url in databases:
            header, rows = run_database(db, pg_url, plan, workdir)
            if args.json:
                for r in rows:
                    print(json.dumps(r.as_dict(db)), flush=True)
            else:
                print_table(header, rows)
                sys.stdout.flush()
        log(f"done in {time.perf_counter() - t0:.0f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
