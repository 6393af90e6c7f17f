"""The web process's CPU per board change, drawing every language against drawing those shown (issue 41).

    .venv/bin/python bench/board_change.py                  # 250 tables, SQLite, 20 changes a turn
    .venv/bin/python bench/board_change.py --turns 4 --changes 30 --postgres postgresql+psycopg://postgres@127.0.0.1:5432/

Builds the 250-table room (bench/roomgen.py) and, in this one process, does what a web process
with a broker does for each floor change: the change's request (a player joins a game's list
through the API, the desk's way in) and the publisher's pass after its commit
(``roomops.push.publisher``), which reads the room, keys its games and draws the changed one in
each language it publishes. The pass publishes to a broker that keeps nothing; what the screens
read is that broker's ``shown``:

- **every**: all three languages, as every web process with a broker drew them before issue 41
  (no web process knew which languages the push servers' pages read);
- **shown**: those the screens read: English alone (the room's TVs), then English and German
  (a German phone open as well).

The kinds run in turns (``--turns``), ``--changes`` changes each, on the same room and process.
It prints the thread CPU (``time.thread_time``) of the request and of the pass, per change
(p50), and each kind's total over the old one's; also the pass with no change (a ``TICK``, every
2 s). A benchmark: it prints, exit status 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import harness
import roomgen
from push import pick_joins

from roomops.push.messages import Update
from roomops.push.publisher import Publisher
from roomops.rooms.languages import LANGUAGES

KINDS: dict[str, set[str]] = {"every": set(LANGUAGES), "shown: en": set(), "shown: en, de": {"de"}}


class Broker:
    """Sends nowhere; the screens read ``shown``."""

    def __init__(self, shown: set[str]) -> None:
        self.languages = shown

    def send(self, update: Update, slug: str) -> None:
        pass

    def latest(self, room_id: int, lang: str) -> int:
        return 0

    def want(self, lang: str) -> None:
        pass

    def shown(self) -> set[str]:
        return self.languages


def cpu_ms(work: Callable[[], object]) -> float:
    started = time.thread_time()
    work()
    return (time.thread_time() - started) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--changes", type=int, default=20, help="changes per kind and turn")
    ap.add_argument("--turns", type=int, default=3)
    ap.add_argument("--postgres", default="")
    args = ap.parse_args()
    backend = "postgresql" if args.postgres else "sqlite"
    with tempfile.TemporaryDirectory() as tmp, \
            harness.fresh_database(backend, Path(tmp), "change", args.postgres) as url:
        b = harness.Bench(url, roomgen.RoomSpec().scaled(args.tables), f"{args.tables}-table room")
        joins = iter(pick_joins(b, args.changes * args.turns * len(KINDS), 41))
        publishers = {kind: Publisher(b.app, Broker(shown)) for kind, shown in KINDS.items()}
        for publisher in publishers.values():
            publisher.publish_changes(0)  # the room sent whole once, as a process's first pass
        requests: dict[str, list[float]] = {kind: [] for kind in KINDS}
        passes: dict[str, list[float]] = {kind: [] for kind in KINDS}
        idle: dict[str, list[float]] = {kind: [] for kind in KINDS}
        for turn in range(args.turns):
            for kind, publisher in publishers.items():
                for _ in range(args.changes):
                    body = next(joins)
                    requests[kind].append(cpu_ms(lambda body=body: b.api("POST", "/entries", body)))
                    b.tick()
                    passes[kind].append(cpu_ms(lambda p=publisher: p.publish_changes(0)))
                    idle[kind].append(cpu_ms(lambda p=publisher: p.publish_changes(0)))
                # the other kinds' publishers see this turn's changes now, untimed
                for other in publishers.values():
                    if other is not publisher:
                        other.publish_changes(0)
            harness.log(f"turn {turn + 1} of {args.turns} done")
        b.close()
    report(backend, args.tables, requests, passes, idle)


def report(backend: str, tables: int, requests: dict[str, list[float]], passes: dict[str, list[float]],
           idle: dict[str, list[float]]) -> None:
    med = statistics.median
    base = med(requests["every"]) + med(passes["every"])
    print(f"\n{backend}, {tables} tables: the web process's CPU per board change, p50 ms")
    print(f"{'kind':<14} {'request':>8} {'pass':>8} {'total':>8} {'/every':>7} {'pass/every':>10} "
          f"{'no change':>10}")
    for kind in KINDS:
        total = med(requests[kind]) + med(passes[kind])
        print(f"{kind:<14} {med(requests[kind]):>8.1f} {med(passes[kind]):>8.1f} {total:>8.1f} "
              f"{total / base:>7.2f} {med(passes[kind]) / med(passes['every']):>10.2f} "
              f"{med(idle[kind]):>10.1f}")


if __name__ == "__main__":
    main()
