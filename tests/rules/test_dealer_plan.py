"""R62-R64: the rotation plan (``roomops.dealers.plan``). Readable nights first, then properties over
any roster: nobody in two places, running downs kept, no gaps with dealers enough, no avoidable
second down in a row at one table, fair breaks, and a sweep that re-plans to the same plan."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from roomops.dealers.plan import DealerNow, Gap, Kind, Plan, Rules, Step, plan

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)  # a Saturday night
M = timedelta(minutes=1)


def at(minutes: int) -> datetime:
    return NOW + minutes * M


def waiting(dealer_id: int, free: int = 0, last: int | None = None, downs: int = 0) -> DealerNow:
    return DealerNow(dealer_id, at(free), at(free), downs, last)


def dealing(dealer_id: int, table: int, until: int, downs: int = 0, free: int = -30) -> DealerNow:
    return DealerNow(dealer_id, at(free), at(free), downs, None, table, at(until))


def downs_of(p: Plan, dealer_id: int) -> list[tuple[int | None, int]]:
    """A dealer's steps as (table, start minute), a break as (None, start)."""
    return [(s.table_id, (s.start - NOW) // M) for s in p.steps if s.dealer_id == dealer_id]


# ---------------------------------------------------------------- examples


def test_r64_three_tables_four_dealers_through_a_night() -> None:
    p = plan(NOW, [1, 2, 3], [waiting(d) for d in (1, 2, 3, 4)], Rules(), horizon=timedelta(hours=3))
    assert [(s.dealer_id, s.table_id) for s in p.due()] == [(1, 1), (2, 2), (3, 3)]
    assert p.free(NOW) == (4,)
    # the fourth pushes table 1; the others move on, none back at their own table
    assert [(s.dealer_id, s.table_id) for s in p.steps if s.start == at(30)] == [(1, 2), (2, 3), (4, 1)]
    assert p.free(at(30)) == (3,)
    # two downs each, then a break of 30 minutes, in turn (R64)
    breaks = [(s.dealer_id, (s.start - NOW) // M) for s in p.steps if s.kind == "break"]
    assert breaks == [(1, 60), (2, 90), (3, 120), (4, 150)]
    assert p.gaps == ()
    assert p.short(at(100)) == 0
    assert p.next_for(4, NOW) == Step(4, "down", 1, at(30), at(60))
    assert p.current(1, at(75)) == Step(1, "break", None, at(60), at(90))
    for dealer_id in (1, 2, 3, 4):
        downs = downs_of(p, dealer_id)
        assert all(a[0] is None or a[0] != b[0] for a, b in pairwise(downs))


def test_r63_too_few_dealers_leaves_a_gap_until_one_comes_back() -> None:
    rows = [dealing(1, 1, 10, downs=1), dealing(2, 2, 20), DealerNow(3, NOW, NOW, 0, None, None, at(15))]
    p = plan(NOW, [1, 2, 3], rows, Rules())
    # dealer 1 is due at 10 but cannot be spared; they take table 3 rather than table 1 again (R64),
    # which waits for dealer 3 back from break
    assert p.gaps == (Gap(3, NOW, at(10)), Gap(1, at(10), at(15)))
    assert (p.short(NOW), p.short(at(12)), p.short(at(15))) == (1, 1, 0)
    assert p.current(1, at(10)) == Step(1, "down", 3, at(10), at(40))
    assert p.current(3, at(15)) == Step(3, "down", 1, at(15), at(45))


def test_r64_a_closing_table_frees_its_dealer_at_once() -> None:
    rows = [dealing(1, 9, 20), dealing(2, 1, 10)]  # table 9 has closed, table 2 opened
    p = plan(NOW, [1, 2], rows, Rules())
    assert p.due() == (Step(1, "down", 2, NOW, at(30)),)
    assert p.steps[0] == Step(2, "down", 1, at(-20), at(10))  # kept as it is
    assert p.gaps == ()


def test_r64_the_coordinators_override_is_honoured_at_that_tables_next_push() -> None:
    rows = [dealing(1, 1, 10), dealing(2, 2, 20), DealerNow(3, at(-45), at(-45), 0, None, None, at(15)),
            waiting(4, free=-5)]
    p = plan(NOW, [1, 2], rows, Rules(), overrides={2: 3})
    assert p.current(4, at(10)) == Step(4, "down", 1, at(10), at(40))
    # at 20 dealer 1 (free since 10) would push table 2: the override sends dealer 3
    assert p.current(3, at(20)) == Step(3, "down", 2, at(20), at(50))
    assert p.free(at(20)) == (1, 2)
    assert p.current(2, at(40)) == Step(2, "down", 1, at(40), at(70))  # used once: table 2 at 50 as usual


def test_r64_a_late_sweep_ends_overdue_spells_at_now() -> None:
    rows = [dealing(1, 1, -5, downs=1), DealerNow(2, at(-40), at(-90), 1, None, None, at(-2)),
            waiting(3, free=-60, last=2, downs=1)]
    p = plan(NOW, [1], rows, Rules())
    # dealer 1's second down ended (late) at now: they rest; dealer 3 is longest free
    assert p.due() == (Step(1, "break", None, NOW, at(30)), Step(3, "down", 1, NOW, at(30)))
    assert p.free(NOW) == (2,)
    assert p.current(2, at(30)) == Step(2, "down", 1, at(30), at(60))  # rested (at now) before 1


def test_r64_the_spare_dealer_is_kept_for_the_one_longest_since_a_break_pushed_soon() -> None:
    """Room-wide fairness: table 2 pushes at 5, its dealer due a break but rested an hour ago; table
    1 pushes at 10, its dealer due too and rested three hours ago. The one spare dealer is kept
    for table 1's push: dealer 1 gets the break, dealer 2 deals on (they are not back at table 2)."""
    rows = [replace(dealing(1, 1, until=10, downs=1), rested_since=at(-180)),
            replace(dealing(2, 2, until=5, downs=1), rested_since=at(-60)),
            waiting(3, free=-5)]
    p = plan(NOW, [1, 2], rows, Rules(30, 2, 30))
    breaks = [(s.dealer_id, (s.start - NOW) // M) for s in p.steps if s.kind == "break"]
    assert breaks[0] == (1, 10)
    assert downs_of(p, 3)[0] == (2, 5) and downs_of(p, 2)[:2] == [(2, -25), (1, 10)]


def test_r64_a_due_dealer_left_waiting_is_still_due_at_the_next_push() -> None:
    """A break after every down: at 20 four are due and one break is given (a spare is kept for
    dealer 1, pushed at 22); dealer 7, due and left waiting, goes before dealer 8, back at 21 and
    rested as long ago: a wait is no break (found by the fairness property below)."""
    rows = [dealing(1, 2, 2, free=0), DealerNow(2, NOW, NOW, 0, None, None, at(3)),
            waiting(3), waiting(4), dealing(5, 1, 1, free=0), waiting(6), waiting(7), waiting(8)]
    rows = [replace(r, free_since=NOW, rested_since=NOW) for r in rows]
    p = plan(NOW, [1, 2, 3, 4, 5, 6], rows, Rules(20, 1, 15), horizon=timedelta(hours=1))
    at_21 = [(s.dealer_id, s.kind) for s in p.steps if s.start == at(21)]
    assert (7, "break") in at_21 and (8, "break") not in at_21


def test_r64_no_second_down_in_a_row_by_a_swap_at_the_same_push() -> None:
    # table 1 has no dealer; dealer 1, longest free, would take it and dealer 2 would deal table 2
    # again: they swap
    rows = [waiting(1, free=-20, last=5), dealing(2, 2, 0)]
    p = plan(NOW, [1, 2], rows, Rules())
    assert p.due() == (Step(1, "down", 2, NOW, at(30)), Step(2, "down", 1, NOW, at(30)))


def test_r64_a_second_down_in_a_row_when_no_other_assignment_exists() -> None:
    p = plan(NOW, [1], [dealing(1, 1, 0)], Rules(downs_before_break=3))
    assert p.due() == (Step(1, "down", 1, NOW, at(30)),)


# ---------------------------------------------------------------- properties


@dataclass(frozen=True)
class Room:
    tables: tuple[int, ...]
    rows: tuple[DealerNow, ...]
    rules: Rules
    horizon: timedelta
    overrides: dict[int, int]

    def plan(self) -> Plan:
        return plan(NOW, self.tables, self.rows, self.rules, horizon=self.horizon, overrides=self.overrides)

    def runs_on(self, row: DealerNow) -> bool:
        """A spell kept as it is: a break, or a down at an open table, not yet over."""
        return row.until is not None and row.until > NOW and row.table_id in (None, *self.tables)


@st.composite
def rooms(draw: st.DrawFn) -> Room:
    rules = Rules(draw(st.sampled_from([20, 30, 60])), draw(st.integers(1, 3)),
                  draw(st.sampled_from([15, 30])))
    tables = tuple(draw(st.lists(st.integers(1, 8), max_size=6, unique=True)))
    rows: list[DealerNow] = []
    dealt: set[int] = set()
    for dealer_id in range(1, draw(st.integers(0, 8)) + 1):
        free = NOW - draw(st.integers(0, 90)) * M
        row = DealerNow(dealer_id, free, free - draw(st.integers(0, 120)) * M, draw(st.integers(0, 3)),
                        draw(st.none() | st.integers(1, 8)))
        what = draw(st.sampled_from(["wait", "deal", "rest"]))
        if what == "deal":
            table, until = draw(st.integers(1, 8)), NOW + draw(st.integers(-10, rules.down_minutes)) * M
            if not (until > NOW and table in tables and table in dealt):  # one dealer a table (R63)
                row = replace(row, table_id=table, until=until)
                if until > NOW:
                    dealt.add(table)
        elif what == "rest":
            row = replace(row, until=NOW + draw(st.integers(-10, rules.break_minutes)) * M)
        rows.append(row)
    overrides = draw(st.dictionaries(st.integers(1, 8), st.integers(1, 9), max_size=2))
    return Room(tables, tuple(rows), rules, draw(st.integers(60, 240)) * M, overrides)


@dataclass(frozen=True)
class State:
    free_since: datetime
    rested_since: datetime
    downs: int
    last: int | None


def settled(room: Room, row: DealerNow) -> State:
    """The row as the planner reads it at now (its docstring): an overdue spell, or a down at a
    closed table, ends at now."""
    if row.until is None or room.runs_on(row):
        return State(row.free_since, row.rested_since, row.downs_since_break, row.last_table_id)
    if row.table_id is None:
        return State(NOW, NOW, 0, row.last_table_id)
    return State(NOW, row.rested_since, row.downs_since_break + 1, row.table_id)


def state(room: Room, p: Plan, dealer_id: int, t: datetime, *, ended: bool = True) -> State:
    """A dealer's state at ``t`` from the plan: the steps ended by ``t`` (``ended``: or at ``t``)."""
    row = next(r for r in room.rows if r.dealer_id == dealer_id)
    s = settled(room, row)
    for step in p.steps:
        if step.dealer_id == dealer_id and (step.end <= t if ended else step.end < t):
            if step.kind == "break":
                s = State(step.end, step.end, 0, s.last)
            else:
                s = State(step.end, s.rested_since, s.downs + 1, step.table_id)
    return s


def running(room: Room, p: Plan) -> set[Step]:
    kept = {r.dealer_id: r.until for r in room.rows if room.runs_on(r)}
    return {s for s in p.steps if kept.get(s.dealer_id) == s.end}


def honoured(room: Room, p: Plan) -> set[Step]:
    """The overrides used: the first push of the table by the chosen dealer."""
    kept = running(room, p)
    used = set()
    for table, dealer_id in room.overrides.items():
        first = next((s for s in p.steps if s.table_id == table and s.dealer_id == dealer_id
                      and s not in kept), None)
        if first is not None:
            used.add(first)
    return used


def events(room: Room, p: Plan) -> list[datetime]:
    end = NOW + room.horizon
    return sorted({NOW} | {s.end for s in p.steps if s.end < end})


def pools(room: Room, p: Plan) -> list[tuple[datetime, list[Step], tuple[int, ...], set[int]]]:
    """At each event: the steps starting then (overrides left out), the dealers left free, and the
    dealers those were chosen from (the override's dealers left out)."""
    kept, used = running(room, p), honoured(room, p)
    out = []
    for t in events(room, p):
        starting = [s for s in p.steps if s.start == t and s not in kept and s not in used]
        free = p.free(t)
        out.append((t, starting, free, {s.dealer_id for s in starting} | set(free)))
    return out


@settings(deadline=None)
@given(rooms())
def test_r62_no_dealer_in_two_places_and_no_table_with_two_dealers(room: Room) -> None:
    p = room.plan()
    for key in ("dealer_id", "table_id"):
        by: dict[int, list[Step]] = {}
        for s in p.steps:
            if key == "dealer_id" or s.kind == "down":
                by.setdefault(getattr(s, key), []).append(s)
        for steps in by.values():
            steps.sort(key=lambda s: s.start)
            assert all(a.end <= b.start for a, b in pairwise(steps))
    assert all(s.table_id in room.tables for s in p.steps if s.kind == "down" and s.start >= NOW)


@settings(deadline=None)
@given(rooms())
def test_r64_running_downs_at_open_tables_are_kept_as_they_are(room: Room) -> None:
    p = room.plan()
    for row in room.rows:
        if room.runs_on(row):
            assert row.until is not None
            length = room.rules.down_minutes if row.table_id is not None else room.rules.break_minutes
            kind: Kind = "down" if row.table_id is not None else "break"
            assert p.next_for(row.dealer_id, NOW - timedelta(days=1)) == \
                Step(row.dealer_id, kind, row.table_id, row.until - length * M, row.until)
        else:
            assert p.current(row.dealer_id, NOW - M) is None


@settings(deadline=None)
@given(rooms())
def test_r63_dealers_enough_no_gaps_ever(room: Room) -> None:
    p = room.plan()
    resting = [r for r in room.rows if room.runs_on(r) and r.table_id is None]
    if len(room.rows) - len(resting) >= len(room.tables):
        assert p.gaps == ()
    for g in p.gaps:
        assert g.start < g.end and not any(s.table_id == g.table_id and s.start < g.end and g.start < s.end
                                           for s in p.steps if s.kind == "down")


@settings(deadline=None)
@given(rooms())
def test_r64_no_second_down_in_a_row_at_a_table_when_another_assignment_exists(room: Room) -> None:
    p = room.plan()
    for t, starting, free, _chosen_from in pools(room, p):
        downs = [s for s in starting if s.kind == "down"]
        others = {s.dealer_id for s in downs} | set(free)  # those sent on break first are not
        for s in downs:
            if state(room, p, s.dealer_id, t).last == s.table_id:
                assert p.short(t) == 0
                assert all(state(room, p, e, t).last == s.table_id for e in others - {s.dealer_id})


@settings(deadline=None)
@given(rooms())
def test_r64_breaks_are_fair_and_only_passed_over_with_no_spare_dealer(room: Room) -> None:
    p = room.plan()
    for t, starting, free, chosen_from in pools(room, p):
        due = {d: state(room, p, d, t) for d in chosen_from}
        due = {d: s for d, s in due.items() if s.downs >= room.rules.downs_before_break}
        went = {s.dealer_id for s in starting if s.kind == "break"}
        passed = set(due) - went
        assert went <= set(due)
        if passed and free:  # a spare kept back: for a dealer longer since a break, pushed soon
            first = min((due[d].rested_since, d) for d in passed)
            assert tired_ahead(room, p, t, first)
        if passed and went:  # the longest since a break goes first
            assert max((due[d].rested_since, d) for d in went) < min((due[d].rested_since, d) for d in passed)


def tired_ahead(room: Room, p: Plan, t: datetime, than: tuple[datetime, int]) -> list[int]:
    """The dealers dealing at ``t``, due a break at their push before a break given at ``t`` would
    end, who rested before ``than`` (R64: the longest since a break goes first, room-wide)."""
    until = t + timedelta(minutes=room.rules.break_minutes)
    out = []
    for row in room.rows:
        cur = p.current(row.dealer_id, t)
        if cur is None or cur.kind != "down" or cur.start == t or not t < cur.end < until:
            continue
        s = state(room, p, row.dealer_id, t)
        if s.downs + 1 >= room.rules.downs_before_break and (s.rested_since, row.dealer_id) < than:
            out.append(row.dealer_id)
    return out


def replanned(room: Room, p: Plan, t: datetime, *, after: bool) -> Plan:
    """Planning again at ``t`` from the roster as the plan leaves it: ``after`` the steps starting at
    ``t`` were carried out, else just before (the spells ending at ``t`` still on the rows)."""
    rows = []
    for row in room.rows:
        s = state(room, p, row.dealer_id, t, ended=after)
        cur = next((x for x in p.steps if x.dealer_id == row.dealer_id
                    and (x.start <= t < x.end if after else x.start < t <= x.end)), None)
        rows.append(DealerNow(row.dealer_id, s.free_since, s.rested_since, s.downs, s.last,
                              cur.table_id if cur else None, cur.end if cur else None))
    used = {(s.table_id, s.dealer_id) for s in honoured(room, p) if s.start < t or (after and s.start == t)}
    left = {k: v for k, v in room.overrides.items() if (k, v) not in used}
    return plan(t, room.tables, rows, room.rules, horizon=NOW + room.horizon - t, overrides=left)


@settings(deadline=None)
@given(rooms())
def test_r64_the_sweep_carries_out_due_and_replanning_gives_the_same_plan(room: Room) -> None:
    p = room.plan()
    assert set(p.due()) == {s for s in p.steps if s.start == NOW}
    again = replanned(room, p, NOW, after=True)

    def key(s: Step) -> tuple[datetime, int, str]:
        return s.start, s.dealer_id, s.kind

    assert sorted(again.steps, key=key) == sorted(p.steps, key=key)
    assert again.gaps == p.gaps


@settings(deadline=None)
@given(rooms(), st.integers(0, 50))
def test_r64_replanning_at_a_later_push_gives_the_same_later_steps(room: Room, pick: int) -> None:
    p = room.plan()
    later = events(room, p)[1:]
    if not later:
        return
    t = later[pick % len(later)]
    again = replanned(room, p, t, after=False)
    assert set(again.steps) == {s for s in p.steps if s.start >= t or s.end > t}
    assert set(again.gaps) == {Gap(g.table_id, max(g.start, t), g.end) for g in p.gaps if g.end > t}
