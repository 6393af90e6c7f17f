"""Time collection (R50, issue 44): when a time game's players pay, and for what, under the room's
settings. Pure: no Flask, no database; times are aware datetimes.

- Paid in advance at the collection times (``clock``, the default): the times fall every period
  (an hour, or half an hour) from the gaming day's start, so on the hour (and the half hour) for a
  day starting on the hour. A collection pays to the next collection time; a player still covered
  pays the period after their paid one. A player who sits down between collections pays on
  sitting for the rest of the period, the whole fee, except (``new_player_minutes``) one sitting
  down just before a collection while the list is short: their first fee covers the next period
  too, so they are not charged twice within minutes.
- Or each player's own period (``own``): a fee pays an hour (half an hour) from when it is paid
  (``fee_rules.next_period``).
- When a due player pays (``pay_when``): with ``all_pay_waiting`` or more waiting for the game,
  everyone due pays before the next hand is dealt; while nobody waits, a player who declines may
  play on until their big blind (``decline_until_bb``); otherwise they pay now or give up the seat
  to a waiting player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from roomops.ledger.fee_rules import next_period

PayWhen = Literal["before_next_hand", "by_big_blind", "now"]


@dataclass(frozen=True)
class TimeRules:
    """R50: the room's time-collection settings (``rooms.time_*``), with their defaults."""

    clock: bool = True
    new_player_minutes: int = 10
    all_pay_waiting: int = 2
    decline_until_bb: bool = True

    def short_list(self, waiting: int) -> bool:
        """Fewer are waiting than make everyone pay before the next hand."""
        return waiting < self.all_pay_waiting


def collection_before(at: datetime, day_start: datetime, length: timedelta) -> datetime:
    """R50: the last collection time at or before ``at``: every ``length`` from a gaming day's
    start (``day_start``, any day's: the times repeat)."""
    return day_start + ((at - day_start) // length) * length


def paid_period(paid_until: datetime | None, seated_at: datetime, now: datetime,
                length: timedelta, day_start: datetime, rules: TimeRules,
                waiting: int) -> tuple[datetime, datetime]:
    """R50: the period a fee collected ``now`` pays for (start, end). ``paid_until``: the end of the
    seat's last paid period (None: never paid here); ``waiting``: players waiting for the game."""
    if not rules.clock:
        return next_period(paid_until, now, length)
    start = paid_until if paid_until is not None and paid_until > now else now
    end = collection_before(start, day_start, length) + length
    if paid_until is None and exempt(seated_at, end, rules, waiting):
        end += length
    return start, end


def exempt(seated_at: datetime, collection: datetime, rules: TimeRules, waiting: int) -> bool:
    """R50: a new player who sat down within ``new_player_minutes`` before ``collection`` is not
    charged it while the list is short."""
    return (rules.clock and rules.new_player_minutes > 0 and rules.short_list(waiting)
            and collection - seated_at <= timedelta(minutes=rules.new_player_minutes))


def pay_when(waiting: int, rules: TimeRules) -> PayWhen:
    """R50: when a due player of a game with ``waiting`` players waiting pays."""
    if not rules.short_list(waiting):
        return "before_next_hand"
    if waiting == 0 and rules.decline_until_bb:
        return "by_big_blind"
    return "now"
