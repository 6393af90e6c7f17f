"""R13: moving an entry keeps the list strictly ordered (pure rule, no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from roomops.lists.ordering import TICK, move

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def times(*micros: int) -> list[datetime]:
    return [T0 + timedelta(microseconds=m) for m in micros]


def test_r13_move_up_lands_between_new_neighbours():
    q = times(0, 10_000_000, 20_000_000, 30_000_000)
    out = move(q, 3, 1)
    assert out[0] == q[0] and out[2] == q[1] and out[3] == q[2]
    assert q[0] < out[1] < q[1]


def test_r13_move_to_top_and_bottom():
    q = times(0, 1_000_000, 2_000_000)
    top = move(q, 2, 0)
    assert top[0] < q[0] and top[1:] == q[:2]
    bottom = move(q, 0, 2)
    assert bottom[:2] == q[1:] and bottom[2] > q[2]


def test_r13_no_free_microsecond_nudges_later_entries_in_order():
    q = times(0, 1, 2, 3)
    out = move(q, 3, 1)
    assert all(a < b for a, b in pairwise(out))
    assert out[0] == q[0] and out[1] == q[0] + TICK


def test_r13_move_out_of_range():
    with pytest.raises(IndexError):
        move(times(0, 1), 0, 2)
    with pytest.raises(IndexError):
        move(times(0, 1), -1, 0)


@st.composite
def queues(draw):
    gaps = draw(st.lists(st.integers(1, 5_000_000), min_size=1, max_size=15))
    q, t = [], T0
    for g in gaps:
        t += timedelta(microseconds=g)
        q.append(t)
    src = draw(st.integers(0, len(q) - 1))
    dst = draw(st.integers(0, len(q) - 1))
    return q, src, dst


@settings(max_examples=400, deadline=None)
@given(queues())
def test_r13_move_properties(case):
    q, src, dst = case
    out = move(q, src, dst)
    assert len(out) == len(q)
    assert all(a < b for a, b in pairwise(out))  # strictly increasing
    # the moved item is at dst and the others keep their relative order: the new order of the
    # original indices is the old order with src taken out and put back at dst
    order = [i for i in range(len(q)) if i != src]
    order.insert(dst, src)
    # other items keep their time, unless they had to be nudged forward (by microseconds)
    nudged = [out[k] - q[i] for k, i in enumerate(order) if i != src]
    assert all(d >= timedelta(0) for d in nudged)
    assert all(d < timedelta(microseconds=len(q) + 1) for d in nudged)
    # sorting the new times must reproduce the intended order (what the service relies on)
    assert sorted(range(len(out)), key=lambda k: out[k]) == list(range(len(out)))


@settings(max_examples=200, deadline=None)
@given(queues())
def test_r13_others_keep_their_times_when_there_is_room(case):
    q, src, dst = case
    assume(all((b - a) >= timedelta(microseconds=2) for a, b in pairwise(q)))
    out = move(q, src, dst)
    order = [i for i in range(len(q)) if i != src]
    order.insert(dst, src)
    assert [out[k] for k, i in enumerate(order) if i != src] == [q[i] for i in order if i != src]
