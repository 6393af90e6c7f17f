"""What one game of the desk's live part is drawn from besides its rows, as a digest: while it is
the same (and its rows' marks, ``roomops.desk.parts``), the game's last drawing is shown again
instead of drawing it anew (issues 21, 41: a change is drawn narrowly). In a 250-table room a
change touches one game of ~40; drawing them all was ~450 ms.

Everything the drawing reads goes in as plain values: the snapshot's records field by field, its
rows value by value, a mapped object (the game, a table, the room) column by column. Each moment
goes in with whether it has passed, since the drawing compares moments with now (an offer's
call expired, R22). A value of a kind not listed here is refused, never taken by identity.

Left out: the snapshot's seconds to a deadline and seconds away (R20, R23, R25), which change
every second; the drawing does not show them (desk.js counts from the deadlines, which are in).
With ``rows_keyed`` the rows read from the database are left out too: the caller keys them
otherwise, by the marks they were read at and how many of their moments have passed
(``roomops.seating.rows.GameRows``), which costs nothing per row."""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import Row, inspect

CLOCK_ONLY = frozenset({"seconds_left", "seconds_away"})
SCALARS = frozenset({type(None), str, int, float, bool, Decimal, date, time, timedelta})
_FIELDS: dict[type, tuple[str, ...]] = {}  # a record's fields that count, by its class


def digest(value: Any, now: datetime, rows_keyed: bool = False) -> int:
    """``value`` as plain values, moments marked passed or not at ``now``, hashed (``rows_keyed``:
    its rows left out). Python's own hash serves: the drawings it tells apart are one process's,
    of one room's ~40 games."""
    return hash(plain(value, now, rows_keyed))


def shared_digest(value: Any, now: datetime) -> str:
    """The same as ``digest`` but alike in every process, for what browsers compare."""
    return hashlib.blake2b(repr(plain(value, now)).encode(), digest_size=8).hexdigest()


def plain(value: Any, now: datetime, rows_keyed: bool = False) -> Any:
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is datetime:
        return value, value <= now
    if rows_keyed and kind is Row:
        return Row.__name__
    if isinstance(value, (list, tuple, Row)):  # a NamedTuple, a row too
        return tuple(plain(item, now, rows_keyed) for item in value)
    if kind is dict:
        return tuple(sorted((key, plain(item, now, rows_keyed)) for key, item in value.items()))
    if isinstance(value, (str, int)):  # a state's enum member
        return value
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = _fields(value)
    return kind.__name__, tuple(plain(getattr(value, name), now, rows_keyed) for name in names)


def _fields(value: Any) -> tuple[str, ...]:
    """What counts of a record (a dataclass: its fields but the clocks) or of a mapped object (its
    columns); any other kind is refused."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(f.name for f in dataclasses.fields(value) if f.name not in CLOCK_ONLY)
    mapped = inspect(value, raiseerr=False)
    if mapped is not None and hasattr(mapped, "mapper"):
        return tuple(column.key for column in mapped.mapper.column_attrs)
    raise TypeError(f"the desk's game drawing reads a {type(value).__name__}: add it to "
                    "roomops.desk.fingerprint, or the game would be shown as drawn before")
