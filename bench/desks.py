"""Several desks open on one large room: what each floor change costs the server and how long the
last desk waits for its screen.

    .venv/bin/python bench/desks.py                        # the 250-table room, SQLite
    .venv/bin/python bench/desks.py --desks 1 4 8 --changes 10 --tables 120
    .venv/bin/python bench/desks.py --desks 1 8 --tables 25 250 --before 5afebcd   # old, new in turns
    .venv/bin/python bench/desks.py --before 5afebcd --postgres postgresql+psycopg://postgres@127.0.0.1:5432/

Builds the room (bench/roomgen.py) in a fresh database and serves it with ``flask serve`` (no
scheduler) as a process of its own. Each desk is a supervisor's log-in of its own (its session
cookie and CSRF token). ``--changes`` times, a player joins a game's waiting list through the API
(untimed); then every desk re-reads its live part at once, as their staff streams make them
(``GET /desk/fragment`` with the ETag it holds and the games it shows, brotli as Chromium asks):
timed is the wait of the last desk to get its answer, and the server process's CPU (user +
system) from the join's answer to the last desk's. With two desks or more, a second row has the
first desk load its page instead (``GET /desk``), as a supervisor opening the desk beside the
others does: its wait is printed too. The floor beside them: the same desks re-reading while
nothing changed (304s). Issue 21: the cost of a change should not grow with the screens watching
it. ``--before COMMIT`` serves that commit's code (its tree from ``git archive``) beside this
tree's on the same database, and runs each row on the old one, then on the new one (each posting
its joins to itself), with the ratio of their CPU per change (issue 41: it should follow the
change, not the room: compare ``--tables 25 250``). A benchmark, not a test: it prints (exit
status 0); docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import subprocess
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli
import harness
import ops
import roomgen


class Desk:
    """One supervisor's open desk: its cookie, its connection and the ETag it last drew."""

    def __init__(self, host: str, cookie: dict[str, str]) -> None:
        self.conn = http.client.HTTPConnection(host)
        self.headers = {**cookie, "Accept-Encoding": "br"}
        self.etag = ""
        self.shows = ""  # the keys of the games it shows (docs/desk.md, "Only the games that changed")

    def reread(self) -> int:
        self.conn.request("GET", "/desk/fragment", headers={
            **self.headers, "If-None-Match": self.etag, "X-Desk-Shows": self.shows})
        resp = self.conn.getresponse()
        body = resp.read()
        self.etag = resp.headers.get("ETag", self.etag)
        if resp.status == 200:
            self.shown(body, resp.headers.get("Content-Encoding"))
        return resp.status

    def load_page(self) -> int:
        """The desk's page, as a supervisor opens it; the ETag its re-reads send next is the one
        the page names."""
        self.conn.request("GET", "/desk", headers=self.headers)
        resp = self.conn.getresponse()
        page = brotli.decompress(resp.read())
        named = re.search(r'data-etag="([^"]+)"', page.decode())
        self.etag = f'W/"{named.group(1)}"' if named else ""
        self.shown(page, None)
        return resp.status

    def shown(self, body: bytes, encoding: str | None) -> None:
        html = (brotli.decompress(body) if encoding == "br" else body).decode()
        self.shows = " ".join(re.findall(r'data-key="([0-9a-f]+)"', html))


def log_in(host: str, password: str) -> dict[str, str]:
    """The supervisor logged in through the server's ``/login`` as a browser does (its clock, not
    the build's, stamps the session); the session's cookie as a header."""
    conn = http.client.HTTPConnection(host)
    conn.request("GET", "/login")
    page = conn.getresponse()
    cookie = (page.getheader("Set-Cookie") or "").split(";", 1)[0]
    form = urllib.parse.urlencode(harness.login_form(page.read().decode(), password))
    conn.request("POST", "/login", form,
                 {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
    answer = conn.getresponse()
    answer.read()
    if answer.status != 302:
        raise RuntimeError(f"the supervisor's log-in: {answer.status}")
    return {"Cookie": (answer.getheader("Set-Cookie") or cookie).split(";", 1)[0]}


def all_at_once(desks: list[Desk], pool: ThreadPoolExecutor, expect: int, acting: bool = False
                ) -> list[float]:
    """Every desk re-reads at once (with ``acting``, the first loads its page instead: the
    supervisor who made the change); each one's ms to its answer."""
    t0 = time.perf_counter()

    def one(desk: Desk) -> tuple[int, float]:
        status = desk.load_page() if acting and desk is desks[0] else desk.reread()
        return status, (time.perf_counter() - t0) * 1000
    answers = list(pool.map(one, desks))
    if any(status != expect for status, _ms in answers):
        raise RuntimeError(f"the desks' answers: {[a[0] for a in answers]}, not {expect}")
    return [ms for _status, ms in answers]


def run(desks: list[Desk], web: subprocess.Popen[bytes], api: http.client.HTTPConnection,
        auth: dict[str, str], joins: Iterator[tuple[int, int]], changes: int, acting: bool
        ) -> dict[str, list[float]]:
    """``changes`` times: a join, then every desk at once; the last desk's wait, the first's (its
    page when ``acting``), the CPU per change and the floor."""
    out: dict[str, list[float]] = {"last": [], "first": [], "cpu": [], "floor": []}
    with ThreadPoolExecutor(len(desks)) as pool:
        all_at_once(desks, pool, 200)  # each desk draws the room once, as when it opened
        for _ in range(changes):
            out["floor"].append(max(all_at_once(desks, pool, 304)))
            player_id, game_id = next(joins)
            body = json.dumps({"player_id": player_id, "game_id": game_id})
            api.request("POST", "/api/v1/entries", body, auth)
            answer = api.getresponse()
            answer.read()
            if answer.status >= 300:
                raise RuntimeError(f"a join: {answer.status}")
            before = harness.cpu_ms(web.pid)
            waits = all_at_once(desks, pool, 200, acting)
            out["cpu"].append(harness.cpu_ms(web.pid) - before)
            out["last"].append(max(waits))
            out["first"].append(waits[0])
    return out


def report(n: int, acting: bool, figures: dict[str, list[float]], code: str = "") -> str:
    p50 = {k: statistics.median(v) for k, v in figures.items()}
    who = f"{code}{n:>2} desk{'s' if n > 1 else ' '}" + (", one loading its page:" if acting else ":")
    page = f"   the page p50 {p50['first']:5.0f} ms" if acting else ""
    return (f"{who:<37} last desk's answer p50 {p50['last']:5.0f} ms (max {max(figures['last']):5.0f})"
            f"{page}   server CPU per change p50 {p50['cpu']:5.0f} ms   floor (304s) p50 "
            f"{p50['floor']:4.0f} ms")


class Served:
    """One web process serving the room (``code``: "new", this tree; "old", ``--before``'s), with
    its API connection and the supervisors' log-ins."""

    def __init__(self, code: str, tree: Path, url: str, tmp: Path, password: str, desks: int) -> None:
        self.code, port = code, harness.free_port()
        (tmp / code).mkdir(exist_ok=True)
        self.web = harness.flask_process("serve", port, url, tmp / code, subprocess.DEVNULL, tree)
        self.host = f"127.0.0.1:{port}"
        harness.wait_http(f"http://{self.host}/health")
        self.api = http.client.HTTPConnection(self.host)
        self.cookies = [log_in(self.host, password) for _ in range(desks)]

    def close(self) -> None:
        self.web.terminate()
        self.web.wait(10)


def one_room(args: argparse.Namespace, tables: int, tmp: Path) -> None:
    """The room of ``tables`` built in a fresh database, served by each code; every row of
    desks run on each code in turn (old, then new), the ratios printed after."""
    backend = "postgresql" if args.postgres else "sqlite"
    with harness.fresh_database(backend, tmp, f"desks{tables}", args.postgres) as url:
        b = harness.Bench(url, roomgen.RoomSpec().scaled(tables), f"{tables}-table room")
        password = b.supervisor_password()
        token, joins = b.built.token, ops.fresh_joins(b)
        b.close()
        trees = {"old": harness.old_tree(args.before, tmp / "old-tree")} if args.before else {}
        served = [Served(code, tree, url, tmp, password, max(args.desks))
                  for code, tree in {**trees, "new": harness.ROOT}.items()]
        try:
            auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
            print(f"\n{tables}-table room, {backend}, flask serve, {time.strftime('%Y-%m-%d %H:%M %Z')}"
                  f"{f', {args.before} (old) and this tree (new) in turns' if args.before else ''}:"
                  " after each change every desk re-reads its screen at once", flush=True)
            for n in args.desks:
                for acting in (False, True) if n > 1 else (False,):
                    cpu = {}
                    for s in served:
                        figures = run([Desk(s.host, c) for c in s.cookies[:n]], s.web, s.api, auth, joins,
                                      args.changes, acting)
                        cpu[s.code] = statistics.median(figures["cpu"])
                        print(report(n, acting, figures, f"{s.code:>3}: " if args.before else ""), flush=True)
                    if args.before:
                        print(f"     new / old server CPU per change: {cpu['new'] / cpu['old']:.2f}x",
                              flush=True)
        finally:
            for s in served:
                s.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, nargs="+", default=[250])
    ap.add_argument("--changes", type=int, default=8)
    ap.add_argument("--desks", type=int, nargs="+", default=[1, 4, 8])
    ap.add_argument("--before", default="", metavar="COMMIT",
                    help="also serve COMMIT's code (git archive) on the same database, in turns")
    ap.add_argument("--postgres", default="", metavar="URL",
                    help="PostgreSQL server to build the rooms on (a private database each), not SQLite")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for tables in args.tables:
            one_room(args, tables, Path(tmp))


if __name__ == "__main__":
    main()
