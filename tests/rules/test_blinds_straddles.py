"""R40: straddles in strict rotation from the player left of the big blind, each twice the last."""

from __future__ import annotations

import pytest

from roomops.blinds.positions import first_hand
from roomops.blinds.straddles import Straddle, StraddleSettings, check_straddles, straddle_order
from roomops.errors import Conflict
from tests.rules.test_blinds_positions import BB, seated, table

OPEN = StraddleSettings(allowed=True, max_straddles=3)
PLAN = first_hand(table(), seated(10, [1, 3, 5, 7, 9]), 1)  # button 1, SB 3, BB 5


def refused(settings: StraddleSettings, *straddles: Straddle, **kw: bool) -> str:
    with pytest.raises(Conflict) as err:
        check_straddles(settings, PLAN, straddles, **kw)
    assert err.value.rule == "R40"
    return err.value.message


def test_r40_order_starts_left_of_the_big_blind():
    assert straddle_order(PLAN) == (7, 9, 1, 3)


def test_r40_rotation_each_twice_the_previous():
    check_straddles(OPEN, PLAN, [Straddle(7, 2 * BB), Straddle(9, 4 * BB)])
    check_straddles(OPEN, PLAN, [])


def test_r40_not_allowed_or_not_sanctioned():
    assert "not allowed" in refused(StraddleSettings(), Straddle(7, 2 * BB))
    sanction = StraddleSettings(allowed=True, sanction_required=True)
    assert "sanctioned" in refused(sanction, Straddle(7, 2 * BB))
    check_straddles(sanction, PLAN, [Straddle(7, 2 * BB)], sanctioned=True)


def test_r40_at_most_max_straddles():
    utg_only = StraddleSettings(allowed=True, max_straddles=1)
    assert "at most 1" in refused(utg_only, Straddle(7, 2 * BB), Straddle(9, 4 * BB))


def test_r40_no_mississippi_and_no_skipping():
    assert "out of turn" in refused(OPEN, Straddle(9, 2 * BB))  # UTG+1 first
    assert "out of turn" in refused(OPEN, Straddle(7, 2 * BB), Straddle(1, 4 * BB))


@pytest.mark.parametrize("amounts", [(BB,), (3 * BB,), (2 * BB, 3 * BB)])
def test_r40_each_straddle_is_exactly_double(amounts):
    seats = (7, 9)
    assert "must be" in refused(OPEN, *(Straddle(s, a) for s, a in zip(seats, amounts, strict=False)))


def test_r40_button_straddle_needs_setting_and_floor_consent():
    chain = [Straddle(7, 2 * BB), Straddle(9, 4 * BB), Straddle(1, 8 * BB)]  # 1 is the button
    assert "button" in refused(OPEN, *chain)
    with_button = StraddleSettings(allowed=True, button_straddle=True)
    assert "button" in refused(with_button, *chain)
    check_straddles(with_button, PLAN, chain, floor_consent=True)
