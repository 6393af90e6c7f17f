"""The dealers' rotation plan on a Saturday night (issue 42, R64): how long ``plan()`` takes.

    .venv/bin/python bench/dealer_plan.py [--tables 250] [--dealers 300] [--samples 50] [--seed 42]

Builds a night's roster in memory: ``--tables`` open tables whose downs started at staggered times
(their pushes spread over a down), a dealer at each, some due for a break, and the other dealers
waiting or on break (coming back at staggered times). Then the plan is made once over 8 hours and
re-made after one more table opens, ``--samples`` times for each horizon: 2 hours (what the sweep and
the screens use, budget 200 ms) and 8 hours (the coordinator's whole night). In turns with each
re-plan the floor is timed: planning 1 table and 1 dealer over 2 hours, a pure call of the same code
doing almost nothing, so the floor printed beside a figure was measured in the same moments.
Prints p50 and p99 of each, the ratio of the p50s, and whether the 2-hour re-plan is within budget;
and, untimed, the most downs a dealer deals in a row without a break in the night's plan.
A benchmark: it prints, exit status 0.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from roomops.dealers.plan import DealerNow, Plan, Rules, plan  # noqa: E402

NOW = datetime(2026, 11, 21, 21, 0, tzinfo=UTC)  # a Saturday night, the room full
BUDGET_MS = 200.0  # a re-plan over 2 hours (the sweep, the dealer screens)
HORIZONS = (timedelta(hours=2), timedelta(hours=8))


def percentile(samples: list[float], q: float) -> float:
    """Nearest rank, as bench/harness.py's (not imported: it brings the app with it)."""
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def night(tables: int, dealers: int, rules: Rules, seed: int) -> list[DealerNow]:
    """The roster at ``NOW``: a dealer at each table, pushes spread over a down; the rest of the
    dealers on break or waiting. Tables are 1..``tables``, dealers 1..``dealers``."""
    r = random.Random(seed)
    rows = []
    for dealer_id in range(1, dealers + 1):
        free = NOW - timedelta(minutes=r.randint(30, 90))
        rested = free - timedelta(minutes=r.randint(0, 120))
        downs = r.randint(0, rules.downs_before_break - 1)
        last = r.randint(1, tables)
        if dealer_id <= tables:  # staggered: table t's down started (t * 7) % down_minutes ago
            until = NOW + timedelta(minutes=rules.down_minutes - (dealer_id * 7) % rules.down_minutes)
            rows.append(DealerNow(dealer_id, free, rested, downs, last, dealer_id, until))
        elif dealer_id % 2:
            until = NOW + timedelta(minutes=r.randint(1, rules.break_minutes))
            rows.append(DealerNow(dealer_id, free, rested, 0, last, None, until))
        else:
            rows.append(DealerNow(dealer_id, free, rested, downs, last))
    return rows


def longest_runs(p: Plan) -> list[int]:
    """Each dealer's most downs in a row without a break, in the plan."""
    runs: dict[int, tuple[int, int]] = {}  # dealer -> (run now, longest)
    for step in p.steps:
        run, longest = runs.get(step.dealer_id, (0, 0))
        run = 0 if step.kind == "break" else run + 1
        runs[step.dealer_id] = run, max(run, longest)
    return [longest for _run, longest in runs.values()]


def timed(call: Callable[[], Plan]) -> tuple[Plan, float]:
    """The call's plan and its wall time in ms."""
    t0 = time.perf_counter()
    made = call()
    return made, (time.perf_counter() - t0) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--dealers", type=int, default=300)
    ap.add_argument("--samples", type=int, default=50, help="timed re-plans for each horizon")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args()
    rules = Rules()
    rows = night(args.tables, args.dealers, rules, args.seed)
    tables = list(range(1, args.tables + 1))
    first, first_ms = timed(lambda: plan(NOW, tables, rows, rules, horizon=HORIZONS[1]))
    breaks = sum(1 for s in first.steps if s.kind == "break")
    print(f"night: {args.tables} tables, {args.dealers} dealers, 8 h: {len(first.steps)} steps "
          f"({breaks} breaks), {len(first.gaps)} gaps; made in {first_ms:.0f} ms", flush=True)
    # breaks are fair among the due at one push (R64), not across push times: shown, not timed
    runs = longest_runs(first)
    long_runs = sum(1 for n in runs if n >= 2 * rules.downs_before_break)
    print(f"downs in a row without a break: most {max(runs)}, {long_runs} of {len(runs)} dealers "
          f"{2 * rules.downs_before_break} or more", flush=True)
    opened = [*tables, args.tables + 1]  # a table opens: re-planned with the rows as they are
    one = [DealerNow(1, NOW, NOW, 0, None)]
    for horizon in HORIZONS:
        gc.collect()
        ms, floor = [], []
        for _ in range(args.samples):  # in turns, so both meet the same load
            ms.append(timed(lambda h=horizon: plan(NOW, opened, rows, rules, horizon=h))[1])
            floor.append(timed(lambda: plan(NOW, [1], one, rules))[1])
        p50, p99, f50, f99 = (statistics.median(ms), percentile(ms, 0.99), statistics.median(floor),
                              percentile(floor, 0.99))
        hours = horizon // timedelta(hours=1)
        within = "within" if p99 <= BUDGET_MS else "OVER"
        verdict = f"  budget {BUDGET_MS:.0f} ms: {within}" if hours == 2 else ""
        print(f"re-plan after a table opens, {hours} h: p50 {p50:.1f} ms p99 {p99:.1f} ms  "
              f"floor p50 {f50 * 1000:.0f} us p99 {f99 * 1000:.0f} us  ratio {p50 / f50:.0f}x{verdict}",
              flush=True)


if __name__ == "__main__":
    main()
