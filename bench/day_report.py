"""The day's report (R52, R54) on a busy gaming day of the benchmark's 250-table room.

    .venv/bin/python bench/day_report.py [--db sqlite|postgresql] [--pg-url URL] [--hands 200000]
                                         [--buy-ins 20000] [--transits 20000] [--ops 20]

Builds the room with ``roomgen`` (bulk inserts), then one gaming day of ledger rows in bulk: a rake
row per hand (``--hands``, taken by the table's dealer), buy-ins on the day's seats and delivered
transits (each with its slip): 240,000 rows with the defaults. Times the report as JSON (``GET
/api/v1/ledger/days/{day}/report``) and as CSV (``GET /desk/cage/days/{day}/report.csv``) against
its target (under 1 s at p99), and posting a buy-in (``POST /api/v1/ledger/buy-ins``) and an
add-on, each through both ways in (``vias``: the test client, and a real waitress server over
HTTP), beside that way's floor (a route doing nothing, timed before each sample) and the bare
insert-and-commit baseline (``harness.Baseline``), all measured in the same run. It prints figures;
it is not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import harness  # noqa: E402
import roomgen  # noqa: E402
from sqlalchemy import Engine, insert, select, text  # noqa: E402
from vias import ClientVia, Request, Via, served  # noqa: E402

from roomops.games.models import Game, Table  # noqa: E402
from roomops.hands.models import Hand  # noqa: E402
from roomops.holds.models import SeatHold  # noqa: E402
from roomops.ledger.models import LedgerEntry, SlipCounter, TransitSlip  # noqa: E402
from roomops.rooms.gaming_day import gaming_day  # noqa: E402
from roomops.rooms.models import Staff  # noqa: E402

TARGET_S = 1.0  # the day's report, JSON or CSV, p99, on a 250-table room's busy day (240,000 rows)
DEALER, CASHIER, SUPERVISOR = 4, 3, 1  # roomgen makes staff 1-3; the dealer is added here
BLANK = dict(player_id=None, hold_id=None, slip_id=None, hand_id=None)


def _hands(r: random.Random, tables: list[int], n: int, at: Any) -> list[dict[str, Any]]:
    """``n`` hands dealt over the day, numbered per table in the order they were dealt."""
    times = sorted((at(), r.choice(tables)) for _ in range(n))
    numbers: dict[int, int] = {}
    hands = []
    for i, (when, t) in enumerate(times, start=1):
        numbers[t] = numbers.get(t, 0) + 1
        button = numbers[t] % 9 + 1
        hands.append(dict(id=i, room_id=1, table_id=t, hand_no=numbers[t], at=when, staff_id=DEALER,
                          button=button, small_blind_seat=button % 9 + 1,
                          big_blind_seat=(button + 1) % 9 + 1, dealt_in=list(range(1, 10)),
                          posts=[], straddles=[]))
    return hands


def build_day(engine: Engine, hands: int, buy_ins: int, transits: int, seed: int) -> dict[str, int]:
    """One gaming day of ledger rows in bulk, every row as the services would write it."""
    r = random.Random(seed)
    day = gaming_day(roomgen.NOW, "Europe/London")
    start = roomgen.NOW - timedelta(hours=15)
    with engine.begin() as conn:
        conn.execute(insert(Staff), [dict(id=DEALER, room_id=1, username="bench-dealer",
                                          display_name="Bench Dealer", role="dealer",
                                          password_hash=roomgen.PASSWORD_HASH, active=True,
                                          created_at=roomgen.NOW - timedelta(days=90))])
        tables: dict[int, int] = {t: g for t, g in conn.execute(select(Table.id, Table.game_id))}
        # the day's players who came and went; the seats still live get their buy-in timed later
        holds = conn.execute(select(SeatHold.id, SeatHold.table_id, SeatHold.player_id)
                             .where(SeatHold.kind == "seated", SeatHold.ended_at.is_not(None))).all()
        rows: list[dict[str, Any]] = []
        seconds = 15 * 3600

        def at() -> Any:
            return start + timedelta(seconds=r.randrange(seconds))

        dealt = _hands(r, list(tables), hands, at)
        for chunk in roomgen._chunks(dealt):
            conn.execute(insert(Hand), chunk)
        for hand in dealt:  # R51: a rake row names its hand
            t = hand["table_id"]
            rows.append(dict(room_id=1, gaming_day=day, at=hand["at"], kind="rake",
                             amount=-r.randint(50, 500), method="chips", game_id=tables[t], table_id=t,
                             hand_id=hand["id"], staff_id=DEALER))
        ended = list(holds)
        for _ in range(buy_ins):
            hold_id, t, player = r.choice(ended)
            rows.append(dict(room_id=1, gaming_day=day, at=at(), kind="buy_in",
                             amount=r.choice([10000, 20000, 40000]), method="cash", player_id=player,
                             game_id=tables[t], table_id=t, hold_id=hold_id, staff_id=SUPERVISOR))
        slips = []
        for n in range(1, transits + 1):
            hold_id, t, player = r.choice(ended)
            when = at()
            slips.append(dict(id=n, room_id=1, number=n, state="delivered", player_id=player, table_id=t,
                              hold_id=hold_id, amount=r.choice([5000, 10000, 20000]), method="cash",
                              requested_at=when, requested_by_id=CASHIER, authorised_at=when,
                              authorised_by_id=SUPERVISOR, delivered_at=when, delivered_by_id=CASHIER))
            rows.append(dict(room_id=1, gaming_day=day, at=when, kind="transit", amount=slips[-1]["amount"],
                             method="cash", player_id=player, game_id=tables[t], table_id=t,
                             hold_id=hold_id, slip_id=n, staff_id=CASHIER))
        for chunk in roomgen._chunks(slips):
            conn.execute(insert(TransitSlip), chunk)
        conn.execute(insert(SlipCounter), [dict(room_id=1, last_number=transits)])
        rows.sort(key=lambda row: row["at"])
        rows = [{**BLANK, **row} for row in rows]  # one set of keys: executemany binds the first's
        for chunk in roomgen._chunks(rows):
            conn.execute(insert(LedgerEntry), chunk)
        if engine.dialect.name == "postgresql":
            for name in ("ledger_entries", "transit_slips", "hands"):
                conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                  f"(SELECT max(id) FROM {name}))"))
    with engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    return {"ledger_entries": len(rows), "transit_slips": len(slips)}


def timed(b: harness.Bench, via: Via, name: str, n: int, do: Any) -> harness.Figure:
    """``n`` samples of ``do(via, i)``, each with the floor request through the same way in and
    the bare commit timed just before it."""
    fig = harness.Figure(name, via.name)
    floor = Request("GET", b.FLOOR)
    do(via, -1)  # warm-up: compiled statements, caches
    for i in range(n):
        t0 = time.perf_counter()
        via.send(floor)
        fig.floor_ms.append((time.perf_counter() - t0) * 1000)
        b.counter.count, b.counter.active = 0, True
        t0, c0 = time.perf_counter(), time.process_time()
        do(via, i)
        fig.samples_ms.append((time.perf_counter() - t0) * 1000)
        fig.cpu_ms.append((time.process_time() - c0) * 1000)
        b.counter.active = False
        fig.statements.append(b.counter.count)
        fig.base_ms.append(b.baseline.once(i))
    return fig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    ap.add_argument("--pg-url", default=os.environ.get("ROOMOPS_BENCH_POSTGRES_URL", harness.DEFAULT_PG))
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--buy-ins", type=int, default=20_000)
    ap.add_argument("--transits", type=int, default=20_000)
    ap.add_argument("--ops", type=int, default=20, help="timed reports of each kind")
    ap.add_argument("--posts", type=int, default=200, help="timed buy-ins and add-ons")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    workdir = Path(tempfile.mkdtemp(prefix="roomops-bench-day-"))
    try:
        with harness.fresh_database(args.db, workdir, "day", args.pg_url) as url:
            b = harness.Bench(url, roomgen.RoomSpec(), "room")
            try:
                return run(args, b)
            finally:
                b.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)  # the SQLite file


def run(args: argparse.Namespace, b: harness.Bench) -> int:
    t0 = time.perf_counter()
    counts = build_day(b.engine, args.hands, args.buy_ins, args.transits, args.seed)
    harness.log(f"  day built in {time.perf_counter() - t0:.1f} s: {counts}")
    base = b.baseline.figure(args.posts)
    day = gaming_day(roomgen.NOW, "Europe/London").isoformat()
    with b.ext.read_sessions() as s:
        live = s.execute(select(SeatHold.id, Game.min_buyin)
                         .join(Table, Table.id == SeatHold.table_id).join(Game, Game.id == Table.game_id)
                         .where(SeatHold.kind == "seated", SeatHold.ended_at.is_(None))
                         .order_by(SeatHold.id)).all()

    def get(path: str, mimetype: str) -> Any:
        def do(via: Via, _i: int) -> None:
            answer = via.send(Request("GET", path, headers=b.headers))
            assert answer.status == 200 and mimetype in answer.headers["Content-Type"], answer.body[:300]
        return do

    def post(path: str, offset: int) -> Any:
        def do(via: Via, i: int) -> None:
            hold_id, amount = live[offset + i + 1]
            answer = via.send(Request("POST", path, {"hold_id": hold_id, "amount": amount}, b.headers))
            assert answer.status == 201, answer.body[:300]
        return do

    def each(via: Via, offset: int) -> list[harness.Figure]:
        return [timed(b, via, "report_json", args.ops, get(f"/api/v1/ledger/days/{day}/report",
                                                            "application/json")),
                timed(b, via, "report_csv", args.ops, get(f"/desk/cage/days/{day}/report.csv",
                                                           "text/csv")),
                timed(b, via, "post_buy_in", args.posts, post("/api/v1/ledger/buy-ins", offset)),
                timed(b, via, "post_add_on", args.posts, post("/api/v1/ledger/add-ons", offset))]

    figs = each(ClientVia(b.app), 0)
    with served(b.app) as server:
        figs += each(server, args.posts + 1)  # other seats: a seat's buy-in is posted once
    rows = counts["ledger_entries"]
    print(f"\nday report, {args.db}: 250 tables, {rows:,} ledger rows on gaming day {day} "
          f"({args.hands:,} rake, {args.buy_ins:,} buy-ins, {args.transits:,} transits)")
    print(f"{'operation':<14}{'via':<8}{'p50 ms':>10}{'p99 ms':>10}{'floor p50':>11}"
          f"{'base p50':>10}{'x base':>9}{'stmts':>7}  verdict")
    print(f"{'baseline':<14}{'-':<8}{base.p50:>10.2f}{base.p99:>10.2f}{'':>11}{base.p50:>10.2f}"
          f"{1:>9.1f}{1:>7}")
    for f in figs:
        verdict = ""
        if f.name.startswith("report"):
            verdict = f"p99<{TARGET_S:g} s " + ("PASS" if f.p99 < TARGET_S * 1000 else "MISS")
        print(f"{f.name:<14}{f.via:<8}{f.p50:>10.2f}{f.p99:>10.2f}{f.floor_p50 or 0:>11.2f}"
              f"{f.base_p50 or base.p50:>10.2f}{f.ratio(base):>9.1f}{f.stmts:>7}  {verdict}".rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
