"""Words a player reads, from code that must not import Flask (issue 21; docs/board.md,
"Languages").

A pure function that words something for players takes a ``Translate`` (``tr``) and writes each
sentence as ``tr("Seat {seat} away").format(seat=...)``: English as it stands, so the desk, the API
and the tests get English by default; the player pages pass Flask-Babel's ``gettext``. A sentence
written where no translator is at hand (a module's table of reasons) is marked with ``N_`` and
translated where it is shown. ``pybabel extract -k tr -k N_`` finds both (docs/board.md).

Words sent where no page is (the texts to players, R20; the sweep sends them too) take the
``translator`` of the player's language: Babel's reader of the same compiled catalogs."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from babel.support import Translations

Translate = Callable[[str], str]
CATALOGS = Path(__file__).resolve().parents[1] / "translations"  # the players' (docs/board.md)


def english(message: str) -> str:
    """The source language: the message as written."""
    return message


N_ = english  # marks a sentence for the catalog; translated by the ``tr`` of where it is shown


@cache
def translator(language: str) -> Translate:
    """The catalogs' ``Translate`` for ``language`` outside any request (no Flask): English, or
    a language without a catalog, reads the messages as written."""
    catalog = Translations.load(str(CATALOGS), [language])
    return catalog.gettext
