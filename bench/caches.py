"""Every room's board of a group of rooms, in turn, from the board's caches (issue 21).

    .venv/bin/python bench/caches.py [--rooms 20] [--rounds 5]

Builds a room of 40 games on 80 tables (bench/roomgen.py) in a SQLite file and ``--rooms`` - 1
more rooms with copies of its games and open tables (no one seated or waiting: a lighter board
than the first's), then asks ``GET /board/<slug>`` of every room in turn, as a group's TVs do,
for ``--rounds`` rounds after a first one, through Flask's test client. It prints the process CPU
a request (``time.process_time``, p50 and p90) and the fragment cache's hits, twice: with the
caches at the fixed size they had before (400 entries) and sized for the deployment's games
(``roomops.kept.Tally``). A benchmark: it prints, exit status 0.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import harness
import roomgen
from mark import add_rooms
from sqlalchemy import Engine, insert, select

from roomops.board.render import LANGUAGES
from roomops.board.views import CACHE, ROWS
from roomops.games.models import Game, Table


def copy_games(engine: Engine, rooms: int) -> None:
    """Room 1's open games and tables, again in each of rooms 2..``rooms``."""
    games, tables = Game.__table__, Table.__table__
    with engine.begin() as conn:
        own_games = conn.execute(select(games).where(games.c.room_id == 1)).mappings().all()
        own_tables = conn.execute(select(tables).where(tables.c.room_id == 1,
                                                       tables.c.status == "open")).mappings().all()
        for room in range(2, rooms + 1):
            new_id = {}
            for game in own_games:
                row = {**game, "room_id": room}
                del row["id"]
                new_id[game["id"]] = conn.execute(insert(games).values(row)).inserted_primary_key[0]
            conn.execute(insert(tables), [
                {**{k: v for k, v in t.items() if k != "id"}, "room_id": room,
                 "game_id": new_id[t["game_id"]], "feeds_table_id": None} for t in own_tables])


def rounds(bench: harness.Bench, slugs: list[str], n: int) -> tuple[float, float, float]:
    """CPU ms a request (p50, p90) and the fragment cache's hit share over ``n`` rounds."""
    cache = bench.app.extensions[CACHE]
    for slug in slugs:  # a first round fills the caches
        bench.client.get(f"/board/{slug}")
    hits, misses = cache.hits, cache.misses
    cpu = []
    for _ in range(n):
        for slug in slugs:
            t0 = time.process_time()
            assert bench.client.get(f"/board/{slug}").status_code == 200
            cpu.append((time.process_time() - t0) * 1000)
    hits, misses = cache.hits - hits, cache.misses - misses
    return statistics.median(cpu), harness.percentile(cpu, 0.9), hits / (hits + misses)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    spec = replace(roomgen.RoomSpec().scaled(80), games=40, new_games=3, audit_rows=10_000)
    with tempfile.TemporaryDirectory() as tmp, \
            harness.fresh_database("sqlite", Path(tmp), "caches", harness.DEFAULT_PG) as url:
        bench = harness.Bench(url, spec, "caches")
        try:
            add_rooms(bench.engine, args.rooms)
            copy_games(bench.engine, args.rooms)
            slugs = ["bench"] + [f"room{n}" for n in range(2, args.rooms + 1)]
            rows, fragments = bench.app.extensions[ROWS], bench.app.extensions[CACHE]
            # before: no entries a game, the least size alone; after: as roomops.board sizes them
            for label, per_game in (("fixed 400", (0, 0)), ("sized", (1, LANGUAGES))):
                rows.per_game, fragments.per_game = per_game
                rows._items.clear()
                fragments._items.clear()
                p50, p90, hit = rounds(bench, slugs, args.rounds)
                print(f"{label:10} {args.rooms} rooms, {fragments.tally.games} games  caches "
                      f"{rows.size}/{fragments.size}  CPU a board p50 {p50:.1f} ms p90 {p90:.1f} ms  "
                      f"fragment hits {hit:.0%}", flush=True)
        finally:
            bench.close()


if __name__ == "__main__":
    main()
