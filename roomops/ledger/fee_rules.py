"""Session fees (time and the drop, R50) and rake (R51) with no Flask or database.

Amounts are integer minor units; times are aware datetimes. Nothing here is stored: what a player
owes and for how long is derived from the paid periods and ``now``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from roomops.errors import Conflict, Invalid
from roomops.games.terms import percent_text

HOUR = timedelta(hours=1)


def step_value(default: int, steps: Iterable[Mapping[str, int]] | None, key: str, value: str,
               at: int) -> int:
    """A schedule lookup shared by the time fee and the drop (R50) and the rake (R51): ``steps`` are
    ``{key: n, value: amount}`` meaning "from n, this amount"; the step with the largest ``key``
    not above ``at`` applies, and below the first step (or with no schedule) ``default``."""
    found = default
    for step in sorted(steps or (), key=lambda s: s[key]):
        if step[key] <= at:
            found = step[value]
    return found


# R50: what one paid period of a time game covers (the game's ``fee_kind``)
PERIODS: dict[str, timedelta] = {"hourly": HOUR, "halfhour": timedelta(minutes=30)}


def period(fee_kind: str, variant: str) -> timedelta:
    """R50: the period a game's session fee pays for: an hour, or half an hour; a game charging no
    fee for time is refused."""
    if fee_kind not in PERIODS:
        raise Conflict(f"{variant} charges no session fee for time", "R50")
    return PERIODS[fee_kind]


def fee_for_players(flat: int, by_players: Iterable[Mapping[str, int]] | None, players: int) -> int:
    """R50: a fee by the number of players: the time fee for the coming period with ``players``
    seated, or the drop of a hand with ``players`` dealt in. ``by_players`` is the game's schedule,
    steps ``{"players": n, "fee": amount}`` meaning "from n players, this fee"; below the first
    step (or with no schedule) the flat fee."""
    return step_value(flat, by_players, "players", "fee", players)


def next_period(paid_until: datetime | None, now: datetime,
                length: timedelta = HOUR) -> tuple[datetime, datetime]:
    """R50: the period (an hour, or ``length``) a collection at ``now`` pays for. Paid in advance:
    a player still covered (``paid_until`` after now) extends from where the last paid period
    ends; a player not covered (never paid at this seat, or their period has ended) pays for the
    coming period from now, so a lapse is never charged backwards."""
    start = paid_until if paid_until is not None and paid_until > now else now
    return start, start + length


def drop_amount(flat: int, by_players: Iterable[Mapping[str, int]] | None, players: int | None,
                sent: int | None = None) -> int:
    """R50: the drop taken from a hand dealt to ``players``: the game's schedule step for them,
    else its flat drop. A schedule needs the count; nothing to take is refused; an amount
    ``sent`` (what the dealer's screen showed) must be the one in force."""
    steps = list(by_players or ())
    if steps and players is None:
        raise Invalid("the drop depends on the number of players dealt in: send players", "R50")
    amount = fee_for_players(flat, steps, players or 0)
    if amount <= 0:
        raise Conflict(f"no drop is taken from a hand dealt to {players} players", "R50")
    if sent is not None and sent != amount:
        raise Conflict("the drop in force is {amount}, not {sent}: the game's drop has changed",
                       "R50", amounts={"amount": amount, "sent": sent})
    return amount


@dataclass(frozen=True)
class Due:
    """R50: a seated player's fee state at ``now``. ``due_since``: when their paid period ended (or
    when they sat down, never having paid); None while covered."""

    paid_until: datetime | None
    due_since: datetime | None
    due_seconds: int

    @property
    def is_due(self) -> bool:
        return self.due_since is not None


def due(paid_until: datetime | None, seated_at: datetime, now: datetime) -> Due:
    """R50: a seated player whose paid period has ended is due, since it ended; one who never paid
    at this seat is due since sitting down."""
    if paid_until is not None and paid_until > now:
        return Due(paid_until, None, 0)
    since = paid_until if paid_until is not None else seated_at
    return Due(paid_until, since, max(0, int((now - since).total_seconds())))


MIN_DEALT, MAX_DEALT = 2, 10  # R51: a raked pot has two players dealt in at least; ten seats at most


BP_PER_POT = 10_000  # R51: basis points in a whole pot (100%)


@dataclass(frozen=True)
class RakePolicy:
    """R51: a raked game's rake. ``bp``: the percent in basis points (550 is 5.5%). ``schedule``:
    steps ``{"pot": p, "rake": r}``, "from a pot of p, rake r", used instead of ``bp`` when the
    game has one, whatever the game's structure (limit or no-limit). ``cap``: the most a pot is
    raked (0: no cap), or by players dealt with ``caps_by_players``, steps ``{"players": n, "cap":
    c}``, "from n players dealt in, cap c" (below the first step, ``cap``). Rake rounds down to
    ``smallest_chip``; with ``min_one_chip`` a pot the percent or schedule rakes at all is raked
    one chip at least (never above the cap or the pot). The pot is the whole pot of the hand,
    before any split into side pots or between winners: raked once, one cap a hand."""

    bp: int
    cap: int
    smallest_chip: int
    no_flop_no_drop: bool = True
    schedule: tuple[Mapping[str, int], ...] = ()
    caps_by_players: tuple[Mapping[str, int], ...] = ()
    min_one_chip: bool = False

    def cap_for(self, players: int | None) -> int:
        """The cap with ``players`` dealt in (0: none). A cap by players needs the count."""
        if not self.caps_by_players:
            return self.cap
        if players is None:
            raise Invalid("the cap depends on the number of players dealt in: send players", "R51")
        return step_value(self.cap, self.caps_by_players, "players", "cap", check_players(players))

    def hand_ceiling(self, players: int | None) -> int | None:
        """The most any one hand can be raked whatever its pot, rounded down to the smallest chip:
        the cap, or the schedule's top step when it is lower; None when nothing bounds it (a
        percent with no cap)."""
        cap = self.cap_for(players)
        bounds = [cap] if cap > 0 else []
        if self.schedule:
            bounds.append(max(max(s["rake"] for s in self.schedule),
                              self.smallest_chip if self.min_one_chip else 0))
        return _whole_chips(min(bounds), self.smallest_chip) if bounds else None


def check_players(players: object, rule: str = "R51") -> int:
    """R51 (R50 for a drop): the number of players dealt in, 2 to 10."""
    if type(players) is not int or not MIN_DEALT <= players <= MAX_DEALT:
        raise Invalid(f"players dealt in must be a whole number from {MIN_DEALT} to {MAX_DEALT}",
                      rule)
    return players


def _whole_chips(amount: int, smallest_chip: int) -> int:
    if smallest_chip <= 0:
        raise ValueError("the smallest chip must be positive")
    return amount - amount % smallest_chip


def max_rake(pot: int, policy: RakePolicy, players: int | None = None) -> int:
    """R51: the most rake a pot allows (after any uncalled bet was returned): the schedule's step
    for the pot, or ``bp`` of it; one smallest chip at least under ``min_one_chip`` when that is
    above nothing; never more than the cap for the players dealt in nor the pot; rounded down to
    the smallest chip (a cap or step in odd units too). Integer arithmetic only."""
    if policy.schedule:
        share = step_value(0, policy.schedule, "pot", "rake", pot)
    else:
        share = pot * policy.bp // BP_PER_POT
    if policy.min_one_chip and share > 0:
        share = max(share, policy.smallest_chip)
    cap = policy.cap_for(players)
    if cap > 0:
        share = min(share, cap)
    return _whole_chips(min(share, pot), policy.smallest_chip)


def check_rake(rake: int, pot: int, flop: bool, policy: RakePolicy,
               players: int | None = None) -> int:
    """R51: a recorded rake is whole smallest chips, refused above what the pot allows, or at all
    on a hand with no flop under no-flop-no-drop. Returns the maximum. The pot is after any
    uncalled bet was returned."""
    if type(pot) is not int or pot < 0 or type(rake) is not int or rake <= 0:
        raise Invalid("pot and rake are whole numbers of minor units, the rake positive", "R51")
    if policy.no_flop_no_drop and not flop:
        raise Conflict("no flop, no drop: a hand that ended before the flop is not raked", "R51")
    _check_whole_chips(rake, policy.smallest_chip, "rake")
    most = max_rake(pot, policy, players)
    if rake > most:
        how = "the schedule" if policy.schedule else f"{percent_text(policy.bp)}%"
        cap = policy.cap_for(players)
        raise Conflict(f"rake {{rake}} is more than the pot of {{pot}} allows: at most {{most}} "
                       f"({how}{', cap {cap}' if cap else ''}, rounded down to the smallest chip "
                       "{chip})", "R51", amounts={"rake": rake, "pot": pot, "most": most,
                                                  "cap": cap, "chip": policy.smallest_chip})
    return most


def _check_whole_chips(amount: int, smallest_chip: int, what: str) -> None:
    """R51: rake is taken in the game's chips: a whole number of its smallest chip."""
    if amount % smallest_chip:
        raise Invalid(f"the {what} {{amount}} is not a whole number of the smallest chip ({{chip}})",
                      "R51", amounts={"amount": amount, "chip": smallest_chip})


def check_down_rake(amount: int, ceilings: Iterable[int | None], smallest_chip: int) -> int | None:
    """R51: a dealer down's rake is positive, whole chips, and at most the sum of its hands' ceilings
    (``RakePolicy.hand_ceiling`` per hand, i.e. cap x hands when every hand has the same cap);
    unbounded when any hand is (a percent with no cap). Pots are not recorded per hand in a down,
    so no-flop-no-drop is the dealer's to apply. Returns the most allowed (None: no bound)."""
    if type(amount) is not int or amount <= 0:
        raise Invalid("the down's rake is a positive whole number of minor units", "R51")
    _check_whole_chips(amount, smallest_chip, "down's rake")
    each = list(ceilings)
    if any(c is None for c in each):
        return None
    most = sum(c for c in each if c is not None)
    if amount > most:
        raise Conflict(f"rake {{amount}} is more than the down's {len(each)} hands allow "
                       "({most}: the cap of each hand added up)", "R51",
                       amounts={"amount": amount, "most": most})
    return most
