"""R20, R22, R30: seat rules with no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.errors import Conflict, Invalid
from roomops.holds.rules import check_buy_in, check_claimable, claim_deadline, seconds_left

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def test_r20_claim_deadline_is_claim_minutes_after_the_offer():
    assert claim_deadline(T0, 10) == T0 + timedelta(minutes=10)
    assert claim_deadline(T0, 1) == T0 + timedelta(seconds=60)


@pytest.mark.parametrize("before", [timedelta(seconds=59), timedelta(seconds=1),
                                    timedelta(microseconds=1)])
def test_r22_claimable_before_the_deadline(before):
    deadline = claim_deadline(T0, 10)
    check_claimable(deadline, deadline - before)


@pytest.mark.parametrize("after", [timedelta(0), timedelta(microseconds=1), timedelta(seconds=1)])
def test_r22_gone_at_and_after_the_deadline(after):
    deadline = claim_deadline(T0, 10)
    with pytest.raises(Conflict) as err:
        check_claimable(deadline, deadline + after)
    assert err.value.rule == "R22"


def test_r20_seconds_left():
    deadline = claim_deadline(T0, 10)
    assert seconds_left(deadline, T0) == 600
    assert seconds_left(deadline, deadline - timedelta(seconds=59)) == 59
    assert seconds_left(deadline, deadline) == 0
    assert seconds_left(deadline, deadline + timedelta(seconds=5)) == 0


@pytest.mark.parametrize("amount", [10000, 25000, 40000])
def test_r30_buy_in_within_range(amount):
    check_buy_in(amount, 10000, 40000)


@pytest.mark.parametrize("amount", [0, 9999, 40001])
def test_r30_buy_in_out_of_range(amount):
    with pytest.raises(Invalid) as err:
        check_buy_in(amount, 10000, 40000)
    assert err.value.rule == "R30"
