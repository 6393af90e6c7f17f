"""Domain errors: every refusal names the problem and, where it is a room rule, the rule id.

A refusal that names amounts carries them apart, in integer minor units (``amounts``), with
``{name}`` in its message where each goes: the domain does not know how the room writes money,
the edge that answers does (``text``; ``roomops.money``). A refusal a player may read in their
language (the phone pages, issue 21) carries its other ``{name}``s apart the same way
(``values``), so the message is translated before they are filled in (``roomops.words``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from roomops.words import Translate, english

_PLACE = re.compile(r"\{(\w+)\}")


class RoomopsError(Exception):
    """A refused request. ``status`` is the HTTP status the web layer answers with."""

    status = 400

    def __init__(self, message: str, rule: str | None = None, *, status: int | None = None,
                 amounts: Mapping[str, int] | None = None,
                 extra: Mapping[str, object] | None = None,
                 values: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.template = message
        self.amounts = dict(amounts or {})
        self.values = dict(values or {})
        self.extra = dict(extra or {})  # more for the API's answer: what a client can act on
        self.rule = rule
        if status is not None:
            self.status = status

    def text(self, money: Callable[[int], str] = lambda amount: f"{amount} (minor units)",
             tr: Translate = english) -> str:
        """The message, translated by ``tr``, with its values and its amounts written by ``money``
        (the room's ``Money``)."""
        template = tr(self.template)
        if not self.amounts and not self.values:
            return template
        # only the named ones: any other brace (a table's name, say) is left as it is
        return _PLACE.sub(lambda m: money(self.amounts[m[1]]) if m[1] in self.amounts
                          else self.values.get(m[1], m[0]), template)

    @property
    def message(self) -> str:
        """The message for a log, its amounts in minor units (no room to write them for)."""
        return self.text()

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class NotFound(RoomopsError):
    status = 404


class Forbidden(RoomopsError):
    status = 403


class Conflict(RoomopsError):
    """The request is valid but the room's state or rules refuse it now."""

    status = 409


class Invalid(RoomopsError):
    """The request itself is malformed or out of range."""

    status = 422


class TooMany(RoomopsError):
    """The same thing was asked too often (a code texted to one number): try again later."""

    status = 429
