"""Twins: a player being added whose name or phone matches someone the room already knows, with no
Flask or database. A second record of the same person would hold a second place on a list (R10),
escape a bar (R15) and the return rule (R27): the desk is shown the known player instead.

Names match without case, accents kept, spaces collapsed ("ann  SMITH" is "Ann Smith"). Phones
match as numbers (Google's libphonenumber, ``phonenumbers``, read in the room's country): "07700
900123", "+44 7700 900123" and "0044 7700-900-123" are one number in a British room. A phone it
cannot read as a possible number is compared by its digits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import phonenumbers

from roomops.errors import Conflict


@dataclass(frozen=True, slots=True)
class Known:
    """A player as the comparison needs them."""

    id: int
    first_name: str
    last_name: str
    phone: str | None

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


@dataclass(frozen=True, slots=True)
class Twin:
    """A known player who may be the one being added, and what matched: "name", "phone" or both."""

    player: Known
    matched: str


def name_key(first_name: str, last_name: str) -> str:
    return " ".join(f"{first_name} {last_name}".casefold().split())


def phone_key(phone: str | None, region: str) -> str | None:
    """The number in E.164 ("+447700900123"), or its digits if it cannot be read as a possible
    number in ``region`` (a two-letter country, "GB"); None when it holds no digit."""
    if not phone or not any(c.isdigit() for c in phone):
        return None
    try:
        number = phonenumbers.parse(phone, region)
    except phonenumbers.NumberParseException:
        number = None
    if number is not None and phonenumbers.is_possible_number(number):
        return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
    return "".join(c for c in phone if c.isdigit())


def region_of(locale: str) -> str:
    """The country of a room's locale ("en_GB" -> "GB"); "ZZ" (unknown) when it names none, so
    only numbers written with their country code are read as numbers."""
    parts = locale.replace("-", "_").split("_")
    country = parts[-1] if len(parts) > 1 else ""
    return country.upper() if len(country) == 2 and country.isalpha() else "ZZ"


def twins_of(new: Known, known: Iterable[Known], region: str) -> list[Twin]:
    """The known players the new one may be, by name or phone, in the order given."""
    name, phone = name_key(new.first_name, new.last_name), phone_key(new.phone, region)
    found = []
    for player in known:
        parts = [what for what, same in (
            ("name", name_key(player.first_name, player.last_name) == name),
            ("phone", phone is not None and phone_key(player.phone, region) == phone)) if same]
        if parts:
            found.append(Twin(player, " and ".join(parts)))
    return found


class LikelyTwin(Conflict):
    """Adding a player who may already be known: refused unless the desk says it is someone new
    (``create_anyway``). ``twins`` are the known players it may be."""

    def __init__(self, twins: list[Twin]) -> None:
        names = "; ".join(f"{t.player.full_name} (#{t.player.id}, same {t.matched})" for t in twins)
        super().__init__(f"this may be a player the room knows: did you mean {names}? Use that "
                         "player, or add a new one anyway (create_anyway)", "R10",
                         extra={"candidates": [
                             {"id": t.player.id, "name": t.player.full_name, "matched": t.matched}
                             for t in twins]})
        self.twins = twins
