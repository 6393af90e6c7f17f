"""Break and away rules with no Flask or database (R23-R26)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from roomops.errors import Conflict, Invalid


@dataclass(frozen=True)
class BreakPolicy:
    """R23: the room's break policies."""

    break_minutes: int = 60
    after_play_minutes: int = 60
    per_gaming_day: int = 1
    per_table: int = 3


@dataclass(frozen=True)
class Refusal:
    reason: str
    rule: str


def break_refusal(policy: BreakPolicy, now: datetime, playing_since: datetime, breaks_today: int,
                  on_break_at_table: int) -> Refusal | None:
    """R23: why a seated player may not take a break now, or None when they may.

    ``playing_since``: when their continuous play began (sat down, or their last break or away
    ended); ``breaks_today``: breaks already taken this gaming day (R2); ``on_break_at_table``:
    players at the table whose break is running."""
    played = now - playing_since
    if played < timedelta(minutes=policy.after_play_minutes):
        left = timedelta(minutes=policy.after_play_minutes) - played
        return Refusal(f"a break needs {policy.after_play_minutes} minutes of continuous play; "
                       f"{_minutes(left)} to go", "R23")
    if breaks_today >= policy.per_gaming_day:
        return Refusal(f"the player has had {breaks_today} of {policy.per_gaming_day} breaks "
                       "allowed this gaming day", "R23")
    if on_break_at_table >= policy.per_table:
        return Refusal(f"{on_break_at_table} players at this table are on a break already "
                       f"(at most {policy.per_table})", "R23")
    return None


def granted_over(refusal: Refusal | None, override_reason: str | None) -> str | None:
    """R23 with R60: a break the rules allow needs no reason (None; one given is not recorded); a
    refused one is granted only by a supervisor's written reason, returned stripped for the audit
    row. Without one the refusal stands, saying it can be overridden; a blank reason is refused."""
    if override_reason is not None and not override_reason.strip():
        raise Invalid("granting a break the rules refuse needs a written reason", "R23")
    if refusal is None:
        return None
    if override_reason is None:
        raise Conflict(f"{refusal.reason}; a supervisor may grant it with a written reason",
                       refusal.rule)
    return override_reason.strip()


def break_deadline(started_at: datetime, break_minutes: int) -> datetime:
    """R23/R24: the break runs out ``break_minutes`` after it starts, to the second."""
    return started_at + timedelta(minutes=break_minutes)


def away_deadline(started_at: datetime, max_away_minutes: int | None) -> datetime | None:
    """R26: with ``max_away_minutes`` set, an away player loses the seat after it; off: never."""
    return None if max_away_minutes is None else started_at + timedelta(minutes=max_away_minutes)


def is_running(deadline: datetime | None, now: datetime) -> bool:
    """R24/R26: an absence runs strictly before its deadline; at the deadline the seat is lost,
    whether or not the sweep has run yet."""
    return deadline is None or now < deadline


def picked_up_for_blinds(kind: str, missed_bb: int, max_missed_bb: int | None) -> bool:
    """R26: a player away who has missed ``max_missed_bb`` big blinds loses the seat; off: never.
    A break protects the seat for its whole time (R23): blinds missed on a break are counted for
    the missed-blind buttons (R35) but never cost the seat."""
    return kind == "away" and max_missed_bb is not None and missed_bb >= max_missed_bb


def note_needed(started_at: datetime, now: datetime, note: str | None, notify_minutes: int) -> bool:
    """R25: away over ``away_notify_minutes`` with no where-about note recorded yet."""
    return note is None and now - started_at >= timedelta(minutes=notify_minutes)


def _minutes(delta: timedelta) -> str:
    whole = -(-int(delta.total_seconds()) // 60)  # rounded up: "1 minute" while seconds remain
    return f"{whole} minute{'' if whole == 1 else 's'}"


def check_overplayer_stack(stack: int | None) -> None:
    """R27/R29: the stack an overplayer leaves with (as the owner comes back or the supervisor
    ends the playover) is counted: nothing (0) or more; their cash-out is tied to it."""
    if stack is not None and stack < 0:
        raise Invalid("the overplayer's stack is counted: nothing (0) or more, not {stack}", "R29",
                      amounts={"stack": stack})
