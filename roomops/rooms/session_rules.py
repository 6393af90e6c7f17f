"""When a log-in session ends by time (R61; docs/security.md, "Sessions"). Plain Python: the user
loader asks it on every request with the app's clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta


@dataclass(frozen=True)
class SessionLimits:
    """A deployment's limits (ROOMOPS_SESSION_IDLE_MINUTES, ROOMOPS_SESSION_MAX_HOURS)."""

    idle: timedelta
    lifetime: timedelta


def session_expired(limits: SessionLimits, logged_in: datetime, last_seen: datetime,
                    now: datetime) -> bool:
    """Whether a session is over: idle for longer than ``limits.idle`` since its last request, or
    older than ``limits.lifetime`` since its log-in however busy it was. A time after ``now`` (a
    clock set back) counts as no time, not as a reason to end it."""
    return now - last_seen > limits.idle or now - logged_in > limits.lifetime
