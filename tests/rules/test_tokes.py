"""R66: the toke pool shared by downs dealt, on the pure split (no database): the shares add up
to the pool exactly, each is within a minor unit of its exact value, the odd units go by largest
remainder with ties to the lower dealer id."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.tokes.split import split

POOLS = st.integers(min_value=0, max_value=10**12)
DOWNS = st.dictionaries(st.integers(min_value=1, max_value=10**6), st.integers(min_value=1, max_value=60),
                        min_size=1, max_size=25)


def test_r66_an_even_pool_is_shared_by_downs():
    assert split(9000, {1: 2, 2: 1}) == {1: 6000, 2: 3000}


def test_r66_the_odd_units_go_to_the_largest_remainders():
    # exact shares 333.33 / 333.33 / 333.33 of 1000: one unit left, to the lowest id
    assert split(1000, {7: 1, 3: 1, 5: 1}) == {3: 334, 5: 333, 7: 333}
    # 100 by 3:2:2 -> 42.86, 28.57, 28.57: two units left, to the two largest remainders
    assert split(100, {1: 3, 2: 2, 3: 2}) == {1: 43, 2: 29, 3: 28}


def test_r66_a_remainder_beats_a_lower_id():
    # 10 by 1:2 -> 3.33, 6.67: the unit left goes to dealer 9 (remainder 0.67), not dealer 1 (0.33)
    assert split(10, {1: 1, 9: 2}) == {1: 3, 9: 7}


def test_r66_money_with_no_down_is_refused_and_nothing_shares_nothing():
    with pytest.raises(Conflict) as err:
        split(500, {})
    assert err.value.rule == "R66"
    assert split(0, {}) == {}
    assert split(0, {1: 3, 2: 1}) == {1: 0, 2: 0}


@pytest.mark.parametrize("pool, downs", [(-1, {1: 1}), (100, {1: 0}), (100, {1: 2, 2: -1})])
def test_r66_a_negative_pool_or_a_dealer_without_downs_is_invalid(pool, downs):
    with pytest.raises(Invalid):
        split(pool, downs)


@given(POOLS, DOWNS)
def test_r66_the_shares_add_up_to_the_pool_each_within_a_unit_of_exact(pool, downs):
    shares = split(pool, downs)
    assert set(shares) == set(downs)
    assert sum(shares.values()) == pool
    total = sum(downs.values())
    for dealer, share in shares.items():
        exact = Fraction(pool * downs[dealer], total)
        assert exact - 1 < share < exact + 1
        assert share >= 0


@given(POOLS, DOWNS)
def test_r66_more_downs_never_get_less_and_equal_downs_differ_by_a_unit_at_most(pool, downs):
    shares = split(pool, downs)
    for a in downs:
        for b in downs:
            if downs[a] > downs[b]:
                assert shares[a] >= shares[b]
            if downs[a] == downs[b]:
                assert abs(shares[a] - shares[b]) <= 1
                if shares[a] > shares[b]:
                    assert a < b  # R66: the tie goes to the lower dealer id


@given(POOLS, DOWNS)
def test_r66_the_split_does_not_depend_on_the_order_the_dealers_come_in(pool, downs):
    assert split(pool, dict(reversed(list(downs.items())))) == split(pool, downs)
