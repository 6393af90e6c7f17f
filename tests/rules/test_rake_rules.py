"""R51 as pure rules: a percent in basis points, the game's smallest chip, one chip at least, and a
schedule whatever the game's structure; R53: the percent as players read it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.games.terms import percent_text
from roomops.ledger.fee_rules import RakePolicy, check_rake, max_rake

SCHEDULE = ({"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 200}, {"pot": 6000, "rake": 300})


@st.composite
def policies(draw: st.DrawFn) -> RakePolicy:
    """Any percent game: basis points, cap (0: none), chip, one-chip rule, caps by players."""
    caps = draw(st.lists(st.tuples(st.integers(2, 10), st.integers(1, 10**6)), max_size=3,
                         unique_by=lambda c: c[0]))
    return RakePolicy(bp=draw(st.integers(0, 10_000)), cap=draw(st.integers(0, 10**6)),
                      smallest_chip=draw(st.sampled_from((1, 5, 25, 50, 100, 500, 2500))),
                      min_one_chip=draw(st.booleans()),
                      caps_by_players=tuple({"players": n, "cap": c} for n, c in caps))


@given(st.integers(0, 10**12), policies(), st.integers(2, 10))
def test_r51_rake_never_exceeds_cap_percent_or_pot_and_is_whole_chips(pot, policy, players):
    most = max_rake(pot, policy, players)
    cap = policy.cap_for(players)
    assert most % policy.smallest_chip == 0  # whole smallest chips, rounded down
    assert cap == 0 or most <= cap
    assert most <= pot
    if policy.min_one_chip:  # one chip may be more than the percent, never more than that
        assert most <= max(pot * policy.bp // 10_000, policy.smallest_chip)
    else:
        assert most * 10_000 <= pot * policy.bp


@given(st.integers(0, 10**9), st.integers(0, 10_000), st.integers(1, 10**4))
def test_r51_without_the_one_chip_rule_rake_is_the_percent_rounded_down(pot, bp, chip):
    share = pot * bp // 10_000
    assert max_rake(pot, RakePolicy(bp, 0, chip)) == share - share % chip


@pytest.mark.parametrize("pot,bp,most", [
    (10000, 550, 500),   # 5.5% of 100.00 is 5.50: down to the 1.00 chip
    (10000, 1000, 1000),
    (1999, 1000, 100),   # 1.999 down to 1.00
    (20000, 525, 1000),  # 5.25% of 200.00 is 10.50
])
def test_r51_a_percent_with_decimals_in_basis_points(pot, bp, most):
    assert max_rake(pot, RakePolicy(bp, 0, 100)) == most


@pytest.mark.parametrize("chip,most", [(100, 500), (25, 550), (500, 500), (2500, 0)])
def test_r51_rake_rounds_down_to_the_games_smallest_chip(chip, most):
    assert max_rake(10000, RakePolicy(550, 0, chip)) == most


@pytest.mark.parametrize("pot,cap,most", [
    (1000, 0, 100),      # 5% of 10.00 is 0.50: one 1.00 chip
    (10000, 0, 500),     # above one chip, the percent as before
    (19, 0, 0),          # 5% of 0.19 is nothing: the pot does not qualify
    (50, 0, 0),          # one chip would be more than the pot of 0.50: never above the pot
    (1000, 50, 0),       # nor above the cap (rounded down to the chip)
])
def test_r51_a_qualifying_pot_is_raked_one_chip_at_least(pot, cap, most):
    assert max_rake(pot, RakePolicy(500, cap, 100, min_one_chip=True)) == most
    assert max_rake(1000, RakePolicy(500, 0, 100)) == 0  # the rule off: 0.50 rounds down to 0


def test_r51_one_chip_at_least_under_a_schedule():
    small = ({"pot": 1000, "rake": 50},)
    assert max_rake(1500, RakePolicy(0, 0, 100, schedule=small, min_one_chip=True)) == 100
    assert max_rake(900, RakePolicy(0, 0, 100, schedule=small, min_one_chip=True)) == 0
    assert RakePolicy(0, 0, 100, schedule=small, min_one_chip=True).hand_ceiling(None) == 100


@pytest.mark.parametrize("pot,most", [(1999, 0), (2000, 100), (5999, 200), (100000, 300)])
def test_r51_a_schedule_is_the_same_for_a_limit_and_a_no_limit_game(pot, most):
    """R51: the rules know no structure: a fixed-limit game with a schedule takes its steps."""
    for cap in (0, 300):
        assert max_rake(pot, RakePolicy(0, cap, 100, schedule=SCHEDULE)) == most


def test_r51_a_rake_not_in_whole_chips_is_refused_naming_the_chip():
    with pytest.raises(Invalid) as err:
        check_rake(250, 10000, True, RakePolicy(550, 0, 100))
    assert err.value.rule == "R51" and err.value.amounts == {"amount": 250, "chip": 100}


def test_r51_a_rake_above_the_most_names_the_most_and_the_percent():
    with pytest.raises(Conflict) as err:
        check_rake(600, 10000, True, RakePolicy(550, 0, 100))
    assert "5.5%" in err.value.message and err.value.amounts["most"] == 500


@pytest.mark.parametrize("bp,text", [(0, "0"), (1000, "10"), (550, "5.5"), (525, "5.25"),
                                     (5, "0.05"), (10_000, "100")])
def test_r53_a_percent_in_basis_points_as_players_read_it(bp, text):
    assert percent_text(bp) == text
