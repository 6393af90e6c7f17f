"""Can players trust the estimated wait (R10-R14, R80)? An evaluation on three simulated rooms.

    .venv/bin/python bench/waits.py [--weeks 5] [--warmup-weeks 1] [--seed 21] [--model NAME] [--json]

Each model simulates a room's games for several weeks, in events: players arrive by hour of the
week, join a game's waiting list and are offered seats in list order (R13, R14) as seated players
leave; some do not answer their call (R22) and the next is called; some give up waiting, found out
when called. The three rooms differ in what the estimator cannot know (docs/waits.md,
"Evaluation"):

- ``evening``: evenings and weekends busier; log-normal sessions, shorter on busy nights; the
  floor opens a table when the list grows long and breaks the emptiest when it runs short; 8-15 %
  no-shows;
- ``afternoon``: an afternoon and Sunday room whose tables run on the floor's schedule, whatever
  the list; heavy-tailed sessions (Lomax: many short, a few all night); 18-20 % no-shows,
  impatient players;
- ``casino``: a late room beside a showroom: players arrive in groups, most after the shows;
  Weibull sessions; tables opened early on demand, slowly broken; 5 % no-shows, patient players.

At each player's joining both estimators see only the history up to that moment, as the service
would read it from the database:

- the model (``roomops.waits.model``: ``fit`` then ``estimate``, the same code the service runs,
  refitted once an hour as the service's cache would), shown as a player sees it
  (``roomops.waits.shown``);
- the naive "places ahead x average time per seat": (ahead + 1) x the waits seen so far divided by
  the seats they waited for, its range half to one and a half times that, shown the same way.

Both are scored on the players who were seated (those who gave up have no real wait) after the
warm-up weeks, for whom both had a figure: the median absolute error of the median shown, and the
share of real waits inside the range shown (``contains``). The warm-up weeks' players are scored
too, against the model alone: the early estimate a new room shows, learning as it goes.
``tests/bench/test_waits_bench.py`` runs it small and checks the targets.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import random
import statistics
import sys
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from roomops.waits.model import MIN_OPENINGS, Estimate, Rates, Tally, estimate, fit, room_prior  # noqa: E402
from roomops.waits.shown import Shown, contains, shown  # noqa: E402

TZ = ZoneInfo("UTC")
START = datetime(2026, 1, 5, tzinfo=UTC)  # a Monday
SEATS = 9
CLAIM_MINUTES = 3.0  # an uncalled-for offer runs out after this (R20)
RANGE = (0.5, 1.5)  # the naive estimates' range, times their figure
RECENT = 10  # the naive estimate's time between seats: the game's last this many seatings
WEEK = 7 * 1440.0
NAMES = ("model", "naive", "average")  # the estimators scored


@dataclass(frozen=True)
class GameSpec:
    name: str
    arrivals: float  # players an hour at the busiest hour
    max_tables: int
    noshow: float  # share of calls not answered


@dataclass(frozen=True)
class RoomModel:
    """What a room is like: its games, when players come, how long they play and wait, and how
    the floor runs its tables (``schedule``: tables by hour of the week as a share of each game's
    most; None: opened when the list reaches ``open_at`` and broken when nobody waits)."""

    name: str
    games: tuple[GameSpec, ...]
    demand: Callable[[int], float]  # arrivals by hour of the week, as a share of the busiest
    session: Callable[[random.Random, int], float]  # a seated player's stay, minutes
    patience: Callable[[random.Random], float]  # minutes a player waits before giving up
    group: Callable[[random.Random], int] = lambda r: 1  # players arriving together
    schedule: Callable[[int], float] | None = None
    open_at: int = 9
    dealer_minutes: float = 20.0  # from the floor deciding to open a table to its first deal
    break_under: int = 5  # a table with fewer players than this may be broken


def _evening_demand(how: int) -> float:
    """Afternoons build to a late-evening peak; Friday and Saturday busiest."""
    day, hour = divmod(how, 24)
    by_hour = (0.35, 0.25, 0.15, 0.08, 0.05, 0.05, 0.05, 0.05, 0.08, 0.1, 0.15, 0.25,
               0.35, 0.45, 0.5, 0.55, 0.6, 0.7, 0.85, 0.95, 1.0, 0.95, 0.8, 0.55)[hour]
    return by_hour * (0.6, 0.65, 0.75, 0.85, 1.0, 1.0, 0.8)[day]


def _evening_session(r: random.Random, how: int) -> float:
    """Log-normal: shorter on busy evenings and late nights, longer in the afternoon."""
    day, hour = divmod(how, 24)
    mean = 140.0 if hour >= 18 or hour < 3 else (240.0 if 10 <= hour < 18 else 180.0)
    mean *= 0.8 if day in (4, 5) else 1.0
    return r.lognormvariate(math.log(mean) - 0.32, 0.8)


def _afternoon_demand(how: int) -> float:
    """A day room: busiest from lunch to early evening, Sunday most of all, quiet after midnight."""
    day, hour = divmod(how, 24)
    by_hour = (0.1, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.05, 0.2, 0.45, 0.7,
               0.9, 1.0, 1.0, 0.95, 0.85, 0.75, 0.6, 0.5, 0.4, 0.3, 0.25, 0.15)[hour]
    return by_hour * (0.7, 0.7, 0.75, 0.75, 0.8, 0.9, 1.0)[day]


def _afternoon_schedule(how: int) -> float:
    """The floor's schedule: one table of each game from 10:00, all from noon to 20:00, half later,
    none from 01:00 to 10:00."""
    hour = how % 24
    return 0.0 if 1 <= hour < 10 else (0.34 if hour < 12 else (1.0 if hour < 20 else 0.5))


def _lomax(r: random.Random, how: int) -> float:
    """Heavy-tailed (Lomax, shape 1.8, mean 150 min): many short stays, a few all night."""
    shape, mean = 1.8, 150.0
    return min(16 * 60.0, mean * (shape - 1) * (r.paretovariate(shape) - 1))


def _casino_demand(how: int) -> float:
    """Beside a showroom: a trickle through the day, the rush after the 22:00 show lets out, and
    Friday and Saturday nights far busier than the rest."""
    day, hour = divmod(how, 24)
    by_hour = (0.8, 0.6, 0.4, 0.25, 0.1, 0.05, 0.05, 0.05, 0.05, 0.05, 0.1, 0.15,
               0.2, 0.2, 0.25, 0.25, 0.3, 0.35, 0.45, 0.5, 0.55, 0.5, 0.6, 1.0)[hour]
    return by_hour * (0.45, 0.45, 0.5, 0.6, 0.8, 1.0, 0.6)[day]


def _weibull(r: random.Random, how: int) -> float:
    """Weibull, shape 0.8 (more very short and very long stays than an exponential), mean 160 min."""
    shape, mean = 0.8, 160.0
    return r.weibullvariate(mean / math.gamma(1 + 1 / shape), shape)


MODELS = {
    "evening": RoomModel(
        "evening", (GameSpec("1/2 NLH", 24.0, 3, 0.10), GameSpec("2/5 NLH", 10.0, 2, 0.08),
                    GameSpec("1/2 PLO", 5.0, 1, 0.15)),
        _evening_demand, _evening_session, lambda r: r.expovariate(1 / 150.0)),
    "afternoon": RoomModel(
        "afternoon", (GameSpec("1/3 NLH", 34.0, 3, 0.18), GameSpec("4/8 Limit", 14.0, 2, 0.20)),
        _afternoon_demand, _lomax, lambda r: r.lognormvariate(math.log(70.0), 0.7),
        schedule=_afternoon_schedule),
    "casino": RoomModel(
        "casino", (GameSpec("1/2 NLH", 20.0, 4, 0.05), GameSpec("2/5 NLH", 8.0, 2, 0.05),
                   GameSpec("5/10 PLO", 3.0, 1, 0.05)),
        _casino_demand, _weibull, lambda r: r.expovariate(1 / 240.0),
        group=lambda r: min(6, 1 + int(r.expovariate(0.8))), open_at=6, dealer_minutes=10.0,
        break_under=3),
}


@dataclass
class Player:
    pid: int
    joined: float
    ahead: int
    shows: bool  # answers a call that comes before their patience runs out
    patience: float
    guesses: dict[str, Shown | None] = field(default_factory=dict)
    seated: float | None = None


@dataclass
class Table:
    seated: set[int] = field(default_factory=set)
    offered: dict[int, float] = field(default_factory=dict)  # pid -> when their seat was called

    def free(self) -> int:
        return SEATS - len(self.seated) - len(self.offered)


@dataclass
class GameState:
    spec: GameSpec
    tables: list[Table] = field(default_factory=list)
    waiting: list[Player] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    seatings: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT + 1))  # the naive's
    waited: float = 0.0  # the average's history: minutes waited by the players seated ...
    seats_waited: int = 0  # ... and the seats they waited for (places ahead + 1)
    last: float = 0.0  # when table-hours were last counted
    opening: bool = False  # a table is being opened (its dealer is on the way)

    def open_seats(self) -> int:
        return sum(t.free() for t in self.tables)


def at(minute: float) -> datetime:
    return START + timedelta(minutes=minute)


def how(minute: float) -> int:
    return int(minute // 60) % 168


class Room:
    """The simulated room: a queue of timed events, handled in order."""

    def __init__(self, model: RoomModel, seed: int, weeks: int, warmup_weeks: int) -> None:
        self.model, self.r = model, random.Random(seed)
        self.end, self.warmup = weeks * WEEK, warmup_weeks * WEEK
        self.games = [GameState(spec) for spec in model.games]
        self.events: list[tuple[float, int, str, tuple[int, ...]]] = []
        self.seq = 0
        self.players: list[Player] = []
        self.rates: dict[tuple[int, int], tuple[Rates, bool]] = {}  # by game and hour: refitted hourly

    def push(self, minute: float, kind: str, *args: int) -> None:
        self.seq += 1
        heapq.heappush(self.events, (minute, self.seq, kind, args))

    def run(self) -> list[Player]:
        for g in range(len(self.games)):
            self.push(self._next_arrival(g, 0.0), "arrive", g)
        if self.model.schedule:
            self.push(0.0, "hour")
        while self.events:
            now, _seq, kind, args = heapq.heappop(self.events)
            if now > self.end:
                break
            getattr(self, kind)(now, *args)
        return self.players

    def _next_arrival(self, g: int, now: float) -> float:
        """Thinning: a Poisson process of groups whose rate follows ``demand`` through the week."""
        peak = self.games[g].spec.arrivals / 60
        while True:
            now += self.r.expovariate(peak)
            if self.r.random() < self.model.demand(how(now)):
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
        for _ in range(self.model.group(self.r)):
            player = Player(len(self.players) + 1, now, len(game.waiting),
                            self.r.random() >= game.spec.noshow, self.model.patience(self.r))
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
        player = self.players[pid - 1]
        called = game.tables[t].offered.pop(pid)
        game.tally.add_offers(1, int(player.shows), called - player.joined)
        if player.shows:
            self._sit(game, t, player, now)
        self._fill(game, now)

    def open_table(self, now: float, g: int) -> None:
        game = self.games[g]
        self._count_tables(game, now)
        game.tables.append(Table())
        game.tally.add_new_table(at(now), TZ, SEATS)
        game.opening = False
        self._fill(game, now)

    def hour(self, now: float) -> None:
        """The floor's schedule: tables opened at the hour, whatever the list; those over it
        broken as their players fit elsewhere."""
        assert self.model.schedule is not None
        for g, game in enumerate(self.games):
            target = round(self.model.schedule(how(now)) * game.spec.max_tables)
            for _ in range(target - len(game.tables)):
                self.open_table(now, g)
            self._break_tables(game, now)
        self.push(now + 60, "hour")

    # ---- the floor ---------------------------------------------------------------------------

    def _sit(self, game: GameState, t: int, player: Player, now: float) -> None:
        game.tables[t].seated.add(player.pid)
        player.seated = now
        game.seatings.append(now)
        game.waited += now - player.joined
        game.seats_waited += player.ahead + 1
        self.push(now + self.model.session(self.r, how(now)), "leave", self.games.index(game), t, player.pid)

    def _fill(self, game: GameState, now: float) -> None:
        """Offer the open seats in list order (R13, R14), the neediest table first; open a table
        when the list is long and no seat is free (unless the tables run on a schedule)."""
        g = self.games.index(game)
        if self.model.schedule is None and len(game.waiting) >= (self.model.open_at if game.tables else 5) \
                and game.open_seats() == 0 and len(game.tables) < game.spec.max_tables and not game.opening:
            game.opening = True
            self.push(now + self.model.dealer_minutes, "open_table", g)
        while game.waiting and game.open_seats() > 0:
            t = min((i for i, tb in enumerate(game.tables) if tb.free() > 0),
                    key=lambda i: len(game.tables[i].seated))
            player = game.waiting.pop(0)
            game.tables[t].offered[player.pid] = now
            player.shows = player.shows and now - player.joined < player.patience
            delay = self.r.uniform(0.5, 2.5) if player.shows else CLAIM_MINUTES
            self.push(now + delay, "answer", g, t, player.pid)

    def _break_tables(self, game: GameState, now: float) -> None:
        """Break the emptiest table when its players fit at the others: on demand when nobody
        waits and it is short, on a schedule when there are more tables than it says."""
        if self.model.schedule is None:
            if len(game.tables) < 2 or game.waiting:
                return
        elif len(game.tables) <= round(self.model.schedule(how(now)) * game.spec.max_tables):
            return  # the last table over the schedule closes once its players have left
        t = min(range(len(game.tables)), key=lambda i: len(game.tables[i].seated))
        table = game.tables[t]
        room_elsewhere = sum(tb.free() for i, tb in enumerate(game.tables) if i != t)
        short = self.model.schedule is not None or len(table.seated) < self.model.break_under
        if table.offered or not short or len(table.seated) > room_elsewhere:
            return
        self._count_tables(game, now)
        self._move_players(game, t, now)

    def _move_players(self, game: GameState, t: int, now: float) -> None:
        movers = list(game.tables.pop(t).seated)
        g = self.games.index(game)
        self.events = [(m, s, k, a) for m, s, k, a in self.events
                       if not (k in ("leave", "answer") and a[0] == g and a[1] >= t)] + [
            (m, s, k, (a[0], a[1] - 1, a[2])) for m, s, k, a in self.events
            if k in ("leave", "answer") and a[0] == g and a[1] > t]
        heapq.heapify(self.events)
        for pid in movers:
            dest = next(i for i, tb in enumerate(game.tables) if tb.free() > 0)
            game.tables[dest].seated.add(pid)
            self.push(now + self.model.session(self.r, how(now)), "leave", g, dest, pid)

    # ---- the two estimators, from the history so far ----------------------------------------

    def _rates(self, g: int, now: float) -> tuple[Rates, bool]:
        """The game's rates and whether the room is early (too little seen: R10), refitted once
        an hour as the service's cache would."""
        key = (g, int(now // 60))
        if key not in self.rates:
            room = Tally()
            for other in self.games:
                room.merge(other.tally)
            self.rates[key] = (fit(self.games[g].tally, room_prior(room)), room.seen < MIN_OPENINGS)
        return self.rates[key]

    def _guess(self, game: GameState, player: Player, now: float) -> None:
        rates, early = self._rates(self.games.index(game), now)
        est = estimate(rates, player.ahead, len(game.tables), game.open_seats(), at(now), TZ, SEATS)
        player.guesses["model"] = None if est is None else shown(replace(est, early=early))
        if len(game.seatings) > RECENT:
            recent = (game.seatings[-1] - game.seatings[0]) / RECENT
            player.guesses["naive"] = _naive((player.ahead + 1) * recent)
        if game.seats_waited:
            player.guesses["average"] = _naive((player.ahead + 1) * game.waited / game.seats_waited)


def _naive(point: float) -> Shown:
    return shown(Estimate(point * RANGE[0], point, point * RANGE[1]))


def score(players: list[Player], name: str) -> dict[str, float]:
    rows = [(s, p.seated - p.joined) for p in players
            if p.seated is not None and (s := p.guesses.get(name)) is not None]
    errors = [abs(s.median - real) for s, real in rows]
    return {"players": len(rows), "median_abs_error_min": statistics.median(errors),
            "mean_abs_error_min": statistics.fmean(errors),
            "inside_range": sum(contains(s, real) for s, real in rows) / len(rows)}


def evaluate(model: RoomModel, weeks: int, warmup_weeks: int, seed: int) -> dict[str, object]:
    everyone = Room(model, seed, weeks, warmup_weeks).run()
    held_out = [p for p in everyone if p.joined >= warmup_weeks * WEEK]
    # both are scored on the same players: those seated, for whom both had a figure
    both = [p for p in held_out if all(p.guesses.get(name) is not None for name in NAMES)]
    first_night = [p for p in everyone if p.joined < 1440]
    m, naive, average = score(both, "model"), score(both, "naive"), score(both, "average")
    waits = [p.seated - p.joined for p in both if p.seated is not None]
    return {
        "model_name": model.name, "weeks": weeks, "warmup_weeks": warmup_weeks, "seed": seed,
        "joined": len(held_out), "median_real_wait_min": statistics.median(waits),
        "model": m, "naive": naive, "average": average,
        "error_ratio": m["median_abs_error_min"] / naive["median_abs_error_min"],
        "behind_somebody": {name: score([p for p in both if p.ahead > 0], name) for name in NAMES},
        "early": {"first_night": score(first_night, "model"),
                  "warmup": score([p for p in everyone if p.joined < warmup_weeks * WEEK], "model")},
    }


def _row(name: str, s: dict[str, float]) -> str:
    return (f"  {name:20} {s['median_abs_error_min']:>9.1f} min {s['mean_abs_error_min']:>9.1f} min "
            f"{s['inside_range']:>8.0%}  ({s['players']:.0f} players)")


def lines(result: dict[str, object]) -> Iterator[str]:
    behind, early = result["behind_somebody"], result["early"]
    assert isinstance(behind, dict) and isinstance(early, dict)
    yield (f"{result['model_name']}: {result['weeks']} weeks (first {result['warmup_weeks']} history "
           f"only), seed {result['seed']}: {result['joined']} players joined, median real wait "
           f"{result['median_real_wait_min']:.1f} min")
    yield f"  {'':20} {'median error':>13} {'mean error':>13} {'inside':>8}"
    for name in NAMES:
        s = result[name]
        assert isinstance(s, dict)
        yield _row(name, s)
    for name in NAMES:
        yield _row(f"{name}, behind some", behind[name])
    yield _row("early: first night", early["first_night"])
    yield _row("early: warm-up", early["warmup"])
    ratio = result["error_ratio"]
    assert isinstance(ratio, float)
    yield f"  the model's median error is {ratio:.0%} of the naive one's ({1 - ratio:.0%} smaller)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weeks", type=int, default=5)
    ap.add_argument("--warmup-weeks", type=int, default=1)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--model", choices=sorted(MODELS), action="append",
                    help="a room model to run (again for more; default: all three)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = [evaluate(MODELS[name], args.weeks, args.warmup_weeks, args.seed)
               for name in args.model or MODELS]
    print(json.dumps(results) if args.json else "\n".join(line for r in results for line in lines(r)))


if __name__ == "__main__":
    main()
