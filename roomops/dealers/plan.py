"""The rotation plan (R64): who pushes whom and when, and who goes on break, from ``now`` to a horizon.

A pure function of the roster's rows (``DealerNow``), the open tables and the policy (``Rules``): an
event simulation whose events are ``now`` and every end of a down or break. At each event, in this
order: the spells ending then end; the coordinator's overrides are honoured; due dealers go on break
as far as the rest still cover the tables; the other tables take dealers longest free first.

Where R64 is silent:

- A spell that should have ended (``until`` <= now: the sweep ran late) ends at ``now``, and so does a
  down at a table that closed. Such a down counts as dealt (it is on the down card, R63).
- A running spell's start is not on the roster's row: its step starts ``down_minutes`` (or
  ``break_minutes``) before its end, or at ``now`` if that is later.
- An override beats a due break: the coordinator chose that dealer for that push. It does not hold
  its dealer back: until that table's push, they are assigned as anyone else. A due break beats the
  no-repeat rule: the dealers left after the breaks are the ones "another assignment" is made of.
- Breaks are fair across the room, not only among the due at one push: a spare dealer is kept back
  (the due dealer pushed now deals on) while a dealer longer since a break is due at a push before
  this break would end, and no break ends by then to relieve them. Short of dealers for every
  break, each dealer still goes several downs without one (bench/dealer_plan.py prints the most).
- A due dealer left waiting at a push (others went on break first, or a spare was kept back) is
  still due at the next: a wait is no break, and they are among the due with those back then.
- "Two downs in a row" is two of a dealer's downs with no other down between, whether they waited or
  rested between them (``last_table_id`` is kept through a break).
- Short of dealers, the tables in id order take them (a table without a dealer has no priority for
  having waited), except that a dealer goes to a later table rather than back to the one they just
  dealt: then the earlier table is the one without a dealer.
- Steps run from their start to their end, the end excluded: a dealer pushed at t and not sent
  anywhere is free at t. Steps start before the horizon; the last ones may end after it.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal


@dataclass(frozen=True)
class Rules:
    down_minutes: int = 30  # R63
    downs_before_break: int = 2  # R64
    break_minutes: int = 30  # R64


@dataclass(frozen=True)
class DealerNow:
    """A checked-in dealer as the roster's rows say at ``now``."""

    dealer_id: int
    free_since: datetime  # when they last became free: checked in, or their last down or break ended
    rested_since: datetime  # when their last break ended, else when they checked in (R64)
    downs_since_break: int  # downs ended since rested_since
    last_table_id: int | None  # the table of their last down (R64: not two downs in a row there)
    table_id: int | None = None  # dealing at this table now ...
    until: datetime | None = None  # ... until the push; with table_id None: on break until then


Kind = Literal["down", "break"]


@dataclass(frozen=True)
class Step:
    dealer_id: int
    kind: Kind
    table_id: int | None  # None for a break
    start: datetime
    end: datetime


@dataclass(frozen=True)
class Gap:
    """An open table with no dealer (R63: flagged on the desk) from start until end."""

    table_id: int
    start: datetime
    end: datetime


def _start(step: Step) -> datetime:
    return step.start


@dataclass(frozen=True)
class Plan:
    """``steps``: every down and break from now to the horizon, the running ones first as they are,
    then by start, dealer. ``dealer_ids``: every dealer planned, those with no step too (``free``)."""

    now: datetime
    steps: tuple[Step, ...]
    gaps: tuple[Gap, ...]
    dealer_ids: tuple[int, ...] = ()
    _by_dealer: dict[int, tuple[Step, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_dealer: dict[int, list[Step]] = {d: [] for d in self.dealer_ids}
        for step in self.steps:
            by_dealer.setdefault(step.dealer_id, []).append(step)
        # a dealer's steps never overlap: in order of start they are in order of end too
        ordered = {d: tuple(sorted(s, key=_start)) for d, s in by_dealer.items()}
        object.__setattr__(self, "_by_dealer", ordered)

    def next_for(self, dealer_id: int, after: datetime) -> Step | None:
        """Their first step starting at or after ``after`` (R64: the dealer screen's next table)."""
        steps = self._by_dealer.get(dealer_id, ())
        i = bisect_left(steps, after, key=_start)
        return steps[i] if i < len(steps) else None

    def current(self, dealer_id: int, at: datetime) -> Step | None:
        """Their step running at ``at``."""
        steps = self._by_dealer.get(dealer_id, ())
        i = bisect_right(steps, at, key=_start) - 1
        return steps[i] if i >= 0 and steps[i].end > at else None

    def due(self) -> tuple[Step, ...]:
        """The steps that start at ``now``: what the sweep carries out now."""
        return tuple(s for s in self.steps if s.start == self.now)

    def short(self, at: datetime) -> int:
        """How many open tables have no dealer at ``at`` (R63)."""
        return sum(1 for g in self.gaps if g.start <= at < g.end)

    def free(self, at: datetime) -> tuple[int, ...]:
        """The dealers neither dealing nor on break at ``at`` (R65: a dealer free now or at a time)."""
        return tuple(sorted(d for d in self._by_dealer if self.current(d, at) is None))


def plan(now: datetime, tables: Sequence[int], dealers: Sequence[DealerNow], rules: Rules, *,
         horizon: timedelta = timedelta(hours=2), overrides: Mapping[int, int] | None = None) -> Plan:
    """`tables`: the open tables' ids. `overrides`: table id -> dealer id, the coordinator's choice for
    that table's next push (R64)."""
    if min(rules.down_minutes, rules.downs_before_break, rules.break_minutes) < 1:
        raise ValueError(f"rules must be positive: {rules}")
    if horizon <= timedelta(0):
        raise ValueError(f"the horizon must be positive: {horizon}")
    return _Simulation(now, tables, dealers, rules, overrides or {}).run(now + horizon)


class _Dealer:
    """A dealer's row as the simulation moves it on."""

    __slots__ = ("downs", "free_since", "id", "last_table", "rested_since", "table", "until")

    def __init__(self, row: DealerNow) -> None:
        self.id = row.dealer_id
        self.free_since = row.free_since
        self.rested_since = row.rested_since
        self.downs = row.downs_since_break
        self.last_table = row.last_table_id
        self.table: int | None = None  # the table of the down they are dealing, if any
        self.until: datetime | None = None  # the end of their down or break, if any


class _Simulation:
    def __init__(self, now: datetime, tables: Sequence[int], dealers: Sequence[DealerNow], rules: Rules,
                 overrides: Mapping[int, int]) -> None:
        self.now = now
        self.down = timedelta(minutes=rules.down_minutes)
        self.rest = timedelta(minutes=rules.break_minutes)
        self.downs_before_break = rules.downs_before_break
        self.open = frozenset(tables)
        self.pending = {t: d for t, d in overrides.items() if t in self.open}  # used once each
        self.dealers: dict[int, _Dealer] = {}
        self.ends: dict[datetime, list[int]] = {}  # who ends a spell then
        self.times: list[datetime] = []  # heap of the keys of ends
        self.waiting: set[int] = set()
        self.queue: list[tuple[datetime, int]] = []  # heap of the waiting, longest free first (and stale)
        self.uncovered = set(self.open)  # open tables with no dealer
        self.gap_since: dict[int, datetime] = {}
        self.running: list[Step] = []
        self.steps: list[Step] = []
        self.gaps: list[Gap] = []
        self.first = self._read(dealers)

    def _read(self, rows: Sequence[DealerNow]) -> list[int]:
        """Takes the rows in; returns the dealers free at ``now``, running spells kept as they are."""
        free: list[int] = []
        for row in sorted(rows, key=lambda r: r.dealer_id):
            if row.dealer_id in self.dealers:
                raise ValueError(f"dealer {row.dealer_id} is on the roster twice")
            dealer = self.dealers[row.dealer_id] = _Dealer(row)
            if row.table_id is not None and row.until is None:
                raise ValueError(f"dealer {row.dealer_id} deals at table {row.table_id} with no end")
            if row.until is None:
                free.append(dealer.id)
            elif row.until <= self.now or (row.table_id is not None and row.table_id not in self.open):
                self._end(dealer, row.table_id, self.now)  # late sweep, or a closed table
                free.append(dealer.id)
            elif row.table_id is not None:
                if row.table_id not in self.uncovered:
                    raise ValueError(f"two dealers deal at table {row.table_id}")
                self.uncovered.discard(row.table_id)
                dealer.table = row.table_id
                self._keep(dealer.id, "down", row.table_id, row.until, self.down)
            else:
                self._keep(dealer.id, "break", None, row.until, self.rest)
        return free

    def _keep(self, dealer_id: int, kind: Kind, table: int | None, until: datetime,
              length: timedelta) -> None:
        self.running.append(Step(dealer_id, kind, table, min(self.now, until - length), until))
        self._schedule(dealer_id, until)

    def _schedule(self, dealer_id: int, at: datetime) -> None:
        self.dealers[dealer_id].until = at
        if at not in self.ends:
            self.ends[at] = []
            heapq.heappush(self.times, at)
        self.ends[at].append(dealer_id)

    def _end(self, dealer: _Dealer, table: int | None, at: datetime) -> None:
        """Their down (at ``table``) or break (``table`` None) ends at ``at``."""
        if table is None:
            dealer.downs, dealer.rested_since = 0, at
        else:
            dealer.downs, dealer.last_table = dealer.downs + 1, table
        dealer.free_since, dealer.table, dealer.until = at, None, None

    def run(self, end: datetime) -> Plan:
        self._event(self.now, self.first)
        while self.times and self.times[0] < end:
            t = heapq.heappop(self.times)
            self._event(t, self._arrivals(t))
        self.gaps.extend(Gap(table, start, end) for table, start in self.gap_since.items())
        self.running.sort(key=lambda s: (s.start, s.dealer_id))
        self.steps.sort(key=lambda s: (s.start, s.dealer_id))
        self.gaps.sort(key=lambda g: (g.start, g.table_id))
        return Plan(self.now, tuple(self.running + self.steps), tuple(self.gaps), tuple(self.dealers))

    def _arrivals(self, t: datetime) -> list[int]:
        """The dealers whose down or break ends at ``t``; their tables need a dealer."""
        arrivals = sorted(self.ends.pop(t))
        for dealer_id in arrivals:
            dealer = self.dealers[dealer_id]
            if dealer.table is not None:
                self.uncovered.add(dealer.table)
            self._end(dealer, dealer.table, t)
        return arrivals

    def _event(self, t: datetime, arrivals: list[int]) -> None:
        needing = sorted(self.uncovered)
        pool = set(arrivals)
        tables: list[int] = []
        for table in needing:
            chosen = self.pending.get(table)
            if chosen is not None and (chosen in pool or chosen in self.waiting):
                del self.pending[table]
                pool.discard(chosen)
                self.waiting.discard(chosen)
                self._deal(chosen, table, t)
            else:
                tables.append(table)
        spare = len(pool) + len(self.waiting) - len(tables)
        # due: those back now, and those left waiting at an earlier push while others went first
        # (a wait is no break)
        due = sorted((self.dealers[d] for d in pool | self.waiting
                      if self.dealers[d].downs >= self.downs_before_break),
                     key=lambda d: (d.rested_since, d.id))
        tired, back = self._ahead(t) if due and spare > 0 else ([], 0)
        for given, dealer in enumerate(due):
            if given + max(0, bisect_left(tired, (dealer.rested_since, dealer.id)) - back) >= spare:
                break  # nobody spare, or kept for one longer since a break, pushed soon
            pool.discard(dealer.id)
            self.waiting.discard(dealer.id)
            self._break(dealer.id, t)
        for dealer_id in sorted(pool):
            self._wait(dealer_id)
        self._assign(tables, t)

    def _ahead(self, t: datetime) -> tuple[list[tuple[datetime, int]], int]:
        """R64, the longest since a break first across the room, not only at one push: the dealers
        due a break at a push before a break given at ``t`` would end (by when they rested, for
        ``bisect``), and how many breaks end by then (their dealers can relieve those)."""
        until = t + self.rest
        tired = sorted((d.rested_since, d.id) for d in self.dealers.values()
                       if d.table is not None and d.until is not None and t < d.until < until
                       and d.downs + 1 >= self.downs_before_break)
        back = sum(1 for d in self.dealers.values()
                   if d.table is None and d.until is not None and t < d.until < until)
        return tired, back

    def _assign(self, tables: list[int], t: datetime) -> None:
        """The tables in id order take the waiting longest free first, none back at the table of their
        last down while another assignment exists (R64)."""
        chosen: list[tuple[int, int]] = []
        held: deque[int] = deque()  # taken from the queue, passed over for their last table
        deferred: int | None = None
        for table in tables:
            dealer_id = self._pick(table, held)
            if dealer_id is not None:
                chosen.append((table, dealer_id))
            elif held:
                deferred = table  # every dealer left dealt their last down here
        if deferred is not None and held:
            chosen.append(self._swap(deferred, held.popleft(), chosen))
        for dealer_id in held:
            self._wait(dealer_id)
        for table, dealer_id in chosen:
            self._deal(dealer_id, table, t)
        for table in tables:
            if table in self.uncovered:
                self.gap_since.setdefault(table, t)

    def _pick(self, table: int, held: deque[int]) -> int | None:
        """The dealer longest free whose last table is not ``table``; those passed over are held."""
        if held and self.dealers[held[0]].last_table != table:
            return held.popleft()
        while self.queue:
            free_since, dealer_id = heapq.heappop(self.queue)
            dealer = self.dealers[dealer_id]
            if dealer_id not in self.waiting or dealer.free_since != free_since:
                continue  # taken since, by an override
            self.waiting.discard(dealer_id)
            if dealer.last_table != table:
                return dealer_id
            held.append(dealer_id)
        return None

    def _swap(self, table: int, dealer_id: int, chosen: list[tuple[int, int]]) -> tuple[int, int]:
        """``dealer_id`` dealt their last down at ``table``: another chosen at this push takes it and
        they take that one's table, if any can; else they deal there again."""
        for i in reversed(range(len(chosen))):
            other_table, other = chosen[i]
            if self.dealers[other].last_table != table:
                chosen[i] = (other_table, dealer_id)
                return table, other
        return table, dealer_id

    def _wait(self, dealer_id: int) -> None:
        self.waiting.add(dealer_id)
        heapq.heappush(self.queue, (self.dealers[dealer_id].free_since, dealer_id))

    def _deal(self, dealer_id: int, table: int, t: datetime) -> None:
        self.dealers[dealer_id].table = table
        self.uncovered.discard(table)
        if table in self.gap_since:
            self.gaps.append(Gap(table, self.gap_since.pop(table), t))
        self.steps.append(Step(dealer_id, "down", table, t, t + self.down))
        self._schedule(dealer_id, t + self.down)

    def _break(self, dealer_id: int, t: datetime) -> None:
        self.steps.append(Step(dealer_id, "break", None, t, t + self.rest))
        self._schedule(dealer_id, t + self.rest)
