"""Ledger and transit rules with no Flask or database (R28, R30-R32, R52, R61).

Sign convention (R52): a ledger amount is the change in chips in play at the table, in integer
minor units. Chips going into play (buy-in, add-on, a delivered transit) are positive; chips leaving
play (cash-out, session fee, rake) are negative; a reversal is the exact opposite of the row it
corrects. So the sum of a table's rows is what should be in play there before any hand is dealt."""

from __future__ import annotations

from roomops.errors import Conflict, Invalid

INTO_PLAY = ("buy_in", "add_on", "transit")
OUT_OF_PLAY = ("cash_out", "session_fee", "rake")
KINDS = (*INTO_PLAY, *OUT_OF_PLAY, "reversal")
METHODS = ("cash", "chips", "card", "cheque", "credit")
FACILITY = ("cheque", "credit")  # R31: funds confirmed by a supervisor before chips play behind

# Transit slip states (R31) and the action that reaches each from the states it may come from.
OPEN = ("requested", "funds_confirmed", "in_transit")
STATES = (*OPEN, "delivered", "cancelled")
MOVES: dict[str, tuple[tuple[str, ...], str]] = {
    "confirm_funds": (("requested",), "funds_confirmed"),
    "dispatch": (("requested", "funds_confirmed"), "in_transit"),
    "deliver": (("in_transit",), "delivered"),
    "cancel": (OPEN, "cancelled"),
}


def check_amount(amount: object, rule: str) -> int:
    """A movement is a positive whole number of minor units; never a float, a bool or zero."""
    if type(amount) is not int:
        raise Invalid(f"amount {amount!r} is not a whole number of minor units", rule)
    if amount <= 0:
        raise Invalid(f"amount {amount} must be positive", rule)
    return amount


def check_method(method: str, rule: str) -> None:
    if method not in METHODS:
        raise Invalid(f"method {method!r} is not one of {', '.join(METHODS)}", rule)


def check_currency(currency: str | None, room_currency: str) -> None:
    """R32: foreign currency does not play; only the room's currency is taken."""
    if currency is not None and currency.upper() != room_currency:
        raise Invalid(f"{currency} is not the room's currency ({room_currency}): foreign "
                      "currency does not play", "R32")


def signed(kind: str, amount: int) -> int:
    """The stored amount for a movement of ``amount`` chips of ``kind`` (see the module doc)."""
    if kind in INTO_PLAY:
        return amount
    if kind in OUT_OF_PLAY:
        return -amount
    raise ValueError(f"{kind} has no sign of its own")


def check_reversible(kind: str, already_reversed: bool) -> None:
    """R52: a row is reversed at most once, and a reversal is never itself reversed (post the
    movement again instead)."""
    if kind == "reversal":
        raise Conflict("a reversal cannot be reversed: post the movement again instead", "R52")
    if already_reversed:
        raise Conflict("this row has already been reversed", "R52")


def next_state(state: str, action: str, method: str) -> str:
    """R31: requested -> (funds_confirmed, facility methods only) -> in_transit -> delivered, or
    cancelled from any open state. A facility slip is not dispatched before its funds are
    confirmed."""
    sources, target = MOVES[action]
    if action == "confirm_funds" and method not in FACILITY:
        raise Conflict(f"a {method} transit needs no funds confirmation", "R31")
    if state not in sources:
        raise Conflict(f"a {state.replace('_', ' ')} slip cannot be {_PAST[action]}", "R31")
    if action == "dispatch" and method in FACILITY and state != "funds_confirmed":
        raise Conflict(f"{method} funds must be confirmed by a supervisor before the chips go",
                       "R31")
    return target


_PAST = {"confirm_funds": "funds-confirmed", "dispatch": "dispatched", "deliver": "delivered",
         "cancel": "cancelled"}


def check_confirmer(authorised_by: int | None, confirmer: int | None) -> None:
    """R31/R61: a different staff member confirms delivery: nobody confirms their own
    authorisation."""
    if confirmer is None or confirmer == authorised_by:
        raise Conflict("the delivery must be confirmed by someone other than the supervisor who "
                       "authorised it: nobody confirms their own authorisation (R61)", "R31")
