"""Ids in paths: every ``<int:...>`` of the app's rules (pages, API, dealer's screen) is a row id
that an INTEGER column can hold, so a larger number is no route (404) instead of a value the
database refuses (a 500), on SQLite and PostgreSQL alike (docs/security.md)."""

from __future__ import annotations

import re

from flask import Flask
from werkzeug.routing import Map
from werkzeug.routing.converters import IntegerConverter

from roomops.db import INT_MAX

DIGITS = len(str(INT_MAX))
ID_TEXT = re.compile(rf"[0-9]{{1,{DIGITS}}}")


class RowIdConverter(IntegerConverter):
    """``int`` bounded by ``INT_MAX`` unless a rule says otherwise; ASCII digits only (``\\d``
    would take other scripts' digits), at most as many as ``INT_MAX`` has, so Python never
    parses thousands of digits."""

    regex = ID_TEXT.pattern

    # werkzeug's parameter names: rules pass them by name, e.g. ``int(min=1)``
    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None,
                 max: int = INT_MAX, signed: bool = False) -> None:
        super().__init__(map, fixed_digits, min, max, signed)


def parse_id(raw: str) -> int | None:
    """A row id typed into a form or a query string: ASCII digits naming 1..INT_MAX, else None
    (``str.isdigit`` takes "²", which ``int`` then refuses with a ValueError: a 500)."""
    text = raw.strip()
    if not ID_TEXT.fullmatch(text):
        return None
    value = int(text)
    return value if 1 <= value <= INT_MAX else None


def install(app: Flask) -> None:
    """Before any rule is added: rules read their converter as they are bound to the map."""
    app.url_map.converters["int"] = RowIdConverter
