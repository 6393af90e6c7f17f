"""R65: a waiting list long enough to start a table, and the dealer who could deal it."""

from __future__ import annotations

from datetime import datetime, timedelta

from roomops.dealers.lists import Starting, startable

T0 = datetime(2026, 12, 5, 21, 0)


def test_r65_a_list_shorter_than_start_at_starts_nothing():
    assert startable({1: 5}, 6, free_now=2, free_later=[]) == {}


def test_r65_lists_take_the_free_dealers_in_the_desks_order_then_those_coming_free():
    got = startable({1: 6, 2: 9, 3: 7}, 6, free_now=1, free_later=[T0 + timedelta(minutes=20)])
    assert got == {1: Starting("now"), 2: Starting("at", T0 + timedelta(minutes=20)),
                   3: Starting("short", short=1)}


def test_r65_the_floor_is_told_how_many_dealers_it_is_short():
    got = startable({1: 6, 2: 6, 3: 6}, 6, free_now=0, free_later=[])
    assert [s.short for s in got.values()] == [1, 2, 3]
