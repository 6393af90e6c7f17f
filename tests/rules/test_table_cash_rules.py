"""R32, R18, R52 as pure rules: cash at the table buys chips at the table only, transit slips take
the cage's methods, and a transfer (a stack carried to another table) is never reversed alone."""

from __future__ import annotations

import pytest

from roomops.errors import Conflict, Invalid
from roomops.ledger.rules import (
    AT_TABLE,
    KINDS,
    METHODS,
    SLIP_METHODS,
    TRANSFER,
    check_method,
    check_reversible,
    method_name,
    signed,
)


@pytest.mark.parametrize("kind", ["buy_in", "add_on"])
def test_r32_cash_at_the_table_buys_chips_at_the_table(kind):
    check_method(AT_TABLE, "R30", kind)  # no error


@pytest.mark.parametrize("kind", ["transit", "cash_out", "session_fee"])
def test_r32_cash_at_the_table_pays_for_nothing_else(kind):
    with pytest.raises(Invalid) as err:
        check_method(AT_TABLE, "R28", kind)
    assert err.value.rule == "R32"
    assert "cage" in err.value.message and kind.replace("_", " ") in err.value.message


def test_transit_slips_take_the_cages_methods_and_the_ledger_one_more():
    assert AT_TABLE in METHODS and AT_TABLE not in SLIP_METHODS
    assert set(METHODS) - set(SLIP_METHODS) == {AT_TABLE}
    assert all(len(m) <= 8 for m in METHODS)  # the column is String(8)
    for method in SLIP_METHODS:
        check_method(method, "R31", "transit")


def test_an_unknown_method_names_the_actions_rule():
    with pytest.raises(Invalid) as err:
        check_method("bitcoin", "R31", "transit")
    assert err.value.rule == "R31" and AT_TABLE not in err.value.message
    with pytest.raises(Invalid) as err:
        check_method("bitcoin", "R30", "buy_in")
    assert err.value.rule == "R30" and AT_TABLE in err.value.message


def test_methods_are_shown_by_name():
    assert method_name(AT_TABLE) == "cash at the table"
    assert method_name("cash") == "cash"


def test_r52_a_transfer_is_not_reversed_and_has_no_sign_of_its_own():
    assert TRANSFER in KINDS and len(TRANSFER) <= 12  # the column is String(12)
    with pytest.raises(Conflict) as err:
        check_reversible(TRANSFER, already_reversed=False)
    assert err.value.rule == "R52" and "table change" in err.value.message
    with pytest.raises(ValueError):
        signed(TRANSFER, 5)  # the pair's signs are the carrying table's and the receiving one's
