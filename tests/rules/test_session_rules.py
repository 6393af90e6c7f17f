"""When a log-in ends by time (R61, roomops.rooms.session_rules): idle too long since its last
request, or older than its lifetime however busy it was."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.rooms.session_rules import SessionLimits, session_expired

LIMITS = SessionLimits(idle=timedelta(minutes=240), lifetime=timedelta(hours=14))
T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


@pytest.mark.parametrize("idle,expired", [(timedelta(0), False), (timedelta(minutes=240), False),
                                          (timedelta(minutes=240, seconds=1), True)])
def test_idle_longer_than_the_timeout_ends_it(idle, expired):
    seen = T0 + timedelta(hours=1)
    assert session_expired(LIMITS, T0, seen, seen + idle) is expired


@pytest.mark.parametrize("age,expired", [(timedelta(hours=14), False),
                                         (timedelta(hours=14, seconds=1), True)])
def test_older_than_the_lifetime_ends_it_however_busy(age, expired):
    now = T0 + age
    assert session_expired(LIMITS, T0, now - timedelta(seconds=5), now) is expired


def test_a_clock_set_back_is_no_reason_to_end_it():
    assert not session_expired(LIMITS, T0, T0, T0 - timedelta(hours=1))
