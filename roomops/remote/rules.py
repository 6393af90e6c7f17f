"""The player's side of remote entries, with no Flask or database: personal link tokens (R61),
the bounds on joining (R12) and an entry's history in the player's own words (R13-R16)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

TOKEN_BYTES = 24  # 192 random bits: a link cannot be guessed, so a fast hash is enough to store it
TOKEN_MAX = 64  # longer is no token of ours: not even hashed


def new_token() -> str:
    """R61: a personal link's token, URL-safe (32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What is stored and looked up: the token's SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def over_cap(active: int, joining: int, cap: int) -> bool:
    """R12: would ``joining`` more entries take a number past the room's cap of active remote
    entries, ``active`` being held already?"""
    return active + joining > cap


# Why an entry was passed over for a seat (``entry.passed_over``'s ``because``, written by
# ``roomops.seating.offers.make_offers`` from the allocation, R14-R18, R36).
PASSED = {
    "barred": "it went to a player after you: you may not play with someone seated there (R15)",
    "at_table": "it went to a player after you: you already sit at that table (R14)",
    "short": "it went to a player after you: your move would leave your table short (R18)",
    "must_move": "a must-move player went first (R17)",
    "seat_change": "a player at that table changing seats went first (R36)",
    "reserve": "it went to a player on that table's reserve list, who was ahead of you (R11, R14)",
}
OWN = {
    "entry.checked_in": "You checked in at the desk (R12).",
    "entry.no_show": "You were dropped: you did not check in at the desk in time (R12).",
    "entry.seated": "You were seated. Good luck!",  # a claim's own row would say it twice
    "entry.left": "You left this list (R16).",
    "entry.lockup_ended": "You were back in time: your place was kept (R13).",
    "entry.lockup_expired": "You were dropped: you were not back before your lockup ran out (R13).",
}


def history_line(action: str, detail: Mapping[str, Any], reason: str | None,
                 tables: Mapping[int, str]) -> str | None:
    """One audit row of the player's own entry as a sentence for them; None for a row that says
    nothing to them (a second row of the same change)."""
    table = tables.get(detail.get("table_id") or 0, "?")
    seat = f"table {table} seat {detail.get('seat_no')}"
    if action in OWN:
        return OWN[action]
    if action == "entry.joined":
        return {"remote": "You joined the waiting list from your phone (R12).",
                "phone": "The desk put you on the list from your call (R12)."}.get(
            detail.get("source") or "", "You joined the list at the desk.")
    if action == "offer.made":
        return f"You were called to {seat} (R20)."
    if action in ("offer.expired", "offer.declined"):
        how = "the time to claim ran out" if action == "offer.expired" else "you declined it"
        then = ("you went to the bottom of the list" if detail.get("policy") == "bottom"
                else "you came off the list")
        return f"You missed the call: {how}, so {then} (R22)."
    if action == "offer.cancelled":
        return f"Your call to {seat} was cancelled."
    if action == "entry.passed_over":
        why = PASSED.get(detail.get("because") or "", "it went to someone else")
        return f"A seat opened at {seat}: {why}."
    if action == "entry.reordered":
        why = f": {reason}" if reason else ""
        return (f"A supervisor moved you from place {detail.get('from_position')} to place "
                f"{detail.get('to_position')}{why} (R13).")
    if action == "entry.locked_up":
        return "You stepped away: your place is kept until your lockup runs out (R13)."
    if action == "entry.removed" and not (reason or "").startswith("missed call"):
        return f"The desk took you off the list: {reason} (R16)." if reason else (
            "The desk took you off the list (R16).")
    return None
