"""The board page compressed and not (issue 21, "Scale and speed"): bytes and server CPU a request.

    .venv/bin/python bench/compression.py [--samples 100]

Builds the 250-table room (bench/roomgen.py, 10,000 audit rows: the page does not read them) in a
SQLite file and asks ``GET /board/bench`` through Flask's test client, the board's caches warm,
with no ``Accept-Encoding`` and then with each encoding and level in ``CHOICES`` (the app's
compression set to it). Prints, for each, the bytes sent and the process CPU a request
(``time.process_time``: the whole request, its compression included; p50), and the compression's
own share (the CPU over that with no compression). A benchmark: it prints, exit status 0.
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

CHOICES = [("identity", 0), ("gzip", 1), ("gzip", 3), ("gzip", 6), ("gzip", 9), ("br", 1), ("br", 4),
           ("br", 6)]
PAGE = "/board/bench"


def measure(bench: harness.Bench, encoding: str, level: int, samples: int) -> tuple[int, float]:
    bench.app.config.update(COMPRESS_LEVEL=level, COMPRESS_BR_LEVEL=level)
    headers = {"Accept-Encoding": encoding}
    size, cpu = 0, []
    for i in range(samples + 10):
        t0 = time.process_time()
        resp = bench.client.get(PAGE, headers=headers)
        spent = time.process_time() - t0
        assert resp.status_code == 200 and resp.headers.get("Content-Encoding", "identity") == encoding
        size = len(resp.data)
        if i >= 10:
            cpu.append(spent * 1000)
    return size, statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=int, default=100)
    args = ap.parse_args()
    spec = replace(roomgen.RoomSpec(), audit_rows=10_000)
    with tempfile.TemporaryDirectory() as tmp, \
            harness.fresh_database("sqlite", Path(tmp), "compression", harness.DEFAULT_PG) as url:
        bench = harness.Bench(url, spec, "compression")
        try:
            plain = None
            for encoding, level in CHOICES:
                size, cpu = measure(bench, encoding, level, args.samples)
                plain = plain or (size, cpu)
                print(f"{encoding:8} level {level}  {size:>8,} bytes ({size / plain[0]:6.1%})  "
                      f"CPU p50 {cpu:6.2f} ms  compression {cpu - plain[1]:+6.2f} ms", flush=True)
        finally:
            bench.close()


if __name__ == "__main__":
    main()
