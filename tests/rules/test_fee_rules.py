"""R50 and R51 as pure rules: the fee by players seated, the hour a collection covers, who is due
and for how long, and the most rake a pot allows (percent, smallest chip, cap, no flop no drop)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.ledger.fee_rules import HOUR, check_rake, due, hourly_fee, max_rake, next_period

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)
STEPS = [{"players": 7, "fee": 600}, {"players": 2, "fee": 300}]  # any order


@pytest.mark.parametrize("players,fee", [(1, 500), (2, 300), (6, 300), (7, 600), (9, 600)])
def test_r50_the_fee_is_the_step_for_the_players_seated_else_the_flat_fee(players, fee):
    assert hourly_fee(500, STEPS, players) == fee


@pytest.mark.parametrize("steps", [None, []])
def test_r50_no_schedule_is_the_flat_fee(steps):
    assert hourly_fee(500, steps, 9) == 500


def test_r50_a_covered_player_extends_from_where_the_paid_hour_ends():
    assert next_period(NOW + 20 * MIN, NOW) == (NOW + 20 * MIN, NOW + 80 * MIN)


@pytest.mark.parametrize("paid_until", [None, NOW, NOW - 90 * MIN])
def test_r50_a_player_not_covered_pays_for_the_coming_hour_from_now(paid_until):
    assert next_period(paid_until, NOW) == (NOW, NOW + HOUR)


def test_r50_covered_is_not_due():
    d = due(NOW + MIN, NOW - 2 * HOUR, NOW)
    assert (d.is_due, d.due_since, d.due_seconds, d.paid_until) == (False, None, 0, NOW + MIN)


def test_r50_due_since_the_paid_hour_ended():
    d = due(NOW - 25 * MIN, NOW - 2 * HOUR, NOW)
    assert (d.is_due, d.due_since, d.due_seconds) == (True, NOW - 25 * MIN, 1500)


def test_r50_never_paid_is_due_since_sitting_down():
    d = due(None, NOW - 10 * MIN, NOW)
    assert (d.is_due, d.due_since, d.due_seconds) == (True, NOW - 10 * MIN, 600)


def test_r50_the_hour_ending_now_is_due_at_once():
    assert due(NOW, NOW - HOUR, NOW).is_due


@pytest.mark.parametrize("pot,percent,cap,chip,most", [
    (10000, 5, 500, 100, 500),     # 5% of 100.00 is 5.00: at the cap
    (20000, 5, 500, 100, 500),     # 10.00 capped at 5.00
    (2990, 5, 500, 100, 100),      # 1.495 rounded down to the 1.00 chip
    (2990, 5, 500, 25, 125),       # ... or to a 0.25 chip
    (150, 10, 500, 25, 0),         # 0.15 is under the smallest chip: nothing
    (20000, 5, 0, 100, 1000),      # cap 0: no cap
    (0, 5, 500, 100, 0),
])
def test_r51_max_rake_is_percent_rounded_down_to_the_chip_and_capped(pot, percent, cap, chip, most):
    assert max_rake(pot, percent, cap, chip) == most


@given(st.integers(0, 10**9), st.integers(0, 100), st.integers(0, 10**6), st.integers(1, 10**4))
def test_r51_max_rake_never_exceeds_percent_or_cap_and_is_whole_chips(pot, percent, cap, chip):
    most = max_rake(pot, percent, cap, chip)
    assert 0 <= most * 100 <= pot * percent and most % chip == 0
    assert cap == 0 or most <= cap


def test_r51_a_rake_within_the_maximum_is_accepted():
    assert check_rake(500, 10000, True, percent=5, cap=500, smallest_chip=100,
                      no_flop_no_drop=True) == 500


def test_r51_a_rake_above_the_maximum_is_refused():
    with pytest.raises(Conflict) as err:
        check_rake(600, 10000, True, percent=5, cap=500, smallest_chip=100, no_flop_no_drop=True)
    assert err.value.rule == "R51"


def test_r51_no_flop_no_drop():
    with pytest.raises(Conflict) as err:
        check_rake(100, 10000, False, percent=5, cap=500, smallest_chip=100, no_flop_no_drop=True)
    assert err.value.rule == "R51" and "no flop" in err.value.message
    assert check_rake(100, 10000, False, percent=5, cap=500, smallest_chip=100,
                      no_flop_no_drop=False) == 500


@pytest.mark.parametrize("rake,pot", [(0, 10000), (-100, 10000), (100.0, 10000), (True, 10000),
                                      (100, -1), (100, 100.5)])
def test_r51_rake_and_pot_are_whole_minor_units(rake, pot):
    with pytest.raises(Invalid) as err:
        check_rake(rake, pot, True, percent=5, cap=500, smallest_chip=100, no_flop_no_drop=True)
    assert err.value.rule == "R51"
