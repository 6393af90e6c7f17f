"""Whether the sweep is late (docs/decisions.md, "The scheduler's heartbeat"): the timers it
releases (R12, R20, R22, R24, R26) are late when no scheduler swept for ``stale_after`` seconds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.heartbeat.rules import SweepState, sweep_state

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
