"""Session fees (R50) and rake (R51) with no Flask or database.

Amounts are integer minor units; times are aware datetimes. Nothing here is stored: what a player
owes and for how long is derived from the paid periods and ``now``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from roomops.errors import Conflict, Invalid

HOUR = timedelta(hours=1)


def hourly_fee(flat: int, by_players: Iterable[Mapping[str, int]] | None, players: int) -> int:
    """R50: the fee for the coming hour with ``players`` seated at the table. ``by_players`` is the
    game's schedule, steps ``{"players": n, "fee": amount}`` meaning "from n players seated, this
    fee"; the step with the largest ``players`` not above the count applies, and below the first
    step (or with no schedule) the flat ``hourly_fee``."""
    fee = flat
    for step in sorted(by_players or (), key=lambda s: s["players"]):
        if step["players"] <= players:
            fee = step["fee"]
    return fee


def next_period(paid_until: datetime | None, now: datetime) -> tuple[datetime, datetime]:
    """R50: the hour a collection at ``now`` pays for. Paid in advance: a player still covered
    (``paid_until`` after now) extends from where the last paid hour ends; a player not covered
    (never paid at this seat, or their hour has ended) pays for the coming hour from now, so a
    lapse is never charged backwards."""
    start = paid_until if paid_until is not None and paid_until > now else now
    return start, start + HOUR


@dataclass(frozen=True)
class Due:
    """R50: a seated player's fee state at ``now``. ``due_since``: when their paid hour ended (or
    when they sat down, never having paid); None while covered."""

    paid_until: datetime | None
    due_since: datetime | None
    due_seconds: int

    @property
    def is_due(self) -> bool:
        return self.due_since is not None


def due(paid_until: datetime | None, seated_at: datetime, now: datetime) -> Due:
    """R50: a seated player whose paid hour has ended is due, since it ended; one who never paid
    at this seat is due since sitting down."""
    if paid_until is not None and paid_until > now:
        return Due(paid_until, None, 0)
    since = paid_until if paid_until is not None else seated_at
    return Due(paid_until, since, max(0, int((now - since).total_seconds())))


def max_rake(pot: int, percent: int, cap: int, smallest_chip: int) -> int:
    """R51: the most rake a pot allows: ``percent`` of the pot, rounded down to the game's smallest
    chip, and never more than ``cap`` (a cap of 0: no cap). Integer arithmetic only."""
    if smallest_chip <= 0:
        raise ValueError("the smallest chip must be positive")
    share = pot * percent // 100
    if cap > 0:
        share = min(share, cap)
    return share - share % smallest_chip  # a cap in odd units is rounded down too


def check_rake(rake: int, pot: int, flop: bool, *, percent: int, cap: int, smallest_chip: int,
               no_flop_no_drop: bool) -> int:
    """R51: a recorded rake is refused above what the pot allows, or at all on a hand with no flop
    under no-flop-no-drop. Returns the maximum. The pot is after any uncalled bet was returned."""
    if type(pot) is not int or pot < 0 or type(rake) is not int or rake <= 0:
        raise Invalid("pot and rake are whole numbers of minor units, the rake positive", "R51")
    if no_flop_no_drop and not flop:
        raise Conflict("no flop, no drop: a hand that ended before the flop is not raked", "R51")
    most = max_rake(pot, percent, cap, smallest_chip)
    if rake > most:
        raise Conflict(f"rake {rake} is more than the pot of {pot} allows ({most}: {percent}% "
                       f"rounded down to the smallest chip{f', cap {cap}' if cap else ''})", "R51")
    return most
