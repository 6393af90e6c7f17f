"""R68: a jackpot scheme's drop from a pot (roomops.jackpots.drop), no database: taken after the
rake from a qualifying pot only, the refusals naming the reason."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.jackpots.drop import DropRule, check_drop, drop_due

RULE = DropRule(drop=100, threshold=2_000)  # 1.00 from pots of 20.00 and more, 4 dealt, a flop


def test_r68_a_qualifying_pot_pays_the_drop_after_the_rake():
    assert drop_due(RULE, 2_000, 500, 6, True) == 100
    assert drop_due(DropRule(drop=500, threshold=0, flop_required=False), 520, 100, 4, False) == 420
    check_drop(RULE, 100, 5_000, 500, 9, True)


@pytest.mark.parametrize(("pot", "players", "flop", "words"), [
    (1_999, 6, True, "no jackpot drop from a pot under {threshold}"),
    (5_000, 3, True, "no jackpot drop from a hand dealt to fewer than 4 players"),
    (5_000, 6, False, "no flop, no jackpot drop: the hand ended before the flop"),
])
def test_r68_a_pot_that_does_not_qualify_pays_none_and_a_drop_from_it_is_refused(pot, players, flop, words):
    assert drop_due(RULE, pot, 200, players, flop) == 0
    check_drop(RULE, 0, pot, 200, players, flop)
    with pytest.raises(Conflict) as err:
        check_drop(RULE, 100, pot, 200, players, flop)
    assert (err.value.rule, err.value.template) == ("R68", words)


def _words(err: pytest.ExceptionInfo[Conflict]) -> str:
    return err.value.text(lambda amount: f"{amount / 100:.2f}")


def test_r68_the_refusals_name_the_amounts_in_money():
    with pytest.raises(Conflict) as err:
        check_drop(RULE, 50, 5_000, 500, 6, True)
    assert _words(err) == "the jackpot drop from this pot is 1.00, not 0.50"
    with pytest.raises(Conflict) as err:
        check_drop(RULE, 100, 1_500, 0, 6, True)
    assert _words(err) == "no jackpot drop from a pot under 20.00"


def test_r68_a_rule_or_pot_that_makes_no_sense_is_refused():
    for bad in (lambda: DropRule(drop=0, threshold=100), lambda: DropRule(drop=100, threshold=-1),
                lambda: DropRule(drop=100, threshold=0, min_dealt=1)):
        with pytest.raises(Invalid):
            bad()
    with pytest.raises(Invalid):
        drop_due(RULE, 1_000, 1_001, 6, True)


@given(st.integers(0, 10**7), st.integers(0, 10**7), st.integers(2, 10), st.booleans(),
       st.integers(1, 10**5), st.integers(0, 10**5), st.integers(2, 10), st.booleans())
def test_r68_the_drop_never_takes_more_than_the_rake_leaves(pot, rake, players, flop, drop, threshold, least,
                                                           needs_flop):
    rake = min(rake, pot)
    rule = DropRule(drop, threshold, least, needs_flop)
    due = drop_due(rule, pot, rake, players, flop)
    assert 0 <= due <= min(drop, pot - rake)
    qualifies = pot >= threshold and players >= least and (flop or not needs_flop)
    assert (due == min(drop, pot - rake)) if qualifies else due == 0
