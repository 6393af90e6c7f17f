"""The languages players read the board and their phone pages in (issue 21), and which one a page
is drawn in. Pure: no Flask. Staff screens are English whatever is chosen here."""

from __future__ import annotations

from typing import Literal, get_args

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

# The one list of the supported languages: the rooms' CHECK constraint, the policy's choices, the
# switcher and the catalogs under translations/ all follow it. English is the source language.
Language = Literal["en", "de", "it"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT: Language = "en"
NAMES: dict[Language, str] = {"en": "English", "de": "Deutsch", "it": "Italiano"}


def supported(value: str | None) -> Language | None:
    """``value`` when it names a supported language ("DE" and "de" alike), else None."""
    lowered = (value or "").strip().lower()
    return next((lang for lang in LANGUAGES if lang == lowered), None)


def choose(explicit: str | None, accept_language: str | None, room_default: str) -> Language:
    """A player page's language: the player's explicit choice (``?lang=``, or the cookie that
    remembers it) when supported; else the best match of the browser's ``Accept-Language``
    among the supported languages ("de-CH" is German; q-values ranked); else the room's
    default."""
    chosen = supported(explicit)
    if chosen is not None:
        return chosen
    # best first (werkzeug orders by q); "it-CH" is Italian; "*" names none (the room's then)
    for tag, _quality in parse_accept_header(accept_language or "", LanguageAccept):
        found = supported(tag.replace("_", "-").split("-")[0])
        if found is not None:
            return found
    return supported(room_default) or DEFAULT
