"""Whether the sweep is late (docs/decisions.md, "The scheduler's heartbeat"): pure rules.

The sweep is what releases the room's timers on time: offers (R20, R22), check-ins (R12), breaks
and time away (R24, R26). When no scheduler has swept for longer than the deployment's
``sweep_stale_seconds``, nobody is releasing them, and every screen that shows timers says so; when
a room's own sweep has been failing for longer than that, that room's screens say so."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class SweepState:
    """``age``: whole seconds since the freshest sweep, None when no sweep ever ran."""

    age: int | None
    stale: bool


def sweep_state(last_run: datetime | None, now: datetime, stale_after: float) -> SweepState:
    """Stale when the freshest sweep is more than ``stale_after`` seconds old, or never ran (a
    scheduler that never started is the one most easily lost). A sweep stamped after ``now`` (a
    server whose clock runs ahead) is fresh, not of a negative age."""
    if last_run is None:
        return SweepState(None, True)
    seconds = max(0.0, (now - last_run).total_seconds())
    return SweepState(int(seconds), seconds > stale_after)


def room_last_run(last_run: datetime | None, failing_since: datetime | None) -> datetime | None:
    """When the room's timers were last released: the freshest sweep, unless the room's own sweep
    has been failing since an earlier one (its screens are late while the other rooms' are not).
    None: no scheduler ever swept."""
    if last_run is None or failing_since is None:
        return last_run
    return min(last_run, failing_since)
