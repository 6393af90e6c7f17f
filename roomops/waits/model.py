"""How long a waiting player will wait (R10, R13, R14): a model that learns from the room's history.

Plain Python (no Flask, no SQLAlchemy); ``roomops.waits.services`` feeds it the database's rows and
``bench/waits.py`` a simulated room's. docs/waits.md states its assumptions and its evaluation.

- **What it learns** (``Tally`` -> ``fit``), for each of the week's 168 hours in the room's time
  zone: how often a seated player leaves (per player-hour seated) and how many seats new tables
  bring (per table-hour run), each shrunk towards the same hour of the day over the whole week,
  that towards the game's overall rate, that towards the room's (``room_prior``): an hour with
  little history borrows from the wider one, so a quiet hour or a new game still gets a figure.
  And the share of calls answered (R20, R22), falling the longer the player has waited
  (``Rates.show_at``: players give up).
- **What it predicts** (``estimate``): with somebody waiting the tables are full, so seats open as
  a Poisson process at the fitted rate of each coming hour times the tables running now (the rate
  itself uncertain: a log-normal factor). A player with ``ahead`` entries before them (R13; the
  reserve lists, R11/R14) needs one seat for each of those who answer (binomial) and one for
  themself, less the seats open now. The wait is the time that takes: its 10th, 50th and 90th
  percentiles, plus the walk to the seat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache, lru_cache
from statistics import NormalDist
from typing import NamedTuple
from zoneinfo import ZoneInfo

HOURS = 168  # hours of the week
PSEUDO_HOURS = 12.0  # table-hours of the wider rate each narrower rate is shrunk with (half a day:
# a new room's first tables, opened moments before the estimate, must not read as a flood of seats)
PSEUDO_SEAT_HOURS = 27.0  # and player-hours (three full tables' hour)
PRIOR_OFFERS = 10.0  # offers of the prior show rate the learned one is shrunk with
PRIOR_SHOW = 0.85  # share of offers claimed in a room with no history yet
CALL_BUCKET = 15  # minutes: offers are counted by how long their player had waited, in these steps
CALL_BUCKETS = 9  # the last one takes every longer wait (counted at its start plus half a step)
PATIENCES = (30.0, 45.0, 60.0, 90.0, 120.0, 180.0, 240.0, 360.0, 600.0, math.inf)  # minutes, tried
MIN_CALLS = 30  # a game with fewer offers takes the room's patience
DEFAULT_LEAVE = 0.3  # seated players leaving per player-hour in a room with no history yet
DEFAULT_NEW = 0.2  # new tables' seats per table-hour in a room with no history yet
MIN_OPENINGS = 30  # a room with fewer seats opened shows an early estimate, from priors
QUANTILES = (0.1, 0.5, 0.9)
HORIZON_HOURS = 48  # an estimate never looks further ahead than this
SPREAD = 0.35  # how far the coming hours' rate may stray from the fitted one (log-normal sigma)
SIT_MINUTES = (0.0, 1.0, 3.0)  # from a seat's call to sitting in it: added to (low, median, high)
EXACT_UP_TO = 30  # seats needed: exact gamma below, Wilson-Hilferty's approximation above
_HOUR = timedelta(hours=1)
_WEEK = timedelta(weeks=1)
# The rate's factor at equal-probability points of its log-normal spread (mean 1).
_FACTORS = tuple(math.exp(SPREAD * NormalDist().inv_cdf((i + 0.5) / 5) - SPREAD ** 2 / 2) for i in range(5))


def hour_of_week(at: datetime, tz: ZoneInfo) -> int:
    """0 is Monday 00:00-01:00 in the room's time zone."""
    local = at.astimezone(tz)
    return local.weekday() * 24 + local.hour


def _spread(buckets: list[float], start: datetime, end: datetime, tz: ZoneInfo, weight: float) -> None:
    """``weight`` times the hours from ``start`` to ``end`` into each hour of the week they cross
    (whole weeks at once: a table open for months costs no more than one open for a week)."""
    weeks = int((end - start) / _WEEK)
    if weeks:
        buckets[:] = [x + weight * weeks for x in buckets]
        start += weeks * _WEEK
    at = start
    while at < end:
        step = min(end, at.replace(minute=0, second=0, microsecond=0) + _HOUR)
        buckets[hour_of_week(at, tz)] += weight * (step - at).total_seconds() / 3600
        at = step


def _zeros() -> list[float]:
    return [0.0] * HOURS


@dataclass
class Tally:
    """One game's history as counts in each hour of the week: seats a seated player left
    (``left``) and the player-hours seated (``seat_hours``); seats of newly opened tables
    (``new_seats``) and the table-hours run (``table_hours``); and offers made and claimed."""

    left: list[float] = field(default_factory=_zeros)
    seat_hours: list[float] = field(default_factory=_zeros)
    new_seats: list[float] = field(default_factory=_zeros)
    table_hours: list[float] = field(default_factory=_zeros)
    called: list[float] = field(default_factory=lambda: [0.0] * CALL_BUCKETS)  # offers made ...
    answered: list[float] = field(default_factory=lambda: [0.0] * CALL_BUCKETS)  # ... and claimed

    def add_left(self, at: datetime, tz: ZoneInfo, n: int = 1) -> None:
        self.left[hour_of_week(at, tz)] += n

    def add_new_table(self, at: datetime, tz: ZoneInfo, seats: int) -> None:
        self.new_seats[hour_of_week(at, tz)] += seats

    def add_seated(self, start: datetime, end: datetime, tz: ZoneInfo, players: float = 1) -> None:
        _spread(self.seat_hours, start, end, tz, players)

    def add_tables(self, start: datetime, end: datetime, tz: ZoneInfo, tables: float = 1) -> None:
        _spread(self.table_hours, start, end, tz, tables)

    def add_seated_counts(self, since: datetime, now: datetime, tz: ZoneInfo, live: int,
                          moves: dict[datetime, int]) -> None:
        """Player-hours seated from ``since`` to ``now``, rebuilt from ``live`` players seated at
        ``since`` and, by hour (its start), how many sat down less how many left: each hour counts
        those seated at its start and half of its change (they came and went through it)."""
        seated = float(live)
        at = since
        while at < now:
            hour = at.replace(minute=0, second=0, microsecond=0)
            step = min(now, hour + _HOUR)
            change = moves.get(hour, 0)
            self.seat_hours[hour_of_week(at, tz)] += max(0.0, seated + change / 2) * (
                step - at).total_seconds() / 3600
            seated += change
            at = step

    def add_offers(self, offers: int, claimed: int, waited: float = 0.0) -> None:
        """``offers`` made to players who had waited ``waited`` minutes, ``claimed`` of them."""
        bucket = min(CALL_BUCKETS - 1, int(waited // CALL_BUCKET))
        self.called[bucket] += offers
        self.answered[bucket] += claimed

    @property
    def offers(self) -> int:
        return round(sum(self.called))

    @property
    def claimed(self) -> int:
        return round(sum(self.answered))

    def merge(self, other: Tally) -> None:
        for mine, theirs in ((self.left, other.left), (self.seat_hours, other.seat_hours),
                             (self.new_seats, other.new_seats), (self.table_hours, other.table_hours),
                             (self.called, other.called), (self.answered, other.answered)):
            mine[:] = [a + b for a, b in zip(mine, theirs, strict=True)]

    @property
    def seen(self) -> int:
        """Seats seen to open by a player leaving."""
        return round(sum(self.left))


@dataclass(frozen=True)
class Prior:
    """What a game with no history of its own assumes: the room's figures (``room_prior``)."""

    leave: float = DEFAULT_LEAVE
    new: float = DEFAULT_NEW
    show: float = PRIOR_SHOW
    patience: float = math.inf


@dataclass(frozen=True)
class Rates:
    """Fitted, for each hour of the week: how often a seated player leaves (per player-hour) and
    how many new tables' seats open per table running (per table-hour); and the share of offers
    claimed by a player who has just joined (``show``), falling the longer they wait (players give
    up: ``show_at``)."""

    leave: tuple[float, ...]
    new: tuple[float, ...]
    show: float
    patience: float = math.inf  # minutes: the share claimed falls by e in this time

    def show_at(self, waited: float) -> float:
        """The share of offers claimed by players who have waited ``waited`` minutes."""
        return self.show * math.exp(-waited / self.patience)

    def per_table(self, how: int, seats: int) -> float:
        """Seats opening per hour at a full table of ``seats`` (full: somebody is waiting)."""
        return seats * self.leave[how] + self.new[how]


@dataclass(frozen=True)
class Estimate:
    """Minutes to wait: ``low`` and ``high`` the 10th and 90th percentiles, ``median`` the 50th."""

    low: float
    median: float
    high: float
    early: bool = False  # from priors: the room has seen fewer than ``MIN_OPENINGS`` seats open


def _shrunk(count: float, hours: float, wider: float, pseudo: float) -> float:
    return (count + pseudo * wider) / (hours + pseudo)


def _by_hour(counts: list[float], hours: list[float], overall: float, pseudo: float) -> tuple[float, ...]:
    """Each hour of the week's rate shrunk towards its hour of the day's over the whole week, that
    towards ``overall``: an hour with little history borrows from the wider one."""
    by_day_hour = [_shrunk(sum(counts[h::24]), sum(hours[h::24]), overall, pseudo) for h in range(24)]
    return tuple(_shrunk(counts[i], hours[i], by_day_hour[i % 24], pseudo) for i in range(HOURS))


def _waited(bucket: int) -> float:
    return (bucket + 0.5) * CALL_BUCKET


def _fit_show(tally: Tally, prior: Prior) -> tuple[float, float]:
    """(show, patience): the share claimed at no wait and the minutes it takes to fall by e, the
    pair most likely to give the offers claimed at each wait (patience from ``PATIENCES``, no
    decay first, so it wins a tie; the prior's with fewer than ``MIN_CALLS`` offers), the share
    then shrunk towards the prior's."""
    tried = PATIENCES[::-1] if tally.offers >= MIN_CALLS else (prior.patience,)
    best = (-math.inf, prior.patience, 1.0)  # (how likely, patience, the offers' reach at it)
    for patience in tried:
        decay = [math.exp(-_waited(b) / patience) for b in range(CALL_BUCKETS)]
        reach = sum(c * d for c, d in zip(tally.called, decay, strict=True))
        show = min(0.999, sum(tally.answered) / reach) if reach else prior.show
        likely = sum(a * math.log(max(show * d, 1e-9)) + (c - a) * math.log(max(1 - show * d, 1e-9))
                     for c, a, d in zip(tally.called, tally.answered, decay, strict=True))
        if likely > best[0] + 1e-9:
            best = (likely, patience, reach)
    _likely, patience, reach = best
    return min(0.999, _shrunk(sum(tally.answered), reach, prior.show, PRIOR_OFFERS)), patience


def room_prior(room: Tally) -> Prior:
    """The room's overall figures (all its games' tallies merged), shrunk towards the defaults."""
    show, patience = _fit_show(room, Prior())
    return Prior(_shrunk(sum(room.left), sum(room.seat_hours), DEFAULT_LEAVE, PSEUDO_SEAT_HOURS),
                 _shrunk(sum(room.new_seats), sum(room.table_hours), DEFAULT_NEW, PSEUDO_HOURS),
                 show, patience)


def fit(tally: Tally, prior: Prior | None = None) -> Rates:
    """Each hour of the week's rates, shrunk towards the hour of the day's, those towards the
    game's overall rate, that towards ``prior`` (the room's, ``room_prior``)."""
    prior = prior or Prior()
    leave = _shrunk(sum(tally.left), sum(tally.seat_hours), prior.leave, PSEUDO_SEAT_HOURS)
    new = _shrunk(sum(tally.new_seats), sum(tally.table_hours), prior.new, PSEUDO_HOURS)
    return Rates(_by_hour(tally.left, tally.seat_hours, leave, PSEUDO_SEAT_HOURS),
                 _by_hour(tally.new_seats, tally.table_hours, new, PSEUDO_HOURS),
                 *_fit_show(tally, prior))


def estimate(rates: Rates, ahead: int, tables: int, open_now: int, now: datetime, tz: ZoneInfo,
             seats: int = 9) -> Estimate | None:
    """The wait of a player with ``ahead`` entries before them, ``tables`` tables of ``seats``
    running and ``open_now`` seats open now; None with no table running (when one opens is the
    desk's call)."""
    if tables <= 0:
        return None
    if ahead + 1 <= open_now:
        return Estimate(*SIT_MINUTES)
    mass = _Mass(_hourly_mass(rates, tables, seats, now, tz))

    @cache  # the three quantiles' searches ask for the same first points
    def seated_by(minutes: float) -> float:
        needed = _needed(ahead, round(rates.show_at(minutes), 3), open_now)
        m = mass(minutes)
        return sum(_seated_by(needed, m * f) for f in _FACTORS) / len(_FACTORS)
    low, median, high = (_quantile(seated_by, q) + sit for q, sit in zip(QUANTILES, SIT_MINUTES, strict=True))
    return Estimate(low, median, high)


FIRST_MINUTES = 15.0  # where a quantile's search starts, doubling
# a quarter of a minute, or a hundredth of the wait: the board shows five-minute steps
# (``minutes_text``), the public feed whole minutes
PRECISION_MINUTES, PRECISION_SHARE = 0.25, 0.01


def _quantile(cdf: Callable[[float], float], q: float) -> float:
    """The minutes by which ``cdf`` reaches ``q`` (the horizon at most): doubling from
    ``FIRST_MINUTES`` until it does, then halving the last step to the precision. Each point
    costs the whole model (the board's estimate after every change to a list): an hour's wait
    takes ~10 points, where bisecting the 48-hour horizon took 17."""
    lo, hi, horizon = 0.0, FIRST_MINUTES, HORIZON_HOURS * 60.0
    while cdf(hi) < q:
        if hi >= horizon:
            return horizon
        lo, hi = hi, min(2 * hi, horizon)
    while hi - lo > max(PRECISION_MINUTES, hi * PRECISION_SHARE):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < q else (lo, mid)
    return hi


class _Mass:
    """The openings expected from now to a number of minutes ahead, from the hourly stretches."""

    def __init__(self, hours: list[tuple[float, float]]) -> None:
        self.hours = hours

    def __call__(self, minutes: float) -> float:
        left, total = minutes / 60, 0.0
        for span, m in self.hours:
            if left <= span:
                return total + m * left / span
            total += m
            left -= span
        return total


class _Needed(NamedTuple):
    """Seats still to open before the player's (``_needed``), by how ``_seated_by`` weighs them:
    the chance none is needed; (n, p) for the few counted exactly; and for the many, p with the
    constants of Wilson-Hilferty's approximation for their n, worked out once."""

    settled: float
    exact: tuple[tuple[int, float], ...]
    approximate: tuple[tuple[float, float, float, float], ...]  # p, n ** -1/3, 1 - 1/9n, sqrt(9n/2)


@lru_cache(maxsize=8192)
def _needed(ahead: int, show: float, open_now: int) -> _Needed:
    """Seats still to open before the player's, with their probabilities: one for each player
    ahead who shows up (binomial), one for the player, less those open now; at or below 0 merged.
    Kept by its arguments (``show`` to the thousandth): the estimate asks for the same ones again
    and again."""
    out: dict[int, float] = {}
    for shows, p in _binomial(ahead, show):
        n = max(0, shows + 1 - open_now)
        out[n] = out.get(n, 0.0) + p
    settled, needed = out.pop(0, 0.0), sorted(out.items())
    return _Needed(settled, tuple((n, p) for n, p in needed if n <= EXACT_UP_TO),
                   tuple((p, n ** (-1 / 3), 1 - 1 / (9 * n), math.sqrt(4.5 * n))
                         for n, p in needed if n > EXACT_UP_TO))


@lru_cache(maxsize=8192)
def _binomial(n: int, p: float) -> tuple[tuple[int, float], ...]:
    """(k, P(k of n)) for the k whose chance is not negligible, in logs so a long list does not
    underflow; kept by ``n`` and ``p`` to the thousandth (the estimate asks for the same ones
    again and again)."""
    p = min(max(p, 1e-9), 1 - 1e-9)
    lp, lq, top = math.log(p), math.log1p(-p), math.lgamma(n + 1)
    terms = ((k, math.exp(top - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq))
             for k in range(n + 1))
    return tuple((k, q) for k, q in terms if q > 1e-9)


def _seated_by(needed: _Needed, m: float) -> float:
    """P(the seats needed have opened by the time ``m`` openings are expected): for each count
    n, the n-th event of a unit-rate Poisson process has come by ``m``; exact (one running sum of
    the Poisson terms for every n) up to ``EXACT_UP_TO``, Wilson-Hilferty's approximation above."""
    if m <= 0:
        return needed.settled
    total = needed.settled
    if m >= 700:  # the exact counts have all come (and exp(-m) would underflow)
        total += sum(p for _n, p in needed.exact)
    else:
        term, below, j = math.exp(-m), 0.0, 0  # below: P(fewer than j events by m)
        for n, p in needed.exact:
            while j < n:
                below += term
                j += 1
                term *= m / j
            total += p * (1.0 - below if below < 1.0 else 0.0)
    root = m ** (1 / 3)
    for p, inv_root_n, mean, scale in needed.approximate:
        total += p * 0.5 * math.erfc((mean - root * inv_root_n) * scale)
    return total


def _hourly_mass(rates: Rates, tables: int, seats: int, now: datetime, tz: ZoneInfo
                 ) -> list[tuple[float, float]]:
    """(hours, expected openings) of each stretch from ``now`` up to the horizon, cut at the hours."""
    out = []
    at, end = now, now + HORIZON_HOURS * _HOUR
    while at < end:
        step = at.replace(minute=0, second=0, microsecond=0) + _HOUR
        span = (step - at).total_seconds() / 3600
        out.append((span, span * tables * rates.per_table(hour_of_week(at, tz), seats)))
        at = step
    return out
