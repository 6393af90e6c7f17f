"""When a typed password may be checked (R61 for log-ins, R28 for approvals; docs/security.md,
"Logins"). Plain Python: the counts come from ``roomops.lockouts.services``.

- Each wrong password for a username from an address adds to that pair's count; a right one from
  there clears it. From the third in a row, the next try waits: 1 s, then 2, 4, ... at most
  ``MAX_DELAY`` (a growing delay, for everyone).
- From an address the account has not used before, ``per_pair`` failures of the pair, or
  ``per_address`` failures of any usernames from the address, lock it out until a ``window``
  after the last of them (the tries are not even checked, so not counted, meanwhile).
- From a known address (the account logged in or approved from it with the right password) there
  is no lockout, only the delay: someone guessing from elsewhere, or from the same address, never
  keeps the right person out for longer than the delay.
Failures older than the window no longer count."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from roomops.text import typed_name

FREE = 3  # failures in a row that cost no wait: a person mistyping twice waits for nothing
MAX_DELAY = timedelta(seconds=60)
TYPED_MAX = 100  # characters of a typed username kept as a key (and logged)


def typed(name: object) -> str:
    """A typed username as the counts key it: trimmed, in NFC, case folded, bounded."""
    return typed_name(str(name or "")).casefold()[:TYPED_MAX]


@dataclass(frozen=True)
class Limits:
    per_pair: int  # failures of one username from one unknown address before it is locked
    per_address: int  # failures of any usernames from one unknown address
    window: timedelta


@dataclass(frozen=True)
class Counted:
    """What is counted within the window for one try: the pair's failures and the last one's
    time, the address's (every username), and whether the account knows the address."""

    failures: int
    last_at: datetime | None
    address_failures: int
    address_last_at: datetime | None
    known: bool


@dataclass(frozen=True)
class Wait:
    until: datetime
    locked: bool  # a lockout of the pair (or of the address, ``whole_address``), or a delay
    whole_address: bool = False


def delay(failures: int) -> timedelta:
    """The wait after ``failures`` wrong passwords in a row of one username from one address."""
    if failures < FREE:
        return timedelta(0)
    return min(timedelta(seconds=2 ** (failures - FREE)), MAX_DELAY)


def wait(counted: Counted, now: datetime, limits: Limits) -> Wait | None:
    """How long this try must wait before its password is checked; None: check it now."""
    if not counted.known:
        if counted.failures >= limits.per_pair and counted.last_at is not None:
            return Wait(counted.last_at + limits.window, locked=True)
        if counted.address_failures >= limits.per_address and counted.address_last_at is not None:
            return Wait(counted.address_last_at + limits.window, locked=True, whole_address=True)
    if counted.last_at is not None and counted.last_at + delay(counted.failures) > now:
        return Wait(counted.last_at + delay(counted.failures), locked=False)
    return None


def in_words(left: timedelta) -> str:
    """"12 seconds", "15 minutes": how long a person waits, rounded up."""
    seconds = max(1, -int(-left.total_seconds() // 1))
    if seconds < 90:
        return f"{seconds} second{'s' if seconds > 1 else ''}"
    return f"{-(-seconds // 60)} minutes"
