"""The player's side of remote entries, with no Flask or database: personal link tokens (R61),
the bounds on joining (R12) and an entry's history in the player's own words (R13-R16)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from roomops.playovers.rules import PLAYING_OVER
from roomops.rooms.gaming_day import day_start, gaming_day
from roomops.words import N_, Translate, english

TOKEN_BYTES = 24  # 192 random bits: a link cannot be guessed, so a fast hash is enough to store it
TOKEN_MAX = 64  # longer is no token of ours: not even hashed


def new_token() -> str:
    """R61: a personal link's token, URL-safe (32 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What is stored and looked up: the token's SHA-256, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def over_cap(active: int, joining: int, cap: int) -> bool:
    """R12: would ``joining`` more entries take a number (verified entries) or an unverified
    phone's link past the room's cap of active remote entries, ``active`` being held already?"""
    return active + joining > cap


# R12, issue 40: a remote join proves its phone with a code texted to the number
CODE_DIGITS = 6
CODE_LIFE = timedelta(minutes=10)
CODE_TRIES = 5  # wrong codes typed before the code is spent: 5 in a million to guess it
CODES_PER_NUMBER = 3  # codes texted to one number within CODE_WINDOW, whatever the address
CODE_WINDOW = timedelta(minutes=15)
CodeState = Literal["open", "expired", "spent", "used"]


def new_code() -> str:
    """The one-time code texted to the number: six digits, from the system's random source."""
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


def code_hash(secret: str, code: str) -> str:
    """What is stored of a code: its HMAC keyed with the pending join's secret, which only the
    phone's cookie holds, so a copy of the database cannot be searched for the code."""
    typed = "".join(c for c in code if c.isdigit())
    return hmac.new(secret.encode(), typed.encode(), hashlib.sha256).hexdigest()


def code_matches(secret: str, typed: str, stored: str) -> bool:
    return hmac.compare_digest(code_hash(secret, typed), stored)


def code_state(deadline: datetime, attempts: int, confirmed_at: datetime | None,
               now: datetime) -> CodeState:
    """A code's state from its row and now: used once confirmed; spent after ``CODE_TRIES``
    wrong tries; expired at its deadline, whether or not anyone looked."""
    if confirmed_at is not None:
        return "used"
    if attempts >= CODE_TRIES:
        return "spent"
    return "open" if now < deadline else "expired"


def too_many_codes(sent_in_window: int) -> bool:
    """R12: one more code to this number would pass ``CODES_PER_NUMBER`` in ``CODE_WINDOW``."""
    return sent_in_window >= CODES_PER_NUMBER


def link_deadline(last_join: datetime, tz: str, start: time) -> datetime:
    """R2, R61: a personal link ends with the gaming day after the one of its latest join (a
    player who joined at 23:00 still reads their page the next day; a link found in a
    phone's history weeks later opens nothing)."""
    day: date = gaming_day(last_join, tz, start)
    return day_start(day + timedelta(days=2), tz, start)


def link_live(expires_at: datetime, now: datetime) -> bool:
    return now < expires_at


# Why an entry was passed over for a seat (``entry.passed_over``'s ``because``, written by
# ``roomops.seating.offers.make_offers`` from the allocation, R14-R18, R36).
PASSED = {
    "barred": N_("it went to a player after you: you may not play with someone seated there"),
    "at_table": N_("it went to a player after you: you already sit at that table"),
    "short": N_("it went to a player after you: your move would leave your table short"),
    "must_move": N_("a must-move player went first"),
    "seat_change": N_("a player at that table changing seats went first"),
    "reserve": N_("it went to a player on that table's reserve list, who was ahead of you"),
}
OWN = {
    "entry.checked_in": N_("You checked in at the desk."),
    "entry.no_show": N_("You were dropped: you did not check in at the desk in time."),
    "entry.seated": N_("You were seated. Good luck!"),  # a claim's own row would say it twice
    "entry.left": N_("You left this list."),
    "entry.lockup_ended": N_("You were back in time: your place was kept."),
    "entry.lockup_expired": N_("You were dropped: you were not back before your lockup ran out."),
}
JOINED = {
    "remote": N_("You joined the waiting list from your phone."),
    "phone": N_("The desk put you on the list from your call."),
}


def history_line(action: str, detail: Mapping[str, Any], reason: str | None,
                 tables: Mapping[int, str], tr: Translate = english) -> str | None:
    """One audit row of the player's own entry as a sentence for them, in the language of ``tr``
    (``roomops.words``); None for a row that says nothing to them (a second row of the same
    change)."""
    where = {"table": tables.get(detail.get("table_id") or 0, "?"), "seat": detail.get("seat_no")}
    if action in OWN:
        return tr(OWN[action])
    if action == "entry.joined":
        return tr(JOINED.get(detail.get("source") or "", N_("You joined the list at the desk.")))
    if action == "offer.made":
        return tr("You were called to table {table} seat {seat}.").format(**where)
    if action in ("offer.expired", "offer.declined"):
        return _missed(action, detail, tr)
    if action == "offer.cancelled":
        return tr("Your call to table {table} seat {seat} was cancelled.").format(**where)
    if action == "entry.passed_over":
        why = tr(PASSED.get(detail.get("because") or "", N_("it went to someone else")))
        return tr("A seat opened at table {table} seat {seat}: {why}.").format(why=why, **where)
    if action == "entry.reordered":
        return _reordered(detail, reason, tr)
    if action == "entry.locked_up":
        return tr("You stepped away: your place is kept until your lockup runs out.")
    if action == "entry.removed" and not (reason or "").startswith("missed call"):
        return tr("The desk took you off the list: {reason}.").format(reason=reason) if reason \
            else tr("The desk took you off the list.")
    return None


def _missed(action: str, detail: Mapping[str, Any], tr: Translate) -> str:
    """R22: a call the player missed, and where it left them (R29: nowhere new, while they played
    over a seat)."""
    if detail.get("policy") == PLAYING_OVER:
        return tr("You were called while playing over a seat and could not come: you keep your "
                  "place on the list.")
    if detail.get("policy") == "bottom":
        return (tr("You missed the call: the time to claim ran out, so you went to the bottom of "
                   "the list.") if action == "offer.expired" else
                tr("You missed the call: you declined it, so you went to the bottom of the "
                   "list."))
    return (tr("You missed the call: the time to claim ran out, so you came off the list.")
            if action == "offer.expired" else
            tr("You missed the call: you declined it, so you came off the list."))


def _reordered(detail: Mapping[str, Any], reason: str | None, tr: Translate) -> str:
    """R13: a supervisor moved the entry, with their written reason."""
    moved = {"from": detail.get("from_position"), "to": detail.get("to_position")}
    if reason:
        return tr("A supervisor moved you from place {from} to place {to}: {reason}.").format(
            reason=reason, **moved)
    return tr("A supervisor moved you from place {from} to place {to}.").format(**moved)
