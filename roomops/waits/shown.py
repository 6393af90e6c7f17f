"""What a player is shown of an estimated wait (R10-R14, R80), and how it is scored.

Plain Python. ``shown`` turns the model's ``Estimate`` (minutes, floats) into the whole minutes a
player reads, ``Shown``; the words are made from it (``minutes_text``, ``wait_text``), it is kept
on the list entry as the player joins (``roomops.waits.services.keep_wait_shown``) and
``contains`` scores it against the real wait, on the figures screen and in ``bench/waits.py``:
what is evaluated is what the player saw (docs/waits.md, "What a player sees").

- The short end is honest: a range reaching down to nothing is "under 5 min" or "up to 15", never
  "5-10" for a two-minute wait.
- The long end is coarse: steps of 5 minutes up to half an hour, then 10, 15 and 30; a range
  whose top is beyond three hours is open-ended ("~90 min (40-180+)", "over 3 hours"), its
  median shown as three hours at most.
- The low end is rounded down and the high end up: rounding only widens the range.
- An estimate from priors, the room having seen too little yet, says so ("early estimate").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from roomops.waits.model import Estimate
from roomops.words import Translate, english

SHORT_MINUTES = 5  # a range whose top is within this reads "under 5 min"
LONG_MINUTES = 180  # a range whose top is beyond this is open-ended
# (up to and including these minutes, the step figures are rounded to)
STEPS = ((30, 5), (60, 10), (120, 15), (math.inf, 30))


@dataclass(frozen=True)
class Shown:
    """A wait as shown, in whole minutes: ``high`` None is open-ended ("or more")."""

    low: int
    median: int
    high: int | None
    early: bool = False  # from priors: the room has seen too little to go on


def _step(minutes: float) -> int:
    return next(step for top, step in STEPS if minutes <= top)


def _down(minutes: float) -> int:
    step = _step(minutes)
    return int(step * math.floor(minutes / step))


def _up(minutes: float) -> int:
    step = _step(minutes)
    return int(step * math.ceil(minutes / step))


def shown(est: Estimate) -> Shown:
    """R10-R14: the estimate as a player reads it, its range only ever widened by rounding."""
    if est.high <= SHORT_MINUTES:
        return Shown(0, min(SHORT_MINUTES, round(est.median)), SHORT_MINUTES, est.early)
    low = _down(est.low)
    high = None if est.high > LONG_MINUTES else _up(est.high)
    step = _step(est.median)
    median = min(int(step * round(est.median / step)), LONG_MINUTES if high is None else high)
    return Shown(low, max(low, median), high, est.early)


def contains(s: Shown, real: float) -> bool:
    """R80: the real wait (minutes) lies in the range shown."""
    return s.low <= real and (s.high is None or real <= s.high)


def minutes_text(s: Shown, tr: Translate = english) -> str:
    """The wait in words: "under 5 min", "~10 min (up to 15)", "~25 min (15-40)", "~90 min
    (40-180+)", "over 3 hours"; ", early estimate" after it when it comes from priors."""
    if s.high is None and s.low >= LONG_MINUTES:
        text = tr("over {hours} hours").format(hours=LONG_MINUTES // 60)
    elif s.high is None:
        text = tr("~{median} min ({low}-{high}+)").format(median=s.median, low=s.low, high=LONG_MINUTES)
    elif s.high <= SHORT_MINUTES:
        text = tr("under {high} min").format(high=s.high)
    elif s.low == 0:
        text = tr("~{median} min (up to {high})").format(median=s.median, high=s.high)
    else:
        text = tr("~{median} min ({low}-{high})").format(median=s.median, low=s.low, high=s.high)
    return tr("{wait}, early estimate").format(wait=text) if s.early else text


def wait_text(est: Estimate | None, seats_open: bool, tr: Translate = english) -> str:
    """The board's line for a new player: "Seats open now", "Typical wait ~25 min (15-40)", or
    nothing without a figure (no table running); in the language of ``tr`` (``roomops.words``).
    Seats open is a fact, not an estimate: it needs no history."""
    if seats_open:
        return tr("Seats open now")
    return "" if est is None else tr("Typical wait {minutes}").format(minutes=minutes_text(shown(est), tr))
