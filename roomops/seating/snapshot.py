"""The room at a glance: games, tables, seats and lists, read in a fixed number of queries
(whatever the number of tables), for the desk and the JSON API. (The public board has its own,
lighter reader: ``roomops.board.rows``.)

Seats and list entries are read as plain columns (``roomops.seating.rows``) into small records
rather than ORM objects: a 250-table room has thousands of them and the screens only read them."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from roomops.absences.rules import is_running, note_needed
from roomops.blinds.missed import owed
from roomops.blinds.state import SeatState
from roomops.games.marks import room_mark
from roomops.games.models import Game, Table
from roomops.holds.extra_seat import offerable, seat_count
from roomops.holds.rules import seconds_left
from roomops.playovers.rules import no_playover_running
from roomops.rooms.models import Room
from roomops.seating import rows
from roomops.seating.rows import GameRows, KeptRows


@dataclass(slots=True, frozen=True)
class PlayerRef:
    id: int
    first_name: str
    last_name: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


OWED = {"dead_small_blind": "SB dead", "live_big_blind": "BB live"}  # R35 wording


@dataclass(slots=True, frozen=True)
class AbsenceView:
    """R23-R26: a break or time away, its state derived from its deadline and now: a break past
    its deadline reads as over (``running`` False) before the sweep has released the seat."""

    id: int
    kind: str  # break | away
    started_at: datetime
    deadline: datetime | None
    note: str | None
    running: bool
    seconds_left: int | None  # to the deadline (a break; away with max_away_minutes)
    seconds_away: int
    note_needed: bool
    no_playover_until: datetime | None  # R29: only while it runs


@dataclass(slots=True, frozen=True)
class PlayoverView:
    """R29: the overplayer on an absent owner's seat, with their own buy-in."""

    id: int
    player_id: int
    player: str  # full name
    buy_in: int
    started_at: datetime


@dataclass
class SeatView:
    seat_no: int
    state: str = "empty"  # empty | offered | expired | held (R36: after the hand) | seated
    player: PlayerRef | None = None
    hold: Row[Any] | None = None  # HOLD_COLUMNS
    seconds_left: int = 0
    absence: AbsenceView | None = None
    playover: PlayoverView | None = None

    @property
    def behind(self) -> int:
        """R31: chips on their way from the cage that play behind (0: none)."""
        h = self.hold
        return int(h.behind or 0) if h is not None and self.state == "seated" else 0

    @property
    def blinds(self) -> list[str]:
        """R35/R36: the seat's missed-blind buttons and what the player owes to be dealt in before
        the big blind reaches them, as the dealer's hands left them."""
        h = self.hold
        if h is None or self.state != "seated":
            return []
        buttons = [label for label, on in (("missed SB", h.missed_sb), ("missed BB", h.missed_bb))
                   if on]
        owes = owed(SeatState(self.seat_no, 0, missed_sb=bool(h.missed_sb),
                              missed_bb=bool(h.missed_bb), owes_bb=bool(h.owes_bb)))
        return buttons + (["owes " + " + ".join(OWED[k] for k in owes)] if owes else [])


@dataclass
class EntryView:
    entry: Row[Any]  # ENTRY_COLUMNS
    player: PlayerRef
    position: int
    offer: Row[Any] | None = None  # HOLD_COLUMNS

    @property
    def awaiting_checkin(self) -> bool:
        return self.entry.checkin_deadline is not None and self.entry.checked_in_at is None


@dataclass
class TableView:
    """A table's seats, 1 to its seat count: the game's ``seats_per_table`` (N), or N+1 while the
    extra seat is held (R4, one over)."""

    table: Table
    seats: list[SeatView]
    reserve: list[EntryView] = field(default_factory=list)
    seats_per_table: int = 9

    @property
    def seated(self) -> int:
        return sum(1 for s in self.seats if s.state == "seated")

    @property
    def held(self) -> int:
        """Seats taken or called (R4: the table is under its count while fewer than N)."""
        return sum(1 for s in self.seats if s.hold is not None)

    @property
    def over_reason(self) -> str | None:
        """R4: the floor's reason for the extra seat, while someone holds it."""
        extra = self.seats[self.seats_per_table:]
        return extra[0].hold.over_reason if extra and extra[0].hold is not None else None

    @property
    def can_go_over(self) -> bool:
        """R4: seats 1..N all seated and nobody in N+1: the floor may seat one more there."""
        return len(self.seats) == self.seats_per_table and all(
            s.state == "seated" for s in self.seats)

    @property
    def open_seats(self) -> list[int]:
        """R14/R19: the seats a player may be offered or moved into (none at or over its count)."""
        return offerable(self.seats_per_table, [s.seat_no for s in self.seats if s.hold is not None])


@dataclass
class GameView:
    game: Game
    tables: list[TableView] = field(default_factory=list)
    waiting: list[EntryView] = field(default_factory=list)

    def moving(self, sv: SeatView) -> tuple[str, int] | None:
        """R17, R18, R36: how the player called to ``sv`` comes to it when they sit in this game
        already: "seat_change" (another seat of their table) or "move" (a must-move or a table
        change), with their seat's last known stack (its buy-in), which the move carries; None
        for a player not seated in the game."""
        if sv.hold is None or sv.player is None or sv.state not in ("offered", "expired"):
            return None
        player = sv.player.id
        seat = next((s.hold for t in self.tables for s in t.seats
                     if s.state == "seated" and s.player is not None and s.player.id == player), None)
        if seat is None:
            return None
        return ("seat_change" if sv.hold.seat_change_id is not None else "move",
                int(seat.buy_in or 0))


@dataclass
class RoomSnapshot:
    room: Room
    now: datetime
    version: int
    games: list[GameView]
    # each game's seats and lists as read, by game (with the marks they were read at, when kept)
    rows: dict[int, GameRows] = field(default_factory=dict)


def _absence_view(hold: Row[Any], room: Room, now: datetime) -> AbsenceView | None:
    if hold.absence_id is None:
        return None
    deadline = hold.absence_deadline
    return AbsenceView(
        hold.absence_id, hold.absence_kind, hold.absence_started_at, deadline, hold.absence_note,
        is_running(deadline, now), None if deadline is None else seconds_left(deadline, now),
        int((now - hold.absence_started_at).total_seconds()),
        hold.absence_kind == "away" and note_needed(hold.absence_started_at, now, hold.absence_note,
                                                    room.away_notify_minutes),
        hold.absence_no_playover_until if no_playover_running(hold.absence_no_playover_until, now)
        else None)


def _playover_view(hold: Row[Any]) -> PlayoverView | None:
    if hold.playover_id is None:
        return None
    name = PlayerRef(hold.playover_player_id, hold.playover_first, hold.playover_last).full_name
    return PlayoverView(hold.playover_id, hold.playover_player_id, name, hold.playover_buy_in,
                        hold.playover_started_at)


def _seat_view(seat_no: int, hold: Row[Any] | None, player: PlayerRef | None,
               room: Room, now: datetime) -> SeatView:
    if hold is None:
        return SeatView(seat_no)
    if hold.kind == "seated":
        return SeatView(seat_no, "seated", player, hold, absence=_absence_view(hold, room, now),
                        playover=_playover_view(hold))
    if hold.reserved_at is not None:  # R36: a seat change claimed during a hand, no timer
        return SeatView(seat_no, "held", player, hold)
    # State is derived from the deadline: an unswept offer past it already reads as expired (R22).
    left = seconds_left(hold.deadline, now)
    return SeatView(seat_no, "offered" if left > 0 else "expired", player, hold, left)


def load(session: Session, room_id: int, now: datetime, *, version: int | None = None,
         kept: KeptRows | None = None, only: Collection[int] | None = None) -> RoomSnapshot:
    """The room as of ``now``: six statements at most, whatever the number of games, tables, seats and
    entries (fewer when the room is already in the session, or ``version`` was read by the caller).
    With ``kept`` (the desk's), the games' marks are read (a seventh) and their seats and lists
    only where the marks moved (``roomops.seating.rows``); the snapshot says what each game's
    rows were read at. With ``only``, the open games among those ids alone, with their tables
    (issue 41: the desk draws again only the games a change touched, ``roomops.desk.parts``).

    The version (the room's change counter) is read *before* the rows: under READ COMMITTED each
    statement sees the latest commits, so rows read after it are at least as new as the version. A
    change landing in between shows at once and moves the version next time, so a poller keyed on
    the version may fetch twice but never keeps a stale picture under a current ETag."""
    if version is None:
        version = room_mark(session, room_id)
    room = session.get_one(Room, room_id)
    games, tables = _open_games_and_tables(session, room_id, only)
    found = (rows.read(session, room_id, only) if kept is None
             else kept.rows(session, room_id, [g.id for g in games], some=only is not None))
    holds = [(h, _player(h)) for g in games if g.id in found for h in found[g.id].holds]
    entries = [(e, _player(e)) for g in games if g.id in found for e in found[g.id].entries]
    offers_by_entry = {h.entry_id: h for h, _ in holds if h.kind == "offer"}
    # (None, None): an empty seat, unpacked as _seat_view's hold and player
    by_seat: dict[tuple[int, int], tuple[Row[Any] | None, PlayerRef | None]] = {
        (h.table_id, h.seat_no): (h, p) for h, p in holds}
    taken: dict[int, set[int]] = {}
    for h, _ in holds:
        taken.setdefault(h.table_id, set()).add(h.seat_no)
    views = _game_views(games, tables, lambda t, base: [
        _seat_view(n, *by_seat.get((t.id, n), (None, None)), room, now)
        for n in range(1, seat_count(base, taken.get(t.id, set())) + 1)])
    table_views = {tv.table.id: tv for gv in views.values() for tv in gv.tables}
    for entry, player in entries:
        target = (table_views[entry.table_id].reserve if entry.table_id in table_views
                  else views[entry.game_id].waiting if entry.game_id in views else None)
        if target is not None:
            target.append(EntryView(entry, player, len(target) + 1, offers_by_entry.get(entry.id)))
    return RoomSnapshot(room, now, version, list(views.values()), found)


def layout(session: Session, room_id: int, now: datetime) -> RoomSnapshot:
    """The room's open games and their open tables, in the snapshot's order, with no seats or
    lists: what the desk's forms name (three statements at most; version 0: not read)."""
    room = session.get_one(Room, room_id)
    views = _game_views(*_open_games_and_tables(session, room_id), lambda _t, _base: [])
    return RoomSnapshot(room, now, 0, list(views.values()))


def _game_views(games: list[Game], tables: list[Table],
                seats: Callable[[Table, int], list[SeatView]]) -> dict[int, GameView]:
    """Each game with its tables in order, each table with ``seats(table, the game's seat
    count)``; a table of a game not among them is left out."""
    views = {g.id: GameView(g) for g in games}
    for t in tables:
        game = views.get(t.game_id)
        if game is not None:
            base = game.game.seats_per_table
            game.tables.append(TableView(t, seats(t, base), seats_per_table=base))
    return views


def open_games(session: Session, room_id: int) -> list[Game]:
    """The room's open games in the snapshot's order (one statement, no tables, seats or lists)."""
    return list(session.scalars(select(Game).where(
        Game.room_id == room_id, Game.status == "open").order_by(Game.big_blind, Game.id)))


def _open_games_and_tables(session: Session, room_id: int, only: Collection[int] | None = None
                           ) -> tuple[list[Game], list[Table]]:
    """The open games (of ``only``, when given) and their open tables."""
    games = [g for g in open_games(session, room_id) if only is None or g.id in only]
    stmt = select(Table).where(Table.room_id == room_id, Table.status == "open")
    if only is not None:
        stmt = stmt.where(Table.game_id.in_([g.id for g in games]))
    return games, list(session.scalars(stmt.order_by(Table.name)))


def _player(row: Row[Any]) -> PlayerRef:
    return PlayerRef(row.player_id, row.first_name, row.last_name)
