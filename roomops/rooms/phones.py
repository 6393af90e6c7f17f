"""Phone numbers as the room stores them (R10, R12; docs/phone.md, "Numbers"): the one reader
every way in uses (the desk's and the API's new players, the phone page, blocked numbers), so a
number is stored in E.164 or refused where it was typed. Pure: phonenumbers, no Flask."""

from __future__ import annotations

from roomops.errors import Invalid
from roomops.rooms.twins import phone_key, region_of
from roomops.words import N_

UNREADABLE = N_("phone: {typed} is not a phone number we can read; write it as you would dial "
                "it, or with its country code (+44 ...)")


def read_phone(raw: str, locale: str) -> str:
    """The number in E.164, read in the country of the room's ``locale`` unless it carries its
    own code ("07700 900123" in en_GB -> "+447700900123"); Invalid (R12) for what phonenumbers
    cannot read as a possible number ("12ab")."""
    key = phone_key(raw, region_of(locale))
    if key is None or not key.startswith("+"):
        raise Invalid(UNREADABLE, "R12", values={"typed": repr(raw.strip())})
    return key


def read_optional_phone(raw: str | None, locale: str) -> str | None:
    """A number that may be left out (a player the desk adds): blank is none, else ``read_phone``."""
    return read_phone(raw, locale) if raw is not None and raw.strip() else None
