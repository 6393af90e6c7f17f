"""The hourly rollup (R80): a room's rows of some hours (``Facts``) counted into each game's hours.
Pure: ``roomops.figures.facts`` reads the rows, ``roomops.figures.keep`` writes the counts, and the
figures screen derives the hours not yet rolled up with the same code.

What counts where (docs/figures.md, "The read model"):

- time (tables running and their seats, players seated, entries on a list, dealers dealing) in
  each hour it spans, clipped to the hours asked for and to ``now``;
- an entry joins in the hour of its ``joined_at``; ends in the hour of its ``ended_at``: seated
  (its wait joining to seat, and against the estimate it was shown, R10-R14), a no-show (R12, R13:
  dropped as it did not check in or its lockup ran out), or abandoned (left the list unseated,
  R16); one taken off after a missed call counts as that call's no-show only;
- an offer to a list entry not taken up (R22: declined or run out) is a no-show in its hour;
- rake and fees (R50-R54) in the hour they were posted, a reversal in its own hour (the books are
  append-only: a correction is a row of the hour it was made);
- a dealer down (R63) in the hour it was recorded."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from roomops.figures.buckets import bucket_of
from roomops.lists.endings import MISSED_CALL, NO_SHOW
from roomops.waits.shown import Shown, contains

HOUR = timedelta(hours=1)


def hour_of(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def hours(start: datetime, end: datetime) -> Iterator[datetime]:
    """The hours from ``start``'s to the one before ``end`` (both on the hour)."""
    at = hour_of(start)
    while at < end:
        yield at
        at += HOUR


@dataclass(frozen=True)
class Span:
    """Time something ran in a game: a table (``weight`` its seats), a seated player, an entry on a
    list, a dealer dealing. ``end`` None: it still runs."""

    game_id: int
    start: datetime
    end: datetime | None
    weight: int = 1


@dataclass(frozen=True)
class Entry:
    """A list entry (R10-R16): when it joined and ended, how, and the wait it was shown."""

    game_id: int
    joined_at: datetime
    ended_at: datetime | None
    status: str  # active, seated, removed
    end_reason: str | None
    shown: Shown | None  # the wait shown as the entry joined (R10-R14)


@dataclass(frozen=True)
class Money:
    """A ledger row's rake and fees (minor units, as the house takes them: positive)."""

    game_id: int
    at: datetime
    rake: int
    fees: int


@dataclass(frozen=True)
class Facts:
    """The rows of a room that touch some hours (``roomops.figures.facts``)."""

    tables: list[Span] = field(default_factory=list)
    seats: list[Span] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    missed_offers: list[tuple[int, datetime]] = field(default_factory=list)  # (game, ended_at)
    money: list[Money] = field(default_factory=list)
    dealing: list[Span] = field(default_factory=list)
    downs: list[tuple[int, datetime]] = field(default_factory=list)  # (game, recorded_at)


@dataclass
class Counts:
    """One game's hour (``roomops.figures.models.FigureHour`` and its ``FigureWait`` rows)."""

    table_seconds: int = 0
    seat_seconds: int = 0
    seated_seconds: int = 0
    waiting_seconds: int = 0
    joined: int = 0
    seated: int = 0
    no_shows: int = 0
    abandoned: int = 0
    scored: int = 0
    inside: int = 0
    dealer_seconds: int = 0
    downs: int = 0
    rake: int = 0
    fees: int = 0
    waits: Counter[int] = field(default_factory=Counter)  # bucket -> players
    errors: Counter[int] = field(default_factory=Counter)

    def add(self, other: Counts) -> None:
        for name in COUNTED:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.waits.update(other.waits)
        self.errors.update(other.errors)


COUNTED = tuple(name for name in Counts.__dataclass_fields__ if name not in ("waits", "errors"))
Key = tuple[int, datetime]  # (game, hour)


class _Rollup:
    def __init__(self, start: datetime, end: datetime, now: datetime) -> None:
        self.start, self.end, self.now = start, end, now
        self.out: dict[Key, Counts] = {}

    def at(self, game_id: int, at: datetime) -> Counts | None:
        if not self.start <= at < self.end:
            return None
        return self.out.setdefault((game_id, hour_of(at)), Counts())

    def spread(self, spans: Iterable[Span], name: str, weighted: str | None = None) -> None:
        """Each span's seconds into ``name`` of the hours it covers, and times its weight into
        ``weighted``."""
        for span in spans:
            start = max(span.start, self.start)
            end = min(span.end or self.now, self.end, self.now)
            for hour in hours(start, end):
                seconds = round((min(end, hour + HOUR) - max(start, hour)).total_seconds())
                if seconds <= 0:
                    continue
                counts = self.out.setdefault((span.game_id, hour), Counts())
                setattr(counts, name, getattr(counts, name) + seconds)
                if weighted is not None:
                    setattr(counts, weighted, getattr(counts, weighted) + seconds * span.weight)

    def entry(self, entry: Entry) -> None:
        joined = self.at(entry.game_id, entry.joined_at)
        if joined is not None:
            joined.joined += 1
        ended = None if entry.ended_at is None else self.at(entry.game_id, entry.ended_at)
        if ended is None or entry.ended_at is None:
            return
        reason = entry.end_reason or ""
        if entry.status == "seated":
            self.seated(ended, entry, (entry.ended_at - entry.joined_at).total_seconds() / 60)
        elif reason.startswith(NO_SHOW):
            ended.no_shows += 1
        elif not reason.startswith(MISSED_CALL):
            ended.abandoned += 1

    @staticmethod
    def seated(counts: Counts, entry: Entry, real: float) -> None:
        counts.seated += 1
        counts.waits[bucket_of(real)] += 1
        if entry.shown is not None:
            counts.scored += 1
            counts.inside += contains(entry.shown, real)
            counts.errors[bucket_of(abs(entry.shown.median - real))] += 1


def roll(facts: Facts, start: datetime, end: datetime, now: datetime) -> dict[Key, Counts]:
    """Each game's counts for each hour from ``start`` to ``end`` (on the hour), as of ``now``
    (time still running is counted to ``now``); hours where nothing happened are left out."""
    rollup = _Rollup(start, end, now)
    rollup.spread(facts.tables, "table_seconds", weighted="seat_seconds")
    rollup.spread(facts.seats, "seated_seconds")
    rollup.spread((Span(e.game_id, e.joined_at, e.ended_at) for e in facts.entries), "waiting_seconds")
    rollup.spread(facts.dealing, "dealer_seconds")
    for entry in facts.entries:
        rollup.entry(entry)
    for game_id, at in facts.missed_offers:
        if (counts := rollup.at(game_id, at)) is not None:
            counts.no_shows += 1
    for row in facts.money:
        if (counts := rollup.at(row.game_id, row.at)) is not None:
            counts.rake += row.rake
            counts.fees += row.fees
    for game_id, at in facts.downs:
        if (counts := rollup.at(game_id, at)) is not None:
            counts.downs += 1
    return rollup.out
