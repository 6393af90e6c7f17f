"""R28, R31, R32, R52 as pure rules: amounts, signs, reversals and the transit state machine."""

from __future__ import annotations

import pytest

from roomops.errors import Conflict, Invalid
from roomops.ledger.rules import (
    FACILITY,
    INTO_PLAY,
    MOVES,
    OUT_OF_PLAY,
    SLIP_METHODS,
    STATES,
    check_amount,
    check_confirmer,
    check_currency,
    check_reversible,
    next_state,
    signed,
)


@pytest.mark.parametrize("amount", [0, -1, 1.0, 2.5, "100", True, None])
def test_amounts_are_positive_whole_minor_units(amount):
    with pytest.raises(Invalid) as err:
        check_amount(amount, "R30")
    assert err.value.rule == "R30"


def test_a_positive_int_is_an_amount():
    assert check_amount(1, "R28") == 1


def test_signs_into_play_positive_out_of_play_negative():
    assert [signed(k, 5) for k in INTO_PLAY] == [5, 5, 5]
    assert [signed(k, 5) for k in OUT_OF_PLAY] == [-5, -5, -5, -5]  # the drop too (R50)
    with pytest.raises(ValueError):
        signed("reversal", 5)


def test_currency_r32():
    check_currency(None, "GBP")
    check_currency("gbp", "GBP")
    with pytest.raises(Invalid, match="foreign"):
        check_currency("EUR", "GBP")


def test_reversal_rules_r52():
    check_reversible("buy_in", already_reversed=False)
    with pytest.raises(Conflict, match="already"):
        check_reversible("buy_in", already_reversed=True)
    with pytest.raises(Conflict, match="reversal cannot be reversed"):
        check_reversible("reversal", already_reversed=False)


def _walk(method: str, actions: list[str]) -> str:
    state = "requested"
    for action in actions:
        state = next_state(state, action, method)
    return state


@pytest.mark.parametrize("method", [m for m in SLIP_METHODS if m not in FACILITY])
def test_direct_methods_go_straight_to_transit(method):
    assert _walk(method, ["dispatch", "deliver"]) == "delivered"
    with pytest.raises(Conflict):
        next_state("requested", "confirm_funds", method)


@pytest.mark.parametrize("method", FACILITY)
def test_facility_methods_need_funds_confirmed_first(method):
    with pytest.raises(Conflict, match="confirmed"):
        next_state("requested", "dispatch", method)
    assert _walk(method, ["confirm_funds", "dispatch", "deliver"]) == "delivered"


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("action", list(MOVES))
def test_every_move_from_every_state(state, action):
    """Closed slips (delivered, cancelled) never move; open ones may always be cancelled."""
    sources, target = MOVES[action]
    method = "cheque" if action == "confirm_funds" or state == "funds_confirmed" else "cash"
    if state in sources:
        assert next_state(state, action, method) == target
    else:
        with pytest.raises(Conflict) as err:
            next_state(state, action, method)
        assert err.value.rule == "R31"
    if state in ("delivered", "cancelled"):
        assert state not in sources


def test_four_eyes_on_delivery_r31_r61():
    check_confirmer(authorised_by=1, confirmer=2)
    for confirmer in (1, None):
        with pytest.raises(Conflict) as err:
            check_confirmer(authorised_by=1, confirmer=confirmer)
        assert err.value.rule == "R31" and "R61" in err.value.message
