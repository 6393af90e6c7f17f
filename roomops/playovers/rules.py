"""Playover rules with no Flask or database (R29, with R12-R15 for who may play over)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from roomops.absences.rules import Refusal

# R29/R22: the ``policy`` in the audit row of a call its player could not answer while playing over
# a seat: no missed call, the entry keeps its place (docs/decisions.md)
PLAYING_OVER = "playing_over"


@dataclass(frozen=True)
class Overplayer:
    """What the desk knows about a list entry offered as the overplayer (R14, R29)."""

    on_the_list: bool  # active on the game's waiting list or this table's reserve list
    awaiting_checkin: bool  # a phone entry not checked in yet (R12)
    holds_offer: bool
    at_the_table: bool
    barred_at_the_table: bool  # R15, against anyone seated or playing over at the table
    seated_in_room: bool
    playing_over: bool


def overplayer_refusal(p: Overplayer) -> Refusal | None:
    """R29/R14: why this entry's player may not play over the seat, or None when they may."""
    checks = (
        (not p.on_the_list, "the entry is not on this table's reserve list or its game's waiting "
                            "list", "R14"),
        (p.awaiting_checkin, "the player has not checked in at the desk yet", "R12"),
        (p.playing_over, "the player is already playing over a seat", "R29"),
        (p.seated_in_room, "the player is seated in the room: only a waiting player plays over", "R29"),
        (p.holds_offer, "the player holds an open offer", "R14"),
        (p.at_the_table, "the player is already at this table", "R14"),
        (p.barred_at_the_table, "the player is barred from playing with someone at this table", "R15"),
    )
    return next((Refusal(why, rule) for refused, why, rule in checks if refused), None)


def owner_refusal(no_playover_until: datetime | None, now: datetime, needs_consent: bool,
                  consent: bool, played_over: bool) -> Refusal | None:
    """R29: whether an absent owner's seat may be played over now: nobody plays over it yet, no
    "no playover" is running, and the owner consented where the room requires it."""
    if played_over:
        return Refusal("somebody is already playing over this seat", "R29")
    if no_playover_running(no_playover_until, now):
        return Refusal(f"the owner asked for no playover until {no_playover_until:%H:%M:%S} UTC",
                       "R29")
    if needs_consent and not consent:
        return Refusal("this room needs the owner's consent to a playover", "R29")
    return None


def no_playover_running(until: datetime | None, now: datetime) -> bool:
    """R29: "no playover" holds strictly before its deadline; at it, to the second, it is over."""
    return until is not None and now < until


def no_playover_refusal(minutes: int, max_minutes: int, asked_before: bool,
                        played_over: bool) -> Refusal | None:
    """R29: an absent owner may ask once per absence for no playover, for up to
    ``no_playover_max_minutes``, before anyone plays over the seat."""
    if minutes > max_minutes:
        return Refusal(f"no playover lasts at most {max_minutes} minutes in this room", "R29")
    if asked_before:
        return Refusal("the owner has already asked for no playover during this absence", "R29")
    if played_over:
        return Refusal("somebody is already playing over this seat: the owner can come back",
                       "R29")
    return None


def no_playover_deadline(now: datetime, minutes: int) -> datetime:
    return now + timedelta(minutes=minutes)
