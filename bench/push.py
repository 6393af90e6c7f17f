"""The board pushed against the board polled, through real servers (issue 21, "Scale and speed").

    .venv/bin/python bench/push.py                       # 500 and 2,000 pages, SQLite
    .venv/bin/python bench/push.py --pages 500 2000 5000 --changes 15
    .venv/bin/python bench/push.py --modes push --pages 2000 --every 0.5 --changes 40
    .venv/bin/python bench/push.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/
    .venv/bin/python bench/push.py --modes push --pages 2000 5000 --before 292b8bb   # old, new in turns

Builds the 250-table room (bench/roomgen.py) in a fresh database, then starts, as separate
processes, the app under waitress (``flask serve``, 8 threads, no scheduler) publishing to Redis
(``ROOMOPS_PUSH_BROKER``, a prefix of the run's own) and the push server (``flask push-server``).
For each number of pages N:

- **push**: N pages hold ``/board/<slug>/events`` open on the push server (what the proxy routes
  there), each an asyncio protocol reading its stream's bytes in the loop's callback (no task per
  page; an event's games looked up by its id in the broker's message, parsed once:
  ``PushedPage``); once every one has the room whole, one floor change (a player joins a game's
  waiting list through the API, the desk's way in) every ``--every`` seconds (2 by default; 0.5
  for a busy night of several supervisors) for ``--changes`` changes;
- **poll**: the same N clients poll ``/board/<slug>/live`` on waitress every 2 s with their ETag
  (today's board), through the same changes.

For each it prints the time from the change's request to its arrival on the pages (p50, p99, over
every page and change: the request's own few ms included, so an upper bound of commit to arrival),
the pages that had it within 1 s, the servers' CPU per change (utime + stime of each process, from
/proc/<pid>/stat, over the phase, divided by the changes: everything the servers did, keep-alives
and 304s included) and the pages' (this process's), and the desk's latency through waitress while
the pages are open: the joins, and a light desk read (``GET /api/v1/policy``) every 250 ms, from a
process of its own, each beside the floor: the same server's answer to a stylesheet revalidated
with its ETag (a 304 through the same app and hooks), timed in the same run by the same process,
each of them after a pause as the join is (a request to an idle server costs more than one right
after another). Its last line says what a bare commit costs on this disk (200, 50 ms apart): a
write's p99 is never below the disk's own stalls.

``--before COMMIT`` also starts that commit's push server (its tree from ``git archive``, this
venv's packages), beside today's on the same web process, Redis and room, and runs each push
phase on the old one, then on the new one: the push server's CPU per page per message (its CPU
per change over the pages) of both in one run, and the new over the old.

Targets (issue 21): push p99 < 1 s at 2,000 pages; CPU per change at 2,000 no more than 2x that at
500; desk p50 <= 5 ms and p99 <= 15 ms with 2,000 pages open. The clients share the machine's two
cores with the servers, as the phones' traffic would not: the figures are pessimistic for that.
A benchmark: it prints, exit status 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import re
import resource
import statistics
import subprocess
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import aiohttp
import harness
import ops
import redis
import redis.asyncio as aioredis
import roomgen

POLL = 2.0  # the phones' poll, as board.js did
FLOOR = "/static/board.css"  # revalidated with its ETag: a 304 from the same server and hooks
REDIS = "redis://127.0.0.1:6379/0"


def wait_published(push_url: str, slug: str, seconds: float = 120) -> float:
    """Until the push server has the room: the web process publishes every room whole once it
    starts, and a stream asked for before that is refused (404), as a phone's would be, which
    then polls. Returns the seconds it took."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            urllib.request.urlopen(f"{push_url}/board/{slug}/events", timeout=5).close()
            return time.monotonic() - t0
        except urllib.error.HTTPError as error:
            if error.code != 404:
                raise
            time.sleep(0.2)
    raise RuntimeError(f"the push server did not have room {slug} after {seconds:g} s")


@dataclass
class Servers:
    web: subprocess.Popen[bytes]
    pushes: dict[str, subprocess.Popen[bytes]]  # by code: "new" (this tree), "old" (--before)
    web_url: str
    push_urls: dict[str, str]
    prefix: str  # the broker's keys and channels, the run's own

    def cpu(self, code: str) -> tuple[float, float]:
        return harness.cpu_ms(self.web.pid), harness.cpu_ms(self.pushes[code].pid)

    def stop(self) -> None:
        for proc in (self.web, *self.pushes.values()):
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:  # aiohttp closing thousands of streams one by one
                proc.kill()
                proc.wait(10)


def start_servers(url: str, prefix: str, workdir: Path, trees: dict[str, Path]) -> Servers:
    """The web process, and a push server from each of ``trees`` (by code), all on one broker."""
    web_port = harness.free_port()
    # the run's thousands of pages all come from 127.0.0.1: no bound per address (issue 40)
    broker = {"ROOMOPS_PUSH_BROKER": REDIS, "ROOMOPS_PUSH_PREFIX": prefix,
              "ROOMOPS_PUSH_STREAMS_PER_ADDRESS": "0"}
    log = open(workdir / "servers.log", "ab")  # noqa: SIM115  (the processes' own, to the end)
    web = harness.flask_process("serve", web_port, url, workdir, log, **broker)
    ports = {code: harness.free_port() for code in trees}
    pushes = {code: harness.flask_process("push-server", ports[code], url, workdir, log, tree, **broker)
              for code, tree in trees.items()}
    servers = Servers(web, pushes, f"http://127.0.0.1:{web_port}",
                      {code: f"http://127.0.0.1:{port}" for code, port in ports.items()}, prefix)
    harness.wait_http(f"{servers.web_url}/health")
    for push_url in servers.push_urls.values():
        harness.wait_http(f"{push_url}/push/health")
    return servers


# ---------------------------------------------------------------- the desk, a process of its own


def desk(web_url: str, token: str, joins: list[dict[str, int]], start: float, every: float,
         out: Any) -> None:
    """One join every ``every`` seconds from ``start`` (time.time), a policy read and the floor
    between, each 125 ms after the call before; sends back [(game_id, sent_at, ms)], the reads'
    ms and the floor's."""
    import http.client

    conn = http.client.HTTPConnection(web_url.removeprefix("http://"))
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    etag = {"If-None-Match": ""}

    def call(method: str, path: str, body: dict[str, int] | None = None) -> float:
        t0 = time.perf_counter()
        conn.request(method, path, json.dumps(body) if body else None,
                     etag if path == FLOOR else auth)
        resp = conn.getresponse()
        resp.read()
        if resp.status >= 400:
            raise RuntimeError(f"{method} {path} -> {resp.status}")
        etag["If-None-Match"] = resp.headers.get("ETag") or etag["If-None-Match"]
        return (time.perf_counter() - t0) * 1000

    call("GET", FLOOR)
    changes: list[tuple[int, float, float]] = []
    reads: list[float] = []
    floor: list[float] = []
    try:
        drive(call, joins, start, every, changes, reads, floor)
    finally:  # whatever happened: the bench waits for this
        out.send((changes, reads, floor))


def drive(call: Any, joins: list[dict[str, int]], start: float, every: float,
          changes: list[tuple[int, float, float]], reads: list[float], floor: list[float]) -> None:
    for k, body in enumerate(joins):
        due = start + k * every
        while time.time() < due - 0.1:
            # each after a pause, as the join and a person's click: on an idle VM a request
            # 250 ms after the last costs ~2 ms more than one right after another
            for samples, path in ((reads, "/api/v1/policy"), (floor, FLOOR)):
                time.sleep(max(0.0, min(0.125, due - 0.1 - time.time())))
                samples.append(call("GET", path))
        time.sleep(max(0.0, due - time.time()))
        sent = time.time()
        changes.append((body["game_id"], sent, call("POST", "/api/v1/entries", body)))


# ---------------------------------------------------------------- the pages


@dataclass
class Page:
    arrivals: list[tuple[float, tuple[str, ...]]] = field(default_factory=list)  # time, games
    ready: bool = False
    errors: int = 0


EVENT_ID = re.compile(rb"\nid: (\d+)\n")  # JSON escapes newlines: only an event's own lines
EVENT_END, FULL_END = b"}\n\n", b'"full":true}\n\n'  # a board event's last bytes; the room whole's


class PushedPage(asyncio.Protocol):
    """One page's stream, read as bytes in the loop's own callback, with no task per page: each
    board event's id and when its last bytes came (``ids``; its games are the broker's message of
    that id, parsed once, ``message_games``). The aiohttp client's reader woke a task and parsed
    each event per page: ~55 us of this process's CPU per page per message, five times the push
    server's, on the same two cores. ``tail``: the last bytes of the read before, for an id or an
    end split between two reads."""

    def __init__(self, page: Page, request: bytes) -> None:
        self.page, self.request, self.tail, self.open = page, request, b"", False
        self.transport: asyncio.Transport | None = None
        self.ids: list[tuple[float, int]] = []
        self.current = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        at, buf, seen = time.time(), self.tail + data, len(self.tail)
        if not self.tail and not data.startswith(b"HTTP/1.1 200"):
            self.page.errors += 1
        pos = 0
        while True:
            if not self.open:
                found = next((m for m in EVENT_ID.finditer(buf, pos) if m.end() > seen), None)
                if found is None:
                    break
                self.current, self.open, pos = int(found[1]), True, found.end()
                continue
            end = buf.find(EVENT_END, max(pos, seen - len(EVENT_END) + 1))
            if end < 0:
                break
            self.open, pos = False, end + len(EVENT_END)
            if buf.endswith(FULL_END, 0, pos):
                self.page.ready = True  # the room whole: not a change
            else:
                self.ids.append((at, self.current))
        self.tail = buf[-32:]

    def connection_lost(self, exc: Exception | None) -> None:
        if exc is not None:
            self.page.errors += 1


async def message_games(prefix: str, games: dict[int, tuple[str, ...]]) -> None:
    """The games of each board message the broker carries (English, the pages' language), by its
    number, until cancelled: what each page's ids are looked up in."""
    client = aioredis.Redis.from_url(REDIS)
    pubsub = client.pubsub()
    await pubsub.psubscribe(f"{prefix}:room:*:en")
    try:
        async for item in pubsub.listen():
            if item["type"] == "pmessage":
                number, _, payload = item["data"].decode().partition("|")
                games[int(number)] = tuple(json.loads(payload)["games"])
    finally:
        await client.aclose()


async def open_pages(push_url: str, path: str, pages: list[Page]) -> list[PushedPage]:
    """Every page's stream opened, 500 connections at a time (a burst of thousands overflows the
    server's listen backlog, and the refused retry seconds later)."""
    host, port = push_url.removeprefix("http://").split(":")
    request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
    loop = asyncio.get_running_loop()
    streams = [PushedPage(page, request) for page in pages]
    for k in range(0, len(streams), 500):
        await asyncio.gather(*(loop.create_connection(lambda s=s: s, host, int(port))  # type: ignore[misc]
                               for s in streams[k:k + 500]))
    return streams


async def polling_page(http: aiohttp.ClientSession, url: str, page: Page, stop: asyncio.Event) -> None:
    etag = ""
    await asyncio.sleep(random.random() * POLL)  # phones load at different moments
    while not stop.is_set():
        try:
            async with http.get(url, headers={"If-None-Match": etag} if etag else {}) as resp:
                body = await resp.read()
                if resp.status == 200:
                    changed = bool(etag)
                    etag = resp.headers.get("ETag", "")
                    page.ready = True
                    if changed:
                        page.arrivals.append((time.time(), ("*",)))
                    del body
        except aiohttp.ClientError:
            page.errors += 1
        await asyncio.sleep(POLL)


@dataclass
class Result:
    mode: str
    code: str  # which push server: "new" (this tree), "old" (--before)
    pages: int
    latencies: list[float]
    within_1s: float
    missed: int
    web_cpu: float
    push_cpu: float
    client_cpu: float  # the pages' own (this process's), per change: they share the two cores
    desk_ms: list[float]
    reads_ms: list[float]
    floor_ms: list[float]
    errors: int

    @property
    def push_us_per_page(self) -> float:
        """The push server's CPU per message per page, in us."""
        return self.push_cpu * 1000 / self.pages if self.pages else float("nan")


async def phase(mode: str, code: str, n: int, servers: Servers, slug: str, token: str,
                joins: list[dict[str, int]], every: float) -> Result:
    pages = [Page() for _ in range(n)]
    stop = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    async with aiohttp.ClientSession(connector=connector) as http:
        t0 = time.monotonic()
        games: dict[int, tuple[str, ...]] = {}
        streams: list[PushedPage] = []
        if mode == "push":
            tasks = [asyncio.create_task(message_games(servers.prefix, games))]
            streams = await open_pages(servers.push_urls[code], f"/board/{slug}/events", pages)
        else:
            url = f"{servers.web_url}/board/{slug}/live"
            tasks = [asyncio.create_task(polling_page(http, url, p, stop)) for p in pages]
        while sum(p.ready for p in pages) < n and time.monotonic() - t0 < 180:
            await asyncio.sleep(0.5)
        harness.log(f"  {mode}: {sum(p.ready for p in pages)}/{n} pages ready in "
                    f"{time.monotonic() - t0:.1f} s")
        await asyncio.sleep(POLL)
        web0, push0 = servers.cpu(code)
        client0 = time.process_time()
        spawn = mp.get_context("spawn")  # forking this process (threads, a loop) could deadlock
        receiver, sender = spawn.Pipe(duplex=False)
        start = time.time() + 3  # the desk's process starts afresh
        worker = spawn.Process(target=desk, args=(servers.web_url, token, joins, start, every,
                                                      sender))
        worker.start()
        changes, reads, floor = await asyncio.to_thread(receiver.recv)
        await asyncio.to_thread(worker.join)
        await asyncio.sleep(POLL + 1)  # the last change's arrivals
        web1, push1 = servers.cpu(code)
        client1 = time.process_time()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for stream in streams:
            stream.page.arrivals = [(at, games.get(number, ())) for at, number in stream.ids]
            if stream.transport is not None:
                stream.transport.close()
    latencies, on_time, missed = [], 0, 0
    for game_id, sent, _ms in changes:
        key = f"g{game_id}"
        for p in pages:
            got = next((at for at, games in p.arrivals if at >= sent and (key in games or "*" in games)),
                       None)
            if got is None:
                missed += 1
                continue
            latencies.append((got - sent) * 1000)
            on_time += got - sent < 1
    total = len(changes) * n
    return Result(mode, code, n, latencies, on_time / total if total else 0, missed,
                  (web1 - web0) / len(changes), (push1 - push0) / len(changes),
                  (client1 - client0) * 1000 / len(changes),
                  [ms for _g, _s, ms in changes], reads, floor, sum(p.errors for p in pages))


# ---------------------------------------------------------------- the run


def pick_joins(b: harness.Bench, count: int, seed: int) -> list[dict[str, int]]:
    """Players each joining a game's waiting list they are not on nor seated at (as bench/ops.py)."""
    r = random.Random(seed)
    view = ops.RoomView.read(b)
    games = ops.running_games(b, view)
    seated = {(s.player_id, s.game_id) for s in view.seated()}
    out: list[dict[str, int]] = []
    while len(out) < count:
        player, game = r.randint(1, b.built.counts["players"]), r.choice(games)
        if (player, game) not in seated and player not in view.waiting[game]:
            view.waiting[game].add(player)
            out.append({"player_id": player, "game_id": game})
    return out


def commits(b: harness.Bench, n: int = 200) -> list[float]:
    """A bare insert and commit through the app's engine, ``n`` times 50 ms apart, as the desk's
    writes come: what the disk's own stalls do to a write's p99 on this machine."""
    out = []
    for i in range(n):
        time.sleep(0.05)
        out.append(b.baseline.once(i))
    return out


def p(samples: list[float], q: float) -> float:
    return harness.percentile(samples, q) if samples else float("nan")


def report(results: list[Result]) -> None:
    print(f"{'mode':<5} {'code':<4} {'pages':>6} {'p50 ms':>8} {'p99 ms':>8} {'<1 s':>6} {'missed':>6} "
          f"{'web CPU/change':>15} {'push CPU/change':>16} {'us/page':>8} {'pages CPU':>10} "
          f"{'desk p50/p99':>14} {'read p50/p99':>14} {'floor p50/p99':>14} {'errors':>6}")
    for r in results:
        lat = r.latencies
        print(f"{r.mode:<5} {r.code:<4} {r.pages:>6} {statistics.median(lat) if lat else float('nan'):>8.1f} "
              f"{p(lat, 0.99):>8.1f} {r.within_1s:>6.1%} {r.missed:>6} {r.web_cpu:>12.1f} ms "
              f"{r.push_cpu:>13.1f} ms {r.push_us_per_page:>8.1f} {r.client_cpu:>7.0f} ms "
              f"{pair(r.desk_ms)}{pair(r.reads_ms)}{pair(r.floor_ms)}{r.errors:>6}")


def compare(results: list[Result]) -> None:
    """--before: the new push server's CPU per page per message over the old one's, per size."""
    old = {r.pages: r for r in results if r.mode == "push" and r.code == "old"}
    for r in results:
        if r.mode == "push" and r.code == "new" and r.pages in old:
            before = old[r.pages]
            print(f"{r.pages:>6} pages: push CPU per page per message {before.push_us_per_page:.1f} -> "
                  f"{r.push_us_per_page:.1f} us ({r.push_us_per_page / before.push_us_per_page:.2f}x), "
                  f"p99 {p(before.latencies, 0.99):.0f} -> {p(r.latencies, 0.99):.0f} ms, "
                  f"missed {before.missed} -> {r.missed}")


def pair(samples: list[float]) -> str:
    """p50/p99, as the report's columns print them."""
    return f"{p(samples, 0.5):>6.1f}/{p(samples, 0.99):<7.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, nargs="+", default=[500, 2000])
    ap.add_argument("--changes", type=int, default=15)
    ap.add_argument("--every", type=float, default=2.0,
                    help="seconds between two floor changes (2: a quiet room; 0.5: a busy night)")
    ap.add_argument("--modes", nargs="+", default=["push", "poll"])
    ap.add_argument("--postgres", default="")
    ap.add_argument("--tables", type=int, default=250)
    ap.add_argument("--before", default="", metavar="COMMIT",
                    help="also run COMMIT's push server, each push phase on it first, then on this tree's")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets
    harness.log(f"open files: {soft} -> {hard}")
    backend = "postgresql" if args.postgres else "sqlite"
    prefix = f"roomops:bench:{uuid.uuid4().hex[:8]}"
    with tempfile.TemporaryDirectory() as tmp, \
            harness.fresh_database(backend, Path(tmp), "push", args.postgres) as url:
        spec = roomgen.RoomSpec().scaled(args.tables)
        b = harness.Bench(url, spec, f"{args.tables}-table room")
        slug = "bench"  # roomgen's room
        phases = [(mode, code, n) for n in args.pages for mode in args.modes
                  for code in (("old", "new") if args.before and mode == "push" else ("new",))]
        joins = pick_joins(b, args.changes * len(phases), 21)
        disk = commits(b)
        b.close()
        trees = {"new": harness.ROOT}
        if args.before:
            trees = {"old": harness.old_tree(args.before, Path(tmp) / "old"), **trees}
        servers = start_servers(url, prefix, Path(tmp), trees)
        results: list[Result] = []
        try:
            for code, push_url in servers.push_urls.items():
                harness.log(f"the room published on the {code} push server "
                            f"{wait_published(push_url, slug):.1f} s after the servers answered")
            for k, (mode, code, n) in enumerate(phases):
                harness.log(f"{mode} ({code}), {n} pages, {args.changes} changes")
                results.append(asyncio.run(phase(mode, code, n, servers, slug, b.built.token,
                                                 joins[k * args.changes:(k + 1) * args.changes],
                                                 args.every)))
                report(results[-1:])
        finally:
            servers.stop()
            client = redis.Redis.from_url(REDIS)
            for key in client.scan_iter(f"{prefix}:*"):
                client.delete(key)
        print(f"\n{backend}, {args.tables} tables, one change every {args.every:g} s, "
              f"{args.changes} changes a run; a bare commit on this disk (200, 50 ms apart) "
              f"p50 {p(disk, 0.5):.2f}, p99 {p(disk, 0.99):.1f}, max {max(disk):.1f} ms")
        report(results)
        compare(results)


if __name__ == "__main__":
    main()
