"""Approvals under load on SQLite (issue 40, R28, R61): a cashier's cash-outs, each with a
supervisor's password typed in (Argon2 with production parameters, ~0.1 s a check), sent at once
from ``--clients`` threads to the app served by waitress on loopback, as ``flask serve`` serves it
(8 threads). Bounded: ``--approvals`` requests, each with a 120 s timeout (one that runs out
is counted as status 0). Prints the answers by status, how many were 5xx, and the slowest; exits
1 when any was a 5xx.

    .venv/bin/python bench/approvals_load.py [--approvals 64] [--clients 32]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import waitress  # noqa: E402

from roomops import migrate  # noqa: E402
from roomops.actors import Actor, console  # noqa: E402
from roomops.cli.running import server_options  # noqa: E402
from roomops.config import Settings  # noqa: E402
from roomops.factory import create_app  # noqa: E402
from roomops.games.services import open_game, open_table  # noqa: E402
from roomops.rooms.services import add_player, create_room  # noqa: E402
from roomops.rooms.staff import create_staff, issue_api_token  # noqa: E402
from roomops.seating import seats  # noqa: E402

PASSWORD = "a long bench password nobody guesses"
SEATS = 8  # a table's seats taken, then left


def build(app, approvals: int) -> tuple[str, list[int]]:
    """A room whose ``approvals`` seats were left with 230.00: paying 250.00 needs a supervisor
    (R27). The cashier's API token, and the seats."""
    ext, now = app.extensions["roomops"], app.extensions["roomops"].clock.now()
    with ext.sessions() as s, ext.unit_of_work(s, None, now) as unit:
        room = create_room(s, now, slug="main", name="Main")
        staff = {role: unit.acting(console(room.id)).run(
                     create_staff, username=f"bench-{role}", password=PASSWORD, roles=[role])
                 for role in ("supervisor", "cashier")}
        sup = unit.acting(Actor(room.id, staff["supervisor"].id, "bench-supervisor",
                                frozenset({"supervisor"})))
        game = sup.run(open_game, variant="NL Hold'em", small_blind=100, big_blind=200,
                       min_buyin=10000, max_buyin=40000, seats_per_table=9)
        holds = []
        for t in range(-(-approvals // SEATS)):
            table = sup.run(open_table, game.id, str(t + 1))
            for n in range(1, SEATS + 1):
                player = sup.run(add_player, first_name=f"P{t}-{n}", create_anyway=True)
                holds.append(sup.run(seats.seat_directly, table_id=table.id, seat_no=n,
                                     player_id=player.id, buy_in=20000))
        for hold in holds[:approvals]:
            sup.run(seats.leave, hold.id, 23000)
        token = issue_api_token(s, staff["cashier"], room.id)
        unit.commit()
        return token, [h.id for h in holds[:approvals]]


def cash_out(base: str, token: str, hold_id: int) -> tuple[int, float]:
    body = json.dumps({"hold_id": hold_id, "amount": 25000, "method": "cash", "currency": "GBP",
                       "approval": {"username": "bench-supervisor", "password": PASSWORD}})
    req = urllib.request.Request(f"{base}/api/v1/ledger/cash-outs", data=body.encode(),
                                 headers={"Authorization": f"Bearer {token}",
                                          "Content-Type": "application/json"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=120) as resp:
            status = resp.status
    except urllib.error.HTTPError as err:
        status = err.code
    except TimeoutError:
        status = 0
    return status, time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--approvals", type=int, default=64)
    parser.add_argument("--clients", type=int, default=32)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/load.db"
        migrate.upgrade(url)
        app = create_app(Settings(database_url=url, scheduler="off", secret_key="bench"))
        token, holds = build(app, args.approvals)
        server = waitress.create_server(app, host="127.0.0.1", port=0, threads=8,
                                        **server_options(app.extensions["roomops"].settings))
        threading.Thread(target=server.run, daemon=True).start()
        base = f"http://127.0.0.1:{server.effective_port}"
        t0 = time.perf_counter()
        with ThreadPoolExecutor(args.clients) as pool:
            results = list(pool.map(lambda h: cash_out(base, token, h), holds))
        took = time.perf_counter() - t0
        server.close()
    statuses = Counter(status for status, _ in results)
    failed = sum(n for status, n in statuses.items() if status >= 500)
    print(f"approvals: {len(results)} from {args.clients} clients in {took:.1f} s; "
          f"answers {dict(sorted(statuses.items()))}; 5xx: {failed}; "
          f"slowest {max(t for _, t in results):.2f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
