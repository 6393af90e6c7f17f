"""Turning the desk's HTML forms into the request models of ``roomops.schemas``.

A form sends strings. Before the pydantic model sees them:

* an empty field is "not given" (None, dropped so the model's default applies);
* a checkbox is a bool: ticked when present, False when absent;
* integer fields are converted when they are whole numbers (anything else is left for the model to
  refuse with a 422 naming the field);
* **amounts** are typed in major units of the room's currency ("200", "200.5" or "200.50", in its
  locale's decimal sign) and converted to integer minor units exactly, never via float:
  "200.50" -> 20050 in pounds. More decimals than the currency has, signs, exponents, separators or
  letters are refused (422) rather than guessed at (``roomops.money``).
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from roomops.errors import Invalid
from roomops.schemas import SCHEDULE_RULES
from roomops.web.money import room_money

M = TypeVar("M", bound=BaseModel)

# Amounts typed in the room's currency, each with the rule a refusal of what was typed names:
# the game's stakes and buy-ins (R4), fees (R50), rake (R51), a buy-in (R30), counted stacks
# (R27), chips added (R28), a playover's stacks (R29), the cash-out approval threshold (R28) and
# a lockup's deposit (R13)
MONEY_FIELDS = {"small_blind": "R4", "big_blind": "R4", "ante": "R4", "min_buyin": "R4",
                "max_buyin": "R4", "time_fee": "R50", "drop_fee": "R50", "rake_cap": "R51",
                "smallest_chip": "R51", "buy_in": "R30", "leave_amount": "R27", "stack": "R27",
                "added": "R28", "overplayer_stack": "R29", "other_stack": "R29",
                "cash_out_approval_over": "R28", "deposit": "R13"}
# R51: typed as a percent ("5.5", in the locale's decimal sign), kept in basis points (550)
PERCENT_FIELDS = frozenset({"rake_bp"})
# Schedules typed as "20:1, 40:2" (R51: from a pot of 20, rake 1), "2:3, 5:5" (R51: from 2 players
# dealt in, cap 3) or "2:5, 7:10" (R50: from 7 players seated, 10 an hour; a drop: from 7 players
# dealt in): the step's key, its amount, and whether the key is an amount too
STEP_FIELDS: dict[str, tuple[str, str, bool]] = {"rake_schedule": ("pot", "rake", True),
                                                 "rake_caps_by_players": ("players", "cap", False),
                                                 "time_fee_by_players": ("players", "fee", False),
                                                 "drop_by_players": ("players", "fee", False)}
_WHOLE = re.compile(r"^\d{1,12}$")
_PLAYER_REF = re.compile(r"#\s*(\d{1,10})\s*$")


def to_minor(raw: str, field: str = "amount", rule: str | None = None) -> int:
    """An amount typed in the room's currency, to its minor units (``roomops.money.Money.parse``);
    ``rule``: the one it is typed for, named by a refusal."""
    return room_money().parse(raw, field, rule)


def to_bp(raw: str, field: str) -> int:
    """A percent typed with up to two decimals in the locale's decimal sign, to basis points,
    exactly (never via float): "5.5" -> 550; above 100% is the model's to refuse."""
    sign = room_money().decimal_sign
    match = re.fullmatch(rf"(\d{{1,3}})(?:{re.escape(sign)}(\d{{1,2}}))?", raw)
    if match is None:
        raise Invalid(f"{field}: {raw!r} is not a percent; type it like 10 or 5{sign}5", "R51")
    return int(match[1]) * 100 + int((match[2] or "0").ljust(2, "0"))


def money_input(amount: int | None) -> str:
    """An amount as an input's value: typed back as it is shown, without symbol or grouping."""
    return room_money().field(amount)


def to_steps(raw: str, field: str) -> list[dict[str, int]]:
    """R50/R51: "20:1, 40:2" -> [{"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 200}]; empty: no
    steps. The model then checks the steps themselves."""
    key, value, money_key = STEP_FIELDS[field]
    steps = []
    for part in filter(None, (p.strip() for p in raw.split(_separator()))):
        left, sep, right = (side.strip() for side in part.partition(":"))
        if not sep or not (money_key or _WHOLE.match(left)):
            raise _not_a_step(field, part, money_key)
        try:
            first = to_minor(left, field) if money_key else int(left)
            steps.append({key: first, value: to_minor(right, field)})
        except Invalid:
            raise _not_a_step(field, part, money_key) from None
    return steps


def _separator() -> str:
    """Between steps: a comma, or a semicolon where the room's decimal sign is a comma."""
    return ";" if room_money().decimal_sign == "," else ","


def _not_a_step(field: str, part: str, money_key: bool) -> Invalid:
    example = "20:1, 40:2" if money_key else "2:3, 5:5"
    return Invalid(f"{field}: {part!r} is not a step; type steps like "
                   f"{example.replace(',', _separator())}", SCHEDULE_RULES[field])


def from_steps(steps: Iterable[Mapping[str, int]] | None, field: str) -> str:
    """The steps as the form shows and accepts them back (``to_steps``)."""
    key, value, money_key = STEP_FIELDS[field]
    return f"{_separator()} ".join(
        f"{money_input(s[key]) if money_key else s[key]}:{money_input(s[value])}"
        for s in sorted(steps or (), key=lambda s: s[key]))


def _leaves(annotation: Any) -> list[Any]:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _leaves(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return [leaf for arg in get_args(annotation) for leaf in _leaves(arg)]
    if origin is Literal:
        return [type(v) for v in get_args(annotation)]
    return [annotation]


def field_kind(model: type[BaseModel], name: str) -> str:
    leaves = [leaf for leaf in _leaves(model.model_fields[name].annotation) if leaf is not type(None)]
    if bool in leaves:
        return "bool"
    if leaves and all(leaf is int for leaf in leaves):
        return "int"
    return "str"


def player_ref(raw: str) -> str:
    """A player typed as '12' or picked from the list as 'Ann Lee #12' -> '12'."""
    text = raw.strip()
    match = _PLAYER_REF.search(text)
    return match.group(1) if match else text


def form_data(model: type[BaseModel], form: Mapping[str, str], *,
              bools_absent_false: bool = True, only: Iterable[str] | None = None) -> dict[str, Any]:
    """The model's fields read from the form, converted as described in the module docstring."""
    data: dict[str, Any] = {}
    for name in only or model.model_fields:
        kind = field_kind(model, name)
        raw = form.get(name)
        if kind == "bool":
            if raw is not None:
                data[name] = raw not in ("", "0", "off", "false", "no")
            elif bools_absent_false:
                data[name] = False
            continue
        if name in STEP_FIELDS and raw is not None:
            data[name] = to_steps(raw, name)  # emptied: the schedule is taken off
            continue
        if raw is None or raw.strip() == "":
            continue
        raw = raw.strip()
        if name in MONEY_FIELDS:
            data[name] = to_minor(raw, name, MONEY_FIELDS[name])
        elif name in PERCENT_FIELDS:
            data[name] = to_bp(raw, name)
        elif kind == "int":
            if name.startswith("player"):
                raw = player_ref(raw)
            data[name] = int(raw) if _WHOLE.match(raw) else raw
        else:
            data[name] = raw
    return data


def parse(model: type[M], form: Mapping[str, str], **kwargs: Any) -> M:
    """Validate the form with the model; a ValidationError becomes a 422 naming the field."""
    return model.model_validate(form_data(model, form, **kwargs))
