"""Whether the sweep is late (docs/decisions.md, "The scheduler's heartbeat"): the timers it
releases (R12, R20, R22, R24, R26) are late when no scheduler swept for ``stale_after`` seconds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.heartbeat.rules import SweepState, room_last_run, sweep_state

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


@pytest.mark.parametrize("seconds_ago,expected", [
    (0, SweepState(0, False)),
    (2.5, SweepState(2, False)),
    (15, SweepState(15, False)),  # at the limit: not yet late
    (15.001, SweepState(15, True)),
    (600, SweepState(600, True)),
])
def test_late_only_past_the_limit(seconds_ago, expected):
    assert sweep_state(NOW - timedelta(seconds=seconds_ago), NOW, 15) == expected


def test_a_sweep_that_never_ran_is_late():
    assert sweep_state(None, NOW, 15) == SweepState(None, True)


def test_a_sweep_stamped_ahead_of_this_clock_is_fresh():
    assert sweep_state(NOW + timedelta(seconds=3), NOW, 15) == SweepState(0, False)


def test_the_limit_is_the_setting():
    last = NOW - timedelta(seconds=20)
    assert sweep_state(last, NOW, 30).stale is False
    assert sweep_state(last, NOW, 10).stale is True


@pytest.mark.parametrize("failing_since,expected", [
    (None, NOW),  # the room's sweep is not failing: the freshest sweep counts
    (NOW - timedelta(seconds=40), NOW - timedelta(seconds=40)),  # failing since an earlier run
    (NOW + timedelta(seconds=1), NOW),  # never later than the freshest sweep
])
def test_a_room_is_swept_as_of_its_first_failed_run(failing_since, expected):
    assert room_last_run(NOW, failing_since) == expected


def test_a_room_is_never_swept_when_no_scheduler_ever_swept():
    assert room_last_run(None, None) is None
    assert room_last_run(None, NOW) is None
