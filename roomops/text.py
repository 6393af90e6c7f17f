"""Text people type that other people read: what a name or a note may hold, and how text is written
into a spreadsheet (docs/security.md, "Headers and inputs"). Plain Python.

* A **name** (a player's, a staff member's, a table's, a game's variant, a room's) is one line of
  printable text: no control character (C0, DEL, C1), no line or paragraph separator and no
  bidirectional embedding, override or isolate (U+202A-U+202E, U+2066-U+2069), which could make a
  name read as another on the board, the desk or the audit trail ("Trojan Source").
* A **note** (a reason, an explanation) may also hold tabs and line breaks, nothing else of those.
* A **spreadsheet cell** of text that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
  return is read by spreadsheets as a formula: it is written with a ``'`` before it. Numbers are
  not text: the code writes amounts as numbers, which stay numbers (``-12.50``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
NOTE_WHITESPACE = frozenset("\t\n\r")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def refused_character(text: str, *, note: bool = False) -> str | None:
    """The first character ``text`` may not hold as a name (as a note with ``note``), written as
    U+XXXX; None when every character may be shown."""
    for char in text:
        if note and char in NOTE_WHITESPACE:
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


def check_shown(text: str, *, note: bool = False) -> str:
    """``text`` unchanged, or ValueError naming the character it may not hold."""
    if (char := refused_character(text, note=note)) is not None:
        breaks = "" if note else ", line breaks"
        raise ValueError(f"may not contain {char} (control characters{breaks} and direction "
                         "overrides are refused)")
    return text


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as typed: text that it would read as a formula gets a
    leading ``'``; anything else (numbers, dates, safe text) is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_rows(rows: Iterable[Iterable[object]]) -> list[list[object]]:
    """Every cell of ``rows`` through ``spreadsheet_cell``."""
    return [[spreadsheet_cell(cell) for cell in row] for row in rows]
