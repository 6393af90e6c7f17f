"""How good is the estimated wait (issue 21, R10, R13, R14)? An evaluation on simulated room histories.

    .venv/bin/python bench/waits.py [--weeks 6] [--warmup-weeks 1] [--seed 21] [--json]

Simulates a room of three games for several weeks, minute by minute in events: players arrive by
hour of the week (evenings and weekends busier), join a game's waiting list and are offered seats
in list order (R13, R14) as seated players leave, whose sessions are shorter on busy nights; some
do not show up for their call (R22) and the next is called; the floor opens a table when the list
grows long and breaks the emptiest table when it runs short and its players fit elsewhere.

At each player's joining (after the warm-up weeks) both estimators see only the history up to that
moment, as the service would read it from the database (seats opened, table-hours run, offers
made and claimed, and for the naive one the waits seen so far):

- the model (``roomops.waits.model``: ``fit`` then ``estimate``, the same code the service runs);
- the naive "places ahead x average time per seat": (ahead + 1) x the waits seen so far divided by
  the seats they waited for (places ahead + 1, summed), with a range of half to one and a half
  times that.

For the players who were seated it reports each estimator's median absolute error, the share of
real waits inside its range, and by how much the model beats the naive one. Prints figures; the
test ``tests/bench/test_waits_bench.py`` runs it small and checks the model wins.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import random
import statistics
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from roomops.waits.model import Rates, Tally, estimate, fit, room_prior  # noqa: E402

TZ = ZoneInfo("UTC")
START = datetime(2026, 1, 5, tzinfo=UTC)  # a Monday
SEATS = 9
CLAIM_MINUTES = 3.0  # an uncalled-for offer runs out after this (R20)
OPEN_AT = 9  # the floor opens a table when this many wait and no seat is open
RANGE = (0.5, 1.5)  # the naive estimate's range, times its figure


@dataclass(frozen=True)
class GameSpec:
    name: str
    arrivals: float  # players an hour at the busiest hour
    max_tables: int
    noshow: float  # share of calls not answered


GAMES = (GameSpec("1/2 NLH", 24.0, 3, 0.10), GameSpec("2/5 NLH", 10.0, 2, 0.08),
         GameSpec("1/2 PLO", 5.0, 1, 0.15))
DEALER_MINUTES = 20.0  # from the floor deciding to open a table to its first deal
PATIENCE_MINUTES = 150.0  # mean time a player waits before giving up (called later, they are gone)


def demand(how: int) -> float:
    """Arrivals through the week, as a share of the busiest hour: afternoons build to a late evening
    peak; Friday and Saturday busiest, Monday and Tuesday quietest."""
    day, hour = divmod(how, 24)
    by_hour = (0.35, 0.25, 0.15, 0.08, 0.05, 0.05, 0.05, 0.05, 0.08, 0.1, 0.15, 0.25,
               0.35, 0.45, 0.5, 0.55, 0.6, 0.7, 0.85, 0.95, 1.0, 0.95, 0.8, 0.55)[hour]
    return by_hour * (0.6, 0.65, 0.75, 0.85, 1.0, 1.0, 0.8)[day]


def session_minutes(r: random.Random, how: int) -> float:
    """A seated player's stay: shorter on busy evenings and late nights, longer in the afternoon."""
    day, hour = divmod(how, 24)
    mean = 140.0 if hour >= 18 or hour < 3 else (240.0 if 10 <= hour < 18 else 180.0)
    mean *= 0.8 if day in (4, 5) else 1.0
    return r.lognormvariate(math.log(mean) - 0.32, 0.8)


@dataclass
class Player:
    pid: int
    joined: float
    ahead: int
    shows: bool  # answers a call that comes before their patience runs out
    patience: float
    guesses: dict[str, tuple[float, float, float] | None] = field(default_factory=dict)
    seated: float | None = None


@dataclass
class Table:
    seated: set[int] = field(default_factory=set)
    offered: dict[int, float] = field(default_factory=dict)  # pid -> when their seat was called
    opened: float = 0.0


@dataclass
class GameState:
    spec: GameSpec
    tables: list[Table] = field(default_factory=list)
    waiting: list[Player] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    waited: float = 0.0  # the naive's history: minutes waited by the players seated ...
    seats_waited: int = 0  # ... and the seats they waited for (places ahead + 1)
    last: float = 0.0  # when table-hours were last counted
    opening: bool = False  # a table is being opened (its dealer is on the way)

    def open_seats(self) -> int:
        return sum(SEATS - len(t.seated) - len(t.offered) for t in self.tables)


def at(minute: float) -> datetime:
    return START + timedelta(minutes=minute)


class Room:
    """The simulated room: a queue of timed events, handled in order."""

    def __init__(self, seed: int, weeks: int, warmup_weeks: int) -> None:
        self.r = random.Random(seed)
        self.end, self.warmup = weeks * 7 * 1440.0, warmup_weeks * 7 * 1440.0
        self.games = [GameState(spec) for spec in GAMES]
        self.events: list[tuple[float, int, str, tuple[int, ...]]] = []
        self.seq = 0
        self.pid = 0
        self.players: list[Player] = []
        self.rates: dict[tuple[int, int], Rates] = {}  # by game and hour: refitted once an hour

    def push(self, minute: float, kind: str, *args: int) -> None:
        self.seq += 1
        heapq.heappush(self.events, (minute, self.seq, kind, args))

    def run(self) -> list[Player]:
        for g in range(len(self.games)):
            self.push(self._next_arrival(g, 0.0), "arrive", g)
        while self.events:
            now, _seq, kind, args = heapq.heappop(self.events)
            if now > self.end:
                break
            getattr(self, kind)(now, *args)
        return [p for p in self.players if p.joined >= self.warmup]

    def _next_arrival(self, g: int, now: float) -> float:
        """Thinning: a Poisson process whose rate follows ``demand`` through the week."""
        peak = self.games[g].spec.arrivals / 60
        while True:
            now += self.r.expovariate(peak)
            if self.r.random() < demand(int(now // 60) % 168):
                return now

    def _count_tables(self, game: GameState, now: float) -> None:
        """The table-hours run and player-hours seated since last counted, into the history."""
        if game.tables and now > game.last:
            game.tally.add_tables(at(game.last), at(now), TZ, len(game.tables))
            game.tally.add_seated(at(game.last), at(now), TZ, sum(len(t.seated) for t in game.tables))
        game.last = now

    # ---- events ------------------------------------------------------------------------------

    def arrive(self, now: float, g: int) -> None:
        game = self.games[g]
        self._count_tables(game, now)
        self.pid += 1
        player = Player(self.pid, now, len(game.waiting), self.r.random() >= game.spec.noshow,
                        self.r.expovariate(1 / PATIENCE_MINUTES))
        if now >= self.warmup:
            self._guess(game, player, now)
        self.players.append(player)
        game.waiting.append(player)
        self._fill(game, now)
        self.push(self._next_arrival(g, now), "arrive", g)

    def leave(self, now: float, g: int, t: int, pid: int) -> None:
        game = self.games[g]
        self._count_tables(game, now)
        table = game.tables[t] if t < len(game.tables) else None
        if table is None or pid not in table.seated:
            return  # moved when their table broke; their new seat's leave event is queued
        table.seated.discard(pid)
        game.tally.add_left(at(now), TZ)
        self._break_tables(game, now)
        self._fill(game, now)

    def answer(self, now: float, g: int, t: int, pid: int) -> None:
        """A called player comes to the seat, or their call runs out (R22)."""
        game = self.games[g]
        self._count_tables(game, now)
        table = game.tables[t]
        player = self.players[pid - 1]
        called = table.offered.pop(pid)
        game.tally.add_offers(1, int(player.shows), called - player.joined)
        if player.shows:
            self._sit(game, t, player, now)
        self._fill(game, now)

    def open_table(self, now: float, g: int) -> None:
        game = self.games[g]
        self._count_tables(game, now)
        game.tables.append(Table(opened=now))
        game.tally.add_new_table(at(now), TZ, SEATS)
        game.opening = False
        self._fill(game, now)

    # ---- the floor ---------------------------------------------------------------------------

    def _sit(self, game: GameState, t: int, player: Player, now: float) -> None:
        game.tables[t].seated.add(player.pid)
        player.seated = now
        game.waited += now - player.joined
        game.seats_waited += player.ahead + 1
        g = self.games.index(game)
        self.push(now + session_minutes(self.r, int(now // 60) % 168), "leave", g, t, player.pid)

    def _fill(self, game: GameState, now: float) -> None:
        """Offer the open seats in list order (R13, R14), the neediest table first; open a table
        when the list is long and no seat is free."""
        g = self.games.index(game)
        if len(game.waiting) >= (OPEN_AT if game.tables else 5) and game.open_seats() == 0 \
                and len(game.tables) < game.spec.max_tables and not game.opening:
            game.opening = True
            self.push(now + DEALER_MINUTES, "open_table", g)
        while game.waiting and game.open_seats() > 0:
            t = min((i for i, tb in enumerate(game.tables) if SEATS - len(tb.seated) - len(tb.offered) > 0),
                    key=lambda i: len(game.tables[i].seated))
            player = game.waiting.pop(0)
            game.tables[t].offered[player.pid] = now
            player.shows = player.shows and now - player.joined < player.patience
            delay = self.r.uniform(0.5, 2.5) if player.shows else CLAIM_MINUTES
            self.push(now + delay, "answer", g, t, player.pid)

    def _break_tables(self, game: GameState, now: float) -> None:
        """Break the emptiest table when nobody waits and its players fit at the others (not seats
        opening: they move)."""
        if len(game.tables) < 2 or game.waiting:
            return
        t = min(range(len(game.tables)), key=lambda i: len(game.tables[i].seated))
        table = game.tables[t]
        room_elsewhere = sum(SEATS - len(tb.seated) - len(tb.offered)
                             for i, tb in enumerate(game.tables) if i != t)
        if table.offered or len(table.seated) > 4 or len(table.seated) > room_elsewhere:
            return
        self._count_tables(game, now)
        movers = list(table.seated)
        game.tables.pop(t)
        g = self.games.index(game)
        self.events = [(m, s, k, a) for m, s, k, a in self.events
                       if not (k in ("leave", "answer") and a[0] == g and a[1] >= t)] + [
            (m, s, k, (a[0], a[1] - 1, a[2])) for m, s, k, a in self.events
            if k in ("leave", "answer") and a[0] == g and a[1] > t]
        heapq.heapify(self.events)
        for pid in movers:
            dest = next(i for i, tb in enumerate(game.tables) if SEATS - len(tb.seated) - len(tb.offered) > 0)
            game.tables[dest].seated.add(pid)
            self.push(now + session_minutes(self.r, int(now // 60) % 168), "leave", g, dest, pid)

    # ---- the two estimators, from the history so far ----------------------------------------

    def _guess(self, game: GameState, player: Player, now: float) -> None:
        hour = int(now // 60)
        g = self.games.index(game)
        rates = self.rates.get((g, hour))
        if rates is None:  # refitted once an hour, as the service's cache would
            room = Tally()
            for other in self.games:
                room.merge(other.tally)
            rates = self.rates[(g, hour)] = fit(game.tally, room_prior(room))
        est = estimate(rates, player.ahead, len(game.tables), game.open_seats(), at(now), TZ, SEATS)
        player.guesses["model"] = None if est is None else (est.low, est.median, est.high)
        if game.seats_waited:
            per_seat = game.waited / game.seats_waited
            point = (player.ahead + 1) * per_seat
            player.guesses["naive"] = (point * RANGE[0], point, point * RANGE[1])


def score(players: list[Player], name: str) -> dict[str, float]:
    rows = [(p.guesses[name], p.seated - p.joined) for p in players
            if p.seated is not None and p.guesses.get(name) is not None]
    errors = [abs(g[1] - real) for g, real in rows if g is not None]
    inside = [g[0] <= real <= g[2] for g, real in rows if g is not None]
    return {"players": len(rows), "median_abs_error_min": statistics.median(errors),
            "mean_abs_error_min": statistics.fmean(errors), "inside_range": sum(inside) / len(inside)}


def evaluate(weeks: int, warmup_weeks: int, seed: int) -> dict[str, object]:
    players = Room(seed, weeks, warmup_weeks).run()
    # both are scored on the same players: those seated, for whom the model had a figure
    both = [p for p in players if p.guesses.get("model") is not None and p.guesses.get("naive") is not None]
    model, naive = score(both, "model"), score(both, "naive")
    queued = [p for p in both if p.ahead > 0]  # those who joined behind somebody
    waits = [p.seated - p.joined for p in both if p.seated is not None]
    return {
        "weeks": weeks, "warmup_weeks": warmup_weeks, "seed": seed, "joined": len(players),
        "no_table_running": sum(1 for p in players if "model" in p.guesses and p.guesses["model"] is None),
        "median_real_wait_min": statistics.median(waits), "model": model, "naive": naive,
        "error_ratio": model["median_abs_error_min"] / naive["median_abs_error_min"],
        "behind_somebody": {"model": score(queued, "model"), "naive": score(queued, "naive")},
    }


def lines(result: dict[str, object]) -> Iterator[str]:
    model, naive = result["model"], result["naive"]
    assert isinstance(model, dict) and isinstance(naive, dict)
    yield (f"{result['weeks']} weeks (first {result['warmup_weeks']} history only), seed {result['seed']}: "
           f"{result['joined']} players joined, {model['players']} seated and scored, "
           f"median real wait {result['median_real_wait_min']:.1f} min")
    yield f"{'':8} {'median abs error':>17} {'mean abs error':>15} {'inside range':>13}"
    for name, s in (("model", model), ("naive", naive)):
        yield (f"{name:8} {s['median_abs_error_min']:>13.1f} min {s['mean_abs_error_min']:>11.1f} min "
               f"{s['inside_range']:>12.0%}")
    behind = result["behind_somebody"]
    assert isinstance(behind, dict)
    yield f"those who joined behind somebody ({behind['model']['players']}):"
    for name in ("model", "naive"):
        s = behind[name]
        yield (f"{name:8} {s['median_abs_error_min']:>13.1f} min {s['mean_abs_error_min']:>11.1f} min "
               f"{s['inside_range']:>12.0%}")
    ratio = result["error_ratio"]
    assert isinstance(ratio, float)
    yield f"the model's median absolute error is {ratio:.0%} of the naive one's ({1 - ratio:.0%} smaller)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weeks", type=int, default=6)
    ap.add_argument("--warmup-weeks", type=int, default=1)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    result = evaluate(args.weeks, args.warmup_weeks, args.seed)
    print(json.dumps(result) if args.json else "\n".join(lines(result)))


if __name__ == "__main__":
    main()
