"""The board's games, drawn one game at a time and cached per game.

A game's section depends only on its rows (``roomops.board.rows.GameRows``: terms, open tables,
seated seats, calls, list entries with names), the room's naming policy (R61) and time zone (R12's
check-in time), the state of each call at ``now`` (live or expired, R22), the state of each break
at ``now`` (running or over, R24: derived from its deadline, so a break past it reads as over before
the sweep has released the seat) and the markup version. The
cache is keyed on exactly those values, the values themselves rather than a digest of them, so two
different inputs can never share an entry, whatever their hashes. After a change only the changed
game is drawn again; the other games, and every game of a screen that polls with nothing changed,
come from the cache. The time left on a live call is not in the cached HTML: it is cached split at
each live call's and each running break's countdown (``roomops.board.countdown.Timed``), which is
filled in for the moment the page is served.

Privacy (R61): the template sees plain strings only, names already passed through ``public_name``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from flask import current_app
from flask_babel import force_locale
from markupsafe import Markup

from roomops.board import countdown
from roomops.board.countdown import Timed
from roomops.board.names import public_name
from roomops.board.rows import (
    AbsentRow,
    BehindRow,
    CallRow,
    EntryRow,
    GameRows,
    taken_seats,
    utc,
)
from roomops.games.terms import fee_text, min_chip, natural, straddle_text
from roomops.holds.extra_seat import offerable, seat_count
from roomops.jackpots.terms import Posting, headline, rules
from roomops.kept import GAMES, Kept, Tally
from roomops.money import Money
from roomops.waits.model import Estimate
from roomops.waits.services import History, KeptWaits, typical_for
from roomops.waits.shown import wait_text
from roomops.web.language import tr as from_catalog
from roomops.words import Translate, english

# Bump when the games' markup changes: it is in every ETag (pollers holding an old one fetch the new
# markup) and in every cache key.
MARKUP = "9"
TV_LIST_ROWS = 12  # TV: entries shown per list before "and N more" (the phone shows them all)


# A game's sections a cache holds at once: one for each language the board is drawn in (en, de, it).
LANGUAGES = 3


class FragmentCache(Kept[tuple[int, int, str], "GameKey", Timed]):
    """Each game's section by (room, game, language), kept under everything it was drawn from, its
    ``GameKey`` (one per app, bounded: ``LANGUAGES`` a game)."""

    def __init__(self, *, least: int = GAMES, tally: Tally | None = None) -> None:
        super().__init__(bounded=True, least=least, per_game=LANGUAGES, tally=tally)


# ---- one game as plain strings ----------------------------------------------------------------


class Called(NamedTuple):
    seat_no: int
    name: str
    state: str  # offered | expired | held (R36: a seat change waits for the hand's end)
    countdown: Markup


class Absent(NamedTuple):
    """A seat whose player is on a break (R23) or away (R25); never their name (R61). ``played``:
    "played over by <public name>" while a waiting player plays over it (R29)."""
    seat_no: int
    state: str  # break | over (a break past its deadline, R24) | away
    text: str
    countdown: Markup = Markup()
    played: str = ""


class Place(NamedTuple):
    position: int
    name: str
    kind: str = ""  # "" | called | expired | checkin
    note: str = ""
    missed: str = ""  # the note once the call's deadline has passed (board.js switches to it)
    countdown: Markup = Markup()


@dataclass
class TableBoard:
    name: str
    # (seat_no, state): seated | break | over | away | played (R29) | empty | offered | expired
    # | held (R36)
    seats: list[tuple[int, str]]
    seated: int
    open_seats: list[int]
    called: list[Called]
    absent: list[Absent]
    reserve: list[Place]
    feeds: str | None = None  # R17: the main table this must-move table feeds
    behind: list[str] = field(default_factory=list)  # R31: "Seat 4: playing behind 200"


@dataclass
class GameBoard:
    key: str
    variant: str
    stakes: str
    buy_in: str
    straddles: str
    fees: str
    seats_per_table: int
    tables: list[TableBoard]
    waiting: list[Place]
    wait: str = ""  # the typical wait of a player joining now (issue 21, roomops.waits)
    # R67/R69: each jackpot scheme of the game, its name and pool, then its rules a line each
    jackpots: list[tuple[str, list[str]]] = field(default_factory=list)

    @property
    def open_count(self) -> int:
        return sum(len(t.open_seats) for t in self.tables)


Call = tuple[CallRow, bool]  # a live offer's row, and whether it is still live at now (R22)
Away = tuple[AbsentRow, bool]  # a live absence's row, and whether it is still running at now (R24)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def calls_live(rows: GameRows, now_ms: int) -> tuple[bool, ...]:
    """Whether each call of the game, in row order, is still live at ``now_ms`` (R22); a seat held
    for a seat change until the hand's end has no deadline and stays so (R36)."""
    return tuple(call[3] is None or countdown.is_live(call[3], now_ms) for call in rows[2])


def absences_running(rows: GameRows, now_ms: int) -> tuple[bool, ...]:
    """Whether each absence of the game's tables, in row order, is still running at ``now_ms``: a
    break while a whole second is left (the calls' arithmetic, as board.js counts), away always
    (the board shows no time for away)."""
    return tuple(absent[2] is None or countdown.is_live(absent[2], now_ms)
                 for table in rows[1] for absent in table[3])


def _absent(row: AbsentRow, running: bool, tz: ZoneInfo, names: dict[int, str],
            tr: Translate) -> Absent:
    """``names``: the public names of the game's entries, for who plays over the seat (R29)."""
    seat_no, kind, deadline_ms, played_by = row
    played = "" if played_by is None else (
        tr("played over by {name}").format(name=names[played_by]) if played_by in names
        else tr("played over"))
    if kind != "break" or deadline_ms is None:
        return Absent(seat_no, "away", tr("Seat {seat} away").format(seat=seat_no), played=played)
    if not running:
        return Absent(seat_no, "over", tr("Seat {seat}: break over").format(seat=seat_no))
    back_by = (_EPOCH + timedelta(milliseconds=deadline_ms)).astimezone(tz)
    return Absent(seat_no, "break", tr("Seat {seat} on a break · back by {time} ·").format(
        seat=seat_no, time=f"{back_by:%H:%M}"), countdown.mark(deadline_ms), played)


def _place(position: int, entry: EntryRow, call: tuple[str, Call] | None, policy: str,
           tz: ZoneInfo, tr: Translate) -> Place:
    """An entry on a list (R10/R11): called to a seat (R20), past its call (R22), or on the way (R12)."""
    _entry_id, _table_id, checkin_by, first, last = entry
    name = public_name(first, last, policy)
    if call is not None:
        table_name, ((_t, seat_no, _e, deadline_ms, _f, _l), live) = call
        assert deadline_ms is not None  # only a seat change is held without a call (R36)
        where = {"table": table_name, "seat": seat_no}
        missed = tr("missed table {table} seat {seat}, re-calling").format(**where)
        if live:
            return Place(position, name, "called", tr("called to table {table} seat {seat}").format(
                **where), missed, countdown.mark(deadline_ms))
        return Place(position, name, "expired", missed, missed)
    if checkin_by is not None:
        by = utc(checkin_by).astimezone(tz)
        return Place(position, name, "checkin",
                     tr("on the way, check in by {time}").format(time=f"{by:%H:%M}"))
    return Place(position, name)


def _seat(seat_no: int, taken: set[int], absent: dict[int, Absent], calls: dict[int, Call]
          ) -> tuple[int, str]:
    if seat_no in absent:
        return seat_no, "played" if absent[seat_no].played else absent[seat_no].state
    if seat_no in taken:
        return seat_no, "seated"
    if seat_no in calls:
        call, live = calls[seat_no]
        return seat_no, "held" if call[3] is None else "offered" if live else "expired"
    return seat_no, "empty"


def _called(seat_no: int, call: CallRow, live: bool, policy: str, tr: Translate) -> Called:
    """A called seat (R20), past its call (R22), or held for a seat change until the hand's end
    (R36: no call runs)."""
    name, deadline_ms = public_name(call[4], call[5], policy), call[3]
    if deadline_ms is None:
        return Called(seat_no, name, "held", Markup())
    if live:
        return Called(seat_no, name, "offered", countdown.mark(deadline_ms))
    return Called(seat_no, name, "expired", countdown.expired(deadline_ms, tr("expired")))


def _table(name: str, seated: int, away: list[Away], calls: dict[int, Call], seats_per_table: int,
           policy: str, tz: ZoneInfo, money: Money, reserve: list[Place], names: dict[int, str],
           feeds: str | None, behind: tuple[BehindRow, ...], tr: Translate) -> TableBoard:
    """A table's seat map, open seats, absent seats (R23-R25) and who plays over them (R29),
    called seats (R14, R20, R22), the main table it feeds if it is a must-move table (R17) and the
    seats playing behind with chips on their way from the cage (R31). The extra seat shows like
    any seat while someone holds it; no seat is open while the table is at or over its count (R4,
    ``extra_seat``)."""
    taken = set(taken_seats(seated, seats_per_table + 1))
    held = taken | set(calls)
    absent = {row[0]: _absent(row, running, tz, names, tr) for row, running in away}
    seats = [_seat(n, taken, absent, calls)
             for n in range(1, seat_count(seats_per_table, held) + 1)]
    called = [_called(n, c, live, policy, tr) for n, (c, live) in sorted(calls.items())]
    return TableBoard(name, seats, len(taken), offerable(seats_per_table, held), called,
                      [absent[n] for n in sorted(absent)], reserve, feeds,
                      [tr("Seat {seat}: playing behind {amount}").format(seat=n, amount=money(amount))
                       for n, amount in behind])


def game_board(rows: GameRows, policy: str, tz: ZoneInfo, money: Money, live: tuple[bool, ...],
               running: tuple[bool, ...], wait: str = "", tr: Translate = english,
               jackpots: tuple[Posting, ...] = ()) -> GameBoard:
    """One game as the board shows it; ``live[i]`` says whether the i-th call is still live (R22),
    ``running[i]`` whether the i-th absence is still running (R24, ``absences_running``); ``wait``
    the typical wait's line (``wait_text`` of ``game_wait``); its words in the language of ``tr``
    (``roomops.words``)."""
    game, tables, calls, entries = rows
    (game_id, variant, small_blind, big_blind, ante, min_buyin, max_buyin, seats_per_table, fee_kind,
     time_fee, rake_bp, rake_cap, straddle_allowed, max_straddles, button_straddle,
     straddle_sanction, no_flop_no_drop, smallest_chip, min_one_chip, drop_fee, by_players,
     rake_schedule, rake_caps, drop_by_players) = game
    names = {t[0]: t[1] for t in tables}
    absent_rows = [(t[0], row) for t in tables for row in t[3]]
    away: dict[int, list[Away]] = {}
    for (table_id, row), is_running in zip(absent_rows, running, strict=True):
        away.setdefault(table_id, []).append((row, is_running))
    calls_at: dict[int, dict[int, Call]] = {}
    call_of: dict[int, tuple[str, Call]] = {}  # by entry
    for call, is_live in zip(calls, live, strict=True):
        calls_at.setdefault(call[0], {})[call[1]] = (call, is_live)
        if call[2] is not None:  # a seat change's call belongs to no list entry (R36)
            call_of[call[2]] = (names[call[0]], (call, is_live))
    lists: dict[int | None, list[EntryRow]] = {}
    for entry in entries:
        # A reserve entry of a table no longer open stays on the game's list (R11).
        lists.setdefault(entry[1] if entry[1] in names else None, []).append(entry)

    entry_names = {e[0]: public_name(e[3], e[4], policy) for e in entries}

    def places(table_id: int | None) -> list[Place]:
        return [_place(i, e, call_of.get(e[0]), policy, tz, tr)
                for i, e in enumerate(lists.get(table_id, ()), 1)]

    return GameBoard(
        key=f"g{game_id}", variant=variant, stakes=money.stakes(small_blind, big_blind, ante),
        buy_in=tr("{low} to {high}").format(low=money(min_buyin), high=money(max_buyin)),
        straddles=straddle_text(straddle_allowed, max_straddles, button_straddle, straddle_sanction,
                                tr),
        fees=fee_text(money, fee_kind, time_fee, rake_bp, rake_cap, by_players, no_flop_no_drop,
                      rake_schedule, rake_caps, min_chip(smallest_chip, min_one_chip), drop_fee,
                      drop_by_players, tr),
        seats_per_table=seats_per_table,
        tables=[_table(name, seated, away.get(table_id, []), calls_at.get(table_id, {}), seats_per_table,
                       policy, tz, money, places(table_id), entry_names, names.get(feeds or 0), behind,
                       tr)
                for table_id, name, seated, _a, feeds, behind in sorted(tables, key=lambda t: natural(t[1]))],
        waiting=places(None), wait=wait,
        jackpots=[(headline(p, money, tr), rules(p, money, tr)) for p in jackpots])


Wait = tuple[Estimate | None, bool]  # a new player's typical wait, and whether a seat is open at once


def game_wait(rows: GameRows, history: History, now: datetime) -> Wait:
    """The wait of a new player joining the game now, from the rows the board read anyway:
    behind every entry of its lists not called yet (R13, R20), with its open tables and the seats
    that may be offered (neither taken nor called, and none while a table is at or over its count:
    R4, R14); and whether a seat is open for them at once."""
    game, tables, calls, entries = rows
    seats = game[7]  # seats_per_table (GAME_COLUMNS)
    called: dict[int, set[int]] = {}
    for call in calls:
        called.setdefault(call[0], set()).add(call[1])
    free = sum(len(offerable(seats, set(taken_seats(t[2], seats + 1)) | called.get(t[0], set())))
               for t in tables)
    # R20: a called player's seat is held for them, not one still to open
    calling = {call[2] for call in calls}
    waiting = sum(1 for entry in entries if entry[0] not in calling)
    est = typical_for(history, game[0], waiting, len(tables), seats, free, now)
    return est, free > waiting




# ---- the games of a room, from the cache where it can -----------------------------------------


class GameKey(NamedTuple):
    """Everything a game's section is drawn from at a moment: its cache key, and what a pushed
    screen compares to tell whether the game changed (``roomops.push``). The language is in it:
    a German phone and an English TV never share a drawn game."""

    markup: str
    language: str
    room_id: int
    policy: str
    timezone: str
    money: Money
    rows: GameRows
    live: tuple[bool, ...]
    running: tuple[bool, ...]
    wait: Wait  # the typical wait (``game_wait``), worded when drawn
    jackpots: tuple[Posting, ...]  # R67/R69: its schemes and their pools (a drop redraws it)


def game_key(rows: GameRows, room_id: int, policy: str, timezone: str, money: Money,
             now: datetime, wait: Wait, language: str, jackpots: tuple[Posting, ...] = ()) -> GameKey:
    """``wait``: the game's ``game_wait`` at ``now``; ``jackpots``: its posted schemes."""
    now_ms = countdown.to_ms(now)
    return GameKey(MARKUP, language, room_id, policy, timezone, money, rows,
                   calls_live(rows, now_ms), absences_running(rows, now_ms), wait, jackpots)


def kept_wait(kept: KeptWaits[GameRows, Wait], room_id: int, rows: GameRows, history: History,
              now: datetime) -> Wait:
    """The game's ``game_wait``, worked out again only when its rows, the room's history or the
    estimate's stretch of time changed: a pass over a room keys every game, and counting each
    one's offerable seats again was most of a pass with nothing changed (issue 41)."""
    return kept.wait(room_id, rows[0][0], rows, history, now, lambda: game_wait(rows, history, now))


def game_html(key: GameKey, cache: FragmentCache) -> Timed:
    """One game's section for ``key``: from the cache, or drawn in its language and cached."""
    where = (key.room_id, key.rows[0][0], key.language)
    game = cache.get(where, key)
    if game is None:
        with force_locale(key.language):
            board = game_board(key.rows, key.policy, ZoneInfo(key.timezone), key.money, key.live,
                               key.running, wait_text(*key.wait, from_catalog),
                               from_catalog, key.jackpots)
            game = Timed.of(current_app.jinja_env.get_template("board/_game.html").render(
                g=board, tv_rows=TV_LIST_ROWS))
        cache.put(where, key, game)
    return game


def games_html(room_games: list[GameRows], room_id: int, policy: str, timezone: str, money: Money,
               now: datetime, cache: FragmentCache, history: History, language: str,
               jackpots: dict[int, tuple[Posting, ...]]) -> Markup:
    """Every game's section as served at ``now``, in ``language``: from the cache, or drawn and
    cached. ``jackpots``: each game's posted schemes (R67)."""
    now_ms = countdown.to_ms(now)
    return Markup("".join(
        game_html(game_key(rows, room_id, policy, timezone, money, now, game_wait(rows, history, now),
                           language, jackpots.get(rows[0][0], ())), cache).at(now_ms)
        for rows in room_games))
