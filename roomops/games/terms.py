"""The terms of a game as players are told them (R4, R40, R53): stakes, buy-in, straddles and fees.

Pure Python: no Flask, no database. Amounts are integer minor units, written in the room's currency
by ``roomops.money.Money`` (exactly: never a float), so what the board shows is what the room
charges.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from roomops.money import Money
from roomops.words import N_, Translate, english


def straddle_text(allowed: bool, max_straddles: int, button: bool, sanction: bool = False,
                  tr: Translate = english) -> str:
    """R40, as new players must be told it before they sit (in the language of ``tr``,
    ``roomops.words``)."""
    if not allowed:
        return tr("No straddles")
    if max_straddles == 1:
        text = tr("Straddle: UTG only")
    elif max_straddles > 1:
        text = tr("Straddles: up to {count}, in rotation from UTG").format(count=max_straddles)
    else:
        text = tr("Straddles allowed")
    text += tr(", only when the supervisor sanctions them") if sanction else ""
    return text + (tr(", button straddle with the floor's consent") if button
                   else tr(", no button straddle"))


Steps = Iterable[Mapping[str, int]] | Iterable[tuple[int, int]] | None


# R50: the period a time fee pays for, as players are told it
PERIOD_NAMES = {"hourly": "hour", "halfhour": "half hour"}
# and the fee itself, by its period
TIME_FEES = {"hourly": N_("Time: {fee} per hour{steps}, paid in advance"),
             "halfhour": N_("Time: {fee} per half hour{steps}, paid in advance")}


def fee_text(money: Money, kind: str, time_fee: int, rake_bp: int, rake_cap: int,
             by_players: Steps = None, no_flop_no_drop: bool | None = None,
             rake_schedule: Steps = None, rake_caps_by_players: Steps = None,
             min_chip: int = 0, drop_fee: int = 0, drop_by_players: Steps = None,
             tr: Translate = english) -> str:
    """R50/R51, displayed to players as R53 asks: the time fee per hour or half hour with its
    schedule by players seated ("Time: 5 per hour, 6 from 7 players, paid in advance"); the drop
    with its schedule by players dealt in ("Drop: 3 per hand, 5 from 7 players"); the rake
    (``rake_text``); in the language of ``tr`` (``roomops.words``)."""
    if kind in TIME_FEES:
        return tr(TIME_FEES[kind]).format(fee=money(time_fee),
                                          steps=_by_players(money, by_players, tr))
    if kind == "drop":
        return tr("Drop: {fee} per hand{steps}").format(
            fee=money(drop_fee), steps=_by_players(money, drop_by_players, tr))
    if kind == "rake":
        return rake_text(money, rake_bp, rake_cap, no_flop_no_drop, rake_schedule,
                         rake_caps_by_players, min_chip, tr)
    return tr("No fee")


def _by_players(money: Money, steps: Steps, tr: Translate) -> str:
    """R50/R53: a fee's steps by players, ", 6 from 7 players" each, fewest players first."""
    ordered = sorted(_step(s, "players", "fee") for s in steps or ())
    return "".join(tr(", {fee} from {players} players").format(fee=money(fee), players=n)
                   for n, fee in ordered)


def percent_text(bp: int, decimal_sign: str = ".") -> str:
    """R51/R53: a percent kept in basis points as people write it: 1000 is "10", 550 "5.5" (or
    "5,5" where the room's decimal sign is a comma)."""
    whole, part = divmod(bp, 100)
    return f"{whole}{decimal_sign}{part:02d}".rstrip("0") if part else str(whole)


def rake_text(money: Money, bp: int, cap: int, no_flop_no_drop: bool | None = None,
              schedule: Steps = None, caps_by_players: Steps = None, min_chip: int = 0,
              tr: Translate = english) -> str:
    """R51/R53: the rake in force: its schedule per pot (else its percent, ``bp`` in basis
    points), its cap and caps by players dealt in, one chip at least a raked pot (``min_chip``:
    the smallest chip where the game has that rule) and no-flop-no-drop (when given)."""
    steps = sorted(_step(s, "pot", "rake") for s in schedule or ())
    text = tr("Rake: {rake}").format(rake=", ".join(
        tr("{rake} from a pot of {pot}").format(rake=money(r), pot=money(p)) for p, r in steps)
        if steps else f"{percent_text(bp, money.decimal_sign)}%")
    text += tr(", max {cap} a pot").format(cap=money(cap)) if cap else ""
    text += "".join(tr(", max {cap} from {players} players dealt in").format(cap=money(c), players=n)
                    for n, c in sorted(_step(s, "players", "cap") for s in caps_by_players or ()))
    text += tr(", at least {chip} a raked pot").format(chip=money(min_chip)) if min_chip else ""
    return text + (tr(", no flop no drop") if no_flop_no_drop else "")


def _step(step: Mapping[str, int] | tuple[int, int], key: str, value: str) -> tuple[int, int]:
    """A schedule step as (key, value), from the game's JSON or the board's plain tuples."""
    return (step[key], step[value]) if isinstance(step, Mapping) else (step[0], step[1])


def min_chip(smallest_chip: int, min_one_chip: bool) -> int:
    """R51/R53: the least a raked pot is raked, as ``rake_text`` takes it (0: no such rule)."""
    return smallest_chip if min_one_chip else 0


def natural(name: str) -> list[object]:
    """Sort key for table names: table "2" before table "10"."""
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name)]


class Terms(Protocol):
    """A game's straddle and fee settings (the Game model has them)."""

    straddle_allowed: bool
    max_straddles: int
    button_straddle: bool
    straddle_sanction: bool
    fee_kind: str
    time_fee: int
    rake_bp: int
    rake_cap: int
    time_fee_by_players: list[dict[str, Any]] | None
    drop_fee: int
    drop_by_players: list[dict[str, Any]] | None
    rake_no_flop_no_drop: bool
    rake_schedule: list[dict[str, Any]] | None
    rake_caps_by_players: list[dict[str, Any]] | None
    smallest_chip: int
    rake_min_one_chip: bool


def game_rake_text(money: Money, game: Terms) -> str:
    """R51/R53: ``rake_text`` of the game's rake settings."""
    return rake_text(money, game.rake_bp, game.rake_cap, game.rake_no_flop_no_drop,
                     game.rake_schedule, game.rake_caps_by_players,
                     min_chip(game.smallest_chip, game.rake_min_one_chip))


def game_fee_text(money: Money, game: Terms) -> str:
    """R50/R51/R53: ``fee_text`` of the game's fee settings."""
    return fee_text(money, game.fee_kind, game.time_fee, game.rake_bp, game.rake_cap,
                    game.time_fee_by_players, game.rake_no_flop_no_drop, game.rake_schedule,
                    game.rake_caps_by_players, min_chip(game.smallest_chip, game.rake_min_one_chip),
                    game.drop_fee, game.drop_by_players)


def told_before_sitting(money: Money, game: Terms) -> str:
    """R40/R53: what a player offered a seat is told before sitting: straddles and fees."""
    straddles = straddle_text(game.straddle_allowed, game.max_straddles, game.button_straddle,
                              game.straddle_sanction)
    return f"{straddles}. {game_fee_text(money, game)}."
