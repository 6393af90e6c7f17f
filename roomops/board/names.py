"""R61: the public screens show a name only as the room's display-name policy allows.

``full`` shows first and last name, ``first_initial`` the first name and the last name's initial
("Ana S."), ``initials`` only initials ("A.S."). Pure Python: no Flask, no database.

Names are cleaned before they are shown: Unicode is normalised (NFC, so a decomposed "É" keeps its
accent when it becomes an initial), runs of whitespace collapse to one space, and an initial is the
first letter or digit of a name part (an apostrophe or hyphen in front is skipped, "'t Hooft" -> "H.").
A policy the function does not know shows no more than initials: the least revealing setting.
"""

from __future__ import annotations

import unicodedata

POLICIES = ("full", "first_initial", "initials")
NO_NAME = "?"


def _clean(part: str) -> str:
    return " ".join(unicodedata.normalize("NFC", part).split())


def _initial(part: str) -> str:
    """The first letter or digit, upper-cased, with a full stop; '' when there is none."""
    for ch in part:
        if ch.isalnum():
            upper = ch.upper()
            # Some letters upper-case to two ("ß" -> "SS"): an initial is one character.
            return f"{upper if len(upper) == 1 else ch}."
    return ""


def public_name(first: str, last: str, policy: str) -> str:
    first, last = _clean(first), _clean(last)
    if policy == "full":
        name = f"{first} {last}".strip()
    elif policy == "first_initial":
        name = f"{first} {_initial(last)}".strip() if first else _initial(last)
    else:  # "initials", and anything unknown
        name = "".join(_initial(part) for part in (first, last))
    return name or NO_NAME
