"""Ledger and transit rules with no Flask or database (R28, R30-R32, R52, R61).

Sign convention (R52): a ledger amount is the change in chips in play at the table, in integer
minor units. Chips going into play (buy-in, add-on, a delivered transit) are positive; chips leaving
play (cash-out, session fee, rake) are negative; a reversal is the exact opposite of the row it
corrects. So the sum of a table's rows is what should be in play there before any hand is dealt.

A table change (R18) carries the player's stack: a ``transfer`` pair, the stack out of the old
table (negative) and into the new one (positive), so each table's figure follows the chips while
the pair nets to zero in every total but the tables' (``TRANSFER``)."""

from __future__ import annotations

from typing import Literal, get_args

from roomops.errors import Conflict, Invalid

# The ``Literal`` types are the values of the ledger's and the slips' columns; the tuples are the
# same values at run time (the models build their CHECK constraints from them).
AtTableKind = Literal["buy_in", "add_on"]  # R32: the only movements cash at the table pays for
IntoPlay = Literal[AtTableKind, "transit"]
OutOfPlay = Literal["cash_out", "session_fee", "rake", "drop"]  # drop: R50, a fee per hand
Transfer = Literal["transfer"]  # R18: a stack carried to another table, one row each way (signed)
EntryKind = Literal[IntoPlay, OutOfPlay, "reversal", Transfer]
# R32: cash handed over at the table (announced, changed for chips there) rather than at the cage;
# stored as ``table`` (the column is 8 characters), shown as "cash at the table"
AtTable = Literal["table"]
Facility = Literal["cheque", "credit"]  # R31: funds confirmed by a supervisor before chips play behind
# "cash" apart so that cash at the table comes right after it wherever methods are listed
_Cash = Literal["cash"]
_CageOnly = Literal["chips", "card", Facility]
SlipMethod = Literal[_Cash, _CageOnly]  # R31: transits come from the cage
Method = Literal[_Cash, AtTable, _CageOnly]  # ledger rows
# R50: a session fee is paid in chips at the table or in cash at the cage; a drop is taken from the
# pot, in chips. Only these are offered (the desk's forms, the API's enums) and accepted.
FeeMethod = Literal["chips", _Cash]
DropMethod = Literal["chips"]

INTO_PLAY: tuple[IntoPlay, ...] = get_args(IntoPlay)
OUT_OF_PLAY: tuple[OutOfPlay, ...] = get_args(OutOfPlay)
TRANSFER: Transfer = "transfer"  # mypy checks it against ``Transfer``
KINDS: tuple[EntryKind, ...] = get_args(EntryKind)
AT_TABLE: AtTable = "table"
SLIP_METHODS: tuple[SlipMethod, ...] = get_args(SlipMethod)
METHODS: tuple[Method, ...] = get_args(Method)
AT_TABLE_KINDS: tuple[AtTableKind, ...] = get_args(AtTableKind)
METHOD_NAMES: dict[str, str] = {AT_TABLE: "cash at the table"}
CHIPS: DropMethod = "chips"
FEE_METHODS: tuple[FeeMethod, ...] = get_args(FeeMethod)
DROP_METHODS: tuple[DropMethod, ...] = get_args(DropMethod)
# R50: the methods a fee may be taken in, and how the refusal says so
FEE_TAKEN: dict[str, tuple[tuple[str, ...], str]] = {
    "session_fee": (FEE_METHODS, "a session fee is paid in chips at the table or in cash at the cage"),
    "drop": (DROP_METHODS, "a drop is taken from the pot in chips"),
}
FACILITY: tuple[Facility, ...] = get_args(Facility)

# Transit slip states (R31) and the action that reaches each from the states it may come from.
OpenState = Literal["requested", "funds_confirmed", "in_transit"]
SlipState = Literal[OpenState, "delivered", "cancelled"]
OPEN: tuple[OpenState, ...] = get_args(OpenState)
STATES: tuple[SlipState, ...] = get_args(SlipState)
MOVES: dict[str, tuple[tuple[SlipState, ...], SlipState]] = {
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
        raise Invalid("amount {amount} must be positive", rule, amounts={"amount": amount})
    return amount


def check_method(method: str, rule: str, kind: str) -> None:
    """A ledger row's method for a movement of ``kind`` (``transit``: a slip's). R32: cash at the
    table only buys chips at the table (a buy-in, an add-on or a rebuy); a transit comes from the
    cage, a cash-out is paid at the cage. R50: a session fee is taken in chips or cash at the
    cage, a drop in chips (``FEE_TAKEN``)."""
    if method == AT_TABLE and kind not in AT_TABLE_KINDS:
        raise Invalid(f"cash at the table only buys chips at the table (a buy-in or an add-on), "
                      f"not a {kind.replace('_', ' ')}: the cage takes or pays it", "R32")
    allowed = SLIP_METHODS if kind == "transit" else METHODS
    if method not in allowed:
        raise Invalid(f"method {method!r} is not one of {', '.join(allowed)}", rule)
    taken, how = FEE_TAKEN.get(kind, (allowed, ""))
    if method not in taken:
        raise Invalid(f"{how}, not {method_name(method)}", "R50")


def method_name(method: str) -> str:
    """How a method is shown to staff: ``table`` is "cash at the table" (R32)."""
    return METHOD_NAMES.get(method, method)


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
    if kind == TRANSFER:
        raise Conflict("a transfer follows a table change (R18): it is not a money mistake and is "
                       "not reversed on its own (a miscounted stack is a variance explained at "
                       "the count, R54)", "R52")
    if already_reversed:
        raise Conflict("this row has already been reversed", "R52")


def check_second_person(required: bool, poster: int, reverser: int | None) -> None:
    """R52: where the room requires two people, a row is reversed by someone other than its
    poster (the ledger's trigger refuses it too, migration 0023)."""
    if required and poster == reverser:
        raise Conflict("you posted this row: the room requires a second person to reverse it "
                       "(a supervisor who did not post it)", "R52")


def next_state(state: str, action: str, method: str) -> SlipState:
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
