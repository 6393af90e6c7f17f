"""R51 (issue 44): a split pot shared in whole chips, the odd chip clockwise from the button, and a
pot's rake attributed by what each player put in (roomops.ledger.pots), no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Invalid
from roomops.ledger.pots import rake_by_put_in, split_pot
from roomops.shares import clockwise


def test_r51_the_odd_chip_goes_to_the_first_winner_clockwise_from_the_button():
    assert clockwise([2, 5, 8], button=6) == [8, 2, 5]
    assert split_pot(2_100, [2, 8], button=6, chip=100) == {8: 1_100, 2: 1_000}  # 21 chips: 8 is first
    assert split_pot(2_100, [2, 8], button=1, chip=100) == {2: 1_100, 8: 1_000}
    assert split_pot(3_000, [1, 4, 7], button=9, chip=500) == {1: 1_000, 4: 1_000, 7: 1_000}


def test_r51_a_pot_not_in_whole_chips_or_with_no_winner_is_refused():
    with pytest.raises(Invalid) as err:
        split_pot(2_150, [2, 8], button=6, chip=100)
    words = err.value.text(lambda a: f"{a / 100:.2f}")
    assert words == "a pot is shared in whole chips: 21.50 is not a whole number of 1.00"
    for winners in ([], [3, 3]):
        with pytest.raises(Invalid):
            split_pot(1_000, winners, button=1, chip=100)


def test_r51_the_rake_is_the_players_by_what_they_put_in():
    parts = rake_by_put_in(500, {1: 10_000, 3: 5_000, 6: 5_000, 8: 0}, button=2)
    assert parts == {1: 250, 3: 125, 6: 125, 8: 0}
    assert rake_by_put_in(100, {1: 100, 2: 100, 3: 100}, button=1) == {2: 34, 3: 33, 1: 33}  # seat 2 first
    assert rake_by_put_in(0, {1: 0, 2: 0}, button=1) == {1: 0, 2: 0}
    with pytest.raises(Invalid):
        rake_by_put_in(100, {1: 0, 2: 0}, button=1)


@given(st.integers(0, 10**5), st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True),
       st.integers(1, 10), st.sampled_from([1, 25, 100, 500]))
def test_r51_a_split_pot_is_shared_to_the_chip(chips, winners, button, chip):
    shares = split_pot(chips * chip, winners, button, chip)
    assert sum(shares.values()) == chips * chip and set(shares) == set(winners)
    assert all(v % chip == 0 for v in shares.values())
    assert max(shares.values()) - min(shares.values()) <= chip
    first = clockwise(winners, button)[0]
    assert shares[first] == max(shares.values())


@given(st.integers(0, 10**6), st.dictionaries(st.integers(1, 10), st.integers(1, 10**6), min_size=1),
       st.integers(1, 10))
def test_r51_the_rakes_parts_add_up_to_it(rake, put_in, button):
    parts = rake_by_put_in(rake, put_in, button)
    assert sum(parts.values()) == rake
    whole = sum(put_in.values())
    assert all(abs(parts[s] - rake * v / whole) < 1 for s, v in put_in.items())
