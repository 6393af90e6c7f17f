"""The room's change mark as the audit trail grows (issue 21, "Scale and speed").

    .venv/bin/python bench/mark.py                          # SQLite
    .venv/bin/python bench/mark.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/
    .venv/bin/python bench/mark.py --rows 10000 1000000 --rooms 5 --explain

Builds a 10-table room (bench/roomgen.py) and ``--rooms`` - 1 more rooms beside it, then fills the
audit trail to each of ``--rows`` rows in turn with the other rooms' rows: the timed room is a
quiet one (its last change lies ever further back in the trail). At each size, after ``ANALYZE``
and ``VACUUM`` (what autovacuum does for an append-only table; ``--unsettled``: right after the
rows are written, as between two autovacuum runs), it times ``--samples`` of:

- ``change_mark``: ``roomops.games.marks.change_mark`` alone, in a session of its own;
- ``poll``: ``GET /board/bench/live`` with the ETag it answered before (the board's unchanged
  poll: a 304), through Flask's test client.

and prints p50 and p99 in ms; ``--explain`` adds the mark's plan (PostgreSQL: ``EXPLAIN
(ANALYZE, BUFFERS)``, SQLite: ``EXPLAIN QUERY PLAN``). A benchmark: it prints, exit status 0.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import harness
import roomgen
from sqlalchemy import Engine, insert, literal, select, text
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.games.marks import _ONE, change_mark
from roomops.rooms.models import Room


def add_rooms(engine: Engine, rooms: int) -> None:
    """Rooms 2.. beside the built one, alike but for their names."""
    with engine.begin() as conn:
        first = conn.execute(select(Room.__table__).where(Room.id == 1)).mappings().one()
        conn.execute(insert(Room.__table__), [
            {**first, "id": n, "slug": f"room{n}", "name": f"Room {n}"} for n in range(2, rooms + 1)])
        if engine.dialect.name == "postgresql":
            conn.execute(text("SELECT setval(pg_get_serial_sequence('rooms', 'id'), "
                              "(SELECT max(id) FROM rooms))"))


def fill(engine: Engine, rows: int, rooms: int, settle: bool) -> None:
    """Audit rows up to ``rows`` in all, of rooms 2.. in turn (none of the timed room's), by one
    INSERT ... SELECT."""
    with engine.begin() as conn:
        have = conn.scalar(select(AuditEvent.id).order_by(AuditEvent.id.desc()).limit(1)) or 0
        if rows <= have:
            return
        series = (f"generate_series({have + 1}, {rows}) AS s(n)" if engine.dialect.name == "postgresql"
                  else "(WITH RECURSIVE s(n) AS (SELECT :a UNION ALL SELECT n + 1 FROM s WHERE n < :b) "
                       "SELECT n FROM s) AS s")
        source = select(
            (literal(2) + text(f"s.n % {rooms - 1}")).label("room_id"),
            literal(roomgen.NOW - timedelta(days=30), AuditEvent.at.type),
            literal("bench"), literal("entry.joined"), literal("list_entry"), text("s.n"),
            literal({}, AuditEvent.detail.type),
        ).select_from(text(series))
        cols = ["room_id", "at", "actor", "action", "entity_type", "entity_id", "detail"]
        conn.execute(insert(AuditEvent).from_select(cols, source), {"a": have + 1, "b": rows})
        if settle:
            conn.execute(text("ANALYZE"))
    if settle and engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM audit_events"))


def timed(samples: int, op: Callable[[], object]) -> tuple[float, float]:
    ms = []
    for _ in range(samples + 20):
        t0 = time.perf_counter()
        op()
        ms.append((time.perf_counter() - t0) * 1000)
    ms = ms[20:]
    return harness.percentile(ms, 0.5), harness.percentile(ms, 0.99)


def explain(engine: Engine) -> str:
    sql = str(_ONE.params(room_id=1).compile(engine, compile_kwargs={"literal_binds": True}))
    prefix = "EXPLAIN (ANALYZE, BUFFERS) " if engine.dialect.name == "postgresql" else "EXPLAIN QUERY PLAN "
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(prefix + sql).all()
    return "\n".join(" | ".join(str(c) for c in r) for r in rows)


def run(url: str, args: argparse.Namespace) -> None:
    spec = roomgen.RoomSpec().small()
    spec = roomgen.RoomSpec(**{**spec.__dict__, "audit_rows": min(args.rows) // 10})
    bench = harness.Bench(url, spec, "mark")
    try:
        add_rooms(bench.engine, args.rooms)
        for rows in sorted(args.rows):
            t0 = time.perf_counter()
            fill(bench.engine, rows, args.rooms, not args.unsettled)
            harness.log(f"filled to {rows:,} rows in {time.perf_counter() - t0:.1f} s")
            with Session(bench.engine) as s:
                mark_p = timed(args.samples, lambda s=s: (change_mark(s, 1), s.rollback()))
            tag = bench.client.get("/board/bench/live").headers["ETag"]
            poll = timed(args.samples, lambda tag=tag: _poll(bench, tag))
            print(f"{bench.engine.dialect.name:10} {rows:>9,} rows  change_mark p50 {mark_p[0]:.3f} "
                  f"p99 {mark_p[1]:.3f} ms   poll(304) p50 {poll[0]:.3f} p99 {poll[1]:.3f} ms",
                  flush=True)
            if args.explain:
                print(explain(bench.engine), flush=True)
    finally:
        bench.close()


def _poll(bench: harness.Bench, tag: str) -> None:
    resp = bench.client.get("/board/bench/live", headers={"If-None-Match": tag})
    assert resp.status_code == 304, resp.status_code


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--postgres", help="a PostgreSQL server URL (a database of its own is made)")
    ap.add_argument("--rows", type=int, nargs="+", default=[10_000, 1_000_000])
    ap.add_argument("--rooms", type=int, default=5, choices=range(2, 101), metavar="2-100")
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--explain", action="store_true")
    ap.add_argument("--unsettled", action="store_true",
                    help="time right after the rows are written: no ANALYZE or VACUUM first")
    args = ap.parse_args()
    backend = "postgresql" if args.postgres else "sqlite"
    with tempfile.TemporaryDirectory() as tmp, \
            harness.fresh_database(backend, Path(tmp), "mark", args.postgres or harness.DEFAULT_PG) as url:
        run(url, args)


if __name__ == "__main__":
    main()
