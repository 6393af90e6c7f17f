"""Text people type that other people read: what a name or a note may hold, and how text is written
into a spreadsheet (docs/security.md, "Headers and inputs"). Plain Python.

* A **name** (a player's, a staff member's, a table's, a game's variant, a room's) is one line of
  printable text: no control character (C0, DEL, C1), no line or paragraph separator and no
  bidirectional embedding, override or isolate (U+202A-U+202E, U+2066-U+2069), which could make a
  name read as another on the board, the desk or the audit trail ("Trojan Source"). Nor may it
  hold anything invisible that makes two names look alike: a format character (Unicode category
  Cf: zero-width space, joiner and non-joiner, word joiner, BOM, the direction marks LRM, RLM and
  ALM, soft hyphen, ...) or more than ``MAX_STACKED`` combining marks on one letter. A name is
  kept in NFC, the form that writes "é" one way only.
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
MAX_STACKED = 2  # combining marks on one letter: Vietnamese and Arabic need two, Zalgo text more
MARKS = ("Mn", "Me")  # nonspacing and enclosing: they draw on the letter before them


class Invisible(ValueError):
    """A name holds an invisible character, or too many marks stacked on one letter."""


def refused_character(text: str, *, note: bool = False) -> str | None:
    """The first character ``text`` may not hold as a name (as a note with ``note``), written as
    U+XXXX; None when every character may be shown."""
    for char in text:
        if note and char in NOTE_WHITESPACE:
            continue
        if char in BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            return f"U+{ord(char):04X}"
    return None


def invisible_character(name: str) -> str | None:
    """The first character of ``name`` that cannot be seen (a format character, Cf), or the first
    combining mark past ``MAX_STACKED`` on one letter, written as U+XXXX; None when there is
    none. ``name`` is read as it is (``check_shown`` gives it in NFC)."""
    stacked = 0
    for char in name:
        kind = unicodedata.category(char)
        stacked = stacked + 1 if kind in MARKS else 0
        if kind == "Cf" or stacked > MAX_STACKED:
            return f"U+{ord(char):04X}"
    return None


def check_shown(text: str, *, note: bool = False) -> str:
    """A note unchanged, a name in NFC; ValueError naming the character it may not hold, or
    ``Invisible`` for a name that holds what cannot be seen. NFC never lengthens a name past
    what was typed (its length limits counted that): the few characters it decomposes
    (U+0958 क़) keep the form typed, the same text to every reader."""
    if (char := refused_character(text, note=note)) is not None:
        breaks = "" if note else ", line breaks"
        raise ValueError(f"may not contain {char} (control characters{breaks} and direction "
                         "overrides are refused)")
    if note:
        return text
    nfc = unicodedata.normalize("NFC", text)
    name = nfc if len(nfc) <= len(text) else text
    if (char := invisible_character(name)) is not None:
        raise Invisible(f"The name has invisible characters ({char}): zero-width characters, "
                        f"direction marks and more than {MAX_STACKED} accents on one letter are "
                        "refused")
    return name


def typed_name(name: str) -> str:
    """A name typed to find someone by (a username at the log-in or an approval): without the
    spaces around it and in NFC, the form names are kept in (``check_shown``), so "é" typed as
    "e" and a combining accent finds the same person."""
    return unicodedata.normalize("NFC", name.strip())


def spreadsheet_cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as typed: text that it would read as a formula gets a
    leading ``'``; anything else (numbers, dates, safe text) is returned as it is."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_rows(rows: Iterable[Iterable[object]]) -> list[list[object]]:
    """Every cell of ``rows`` through ``spreadsheet_cell``."""
    return [[spreadsheet_cell(cell) for cell in row] for row in rows]
