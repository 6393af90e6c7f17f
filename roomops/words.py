"""Words a player reads, from code that must not import Flask (issue 21; docs/board.md,
"Languages").

A pure function that words something for players takes a ``Translate`` (``tr``) and writes each
sentence as ``tr("Seat {seat} away").format(seat=...)``: English as it stands, so the desk, the API
and the tests get English by default; the player pages pass Flask-Babel's ``gettext``. A sentence
written where no translator is at hand (a module's table of reasons) is marked with ``N_`` and
translated where it is shown. ``pybabel extract -k tr -k N_`` finds both (docs/board.md)."""

from __future__ import annotations

from collections.abc import Callable

Translate = Callable[[str], str]


def english(message: str) -> str:
    """The source language: the message as written."""
    return message


N_ = english  # marks a sentence for the catalog; translated by the ``tr`` of where it is shown
