"""The demo room's past evenings (``flask demo --history DAYS``), so the manager's figures have a
week or two to show (R80) and the wait estimate a history to learn from (R10-R14).

Every row goes through the floor's services at its own moment (``UnitOfWork.at``), as the desk
would have written it: tables opened in the evening, players seated, leaving, joining the lists
and called to the seats they free (a few let the call go), the tables closed after midnight. A
fresh guest for each seat taken, so no return rule (R27) or bar (R15) is touched. Seeded: the
same history every time."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnClause, select

from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.games.services import open_table
from roomops.holds.models import OFFER, SEATED, SeatHold
from roomops.lists.models import ListEntry
from roomops.lists.services import join, remove
from roomops.rooms.services import add_player
from roomops.seating.closing import close_table
from roomops.seating.offers import decline
from roomops.seating.seats import claim, leave, seat_directly

FIRST = ("Alex", "Bea", "Cal", "Dev", "Edie", "Finn", "Gia", "Hugo", "Iris", "Jack", "Kim", "Leo",
         "Mia", "Ned", "Ola", "Pat", "Rae", "Sid", "Tess", "Uma", "Vic", "Wes", "Yara", "Zoe")
LAST = ("Adams", "Brook", "Cole", "Dunn", "Ellis", "Frost", "Grant", "Hale", "Irwin", "Jones",
        "Knox", "Lane", "Marsh", "Nash", "Owen", "Price", "Quill", "Reed", "Stone", "Tate")
STEP = timedelta(minutes=5)
OPEN_AT, PLO_AT, CLOSE_AT = time(18, 0), time(20, 0), time(1, 0)  # local; closing is after midnight


@dataclass
class _Evening:
    unit: UnitOfWork
    r: random.Random
    guests: int = 0
    tables: list[Table] = field(default_factory=list)

    def guest(self, at: datetime) -> int:
        self.guests += 1
        n = self.guests
        last = f"{LAST[n // len(FIRST) % len(LAST)]} {n}"
        player = self.unit.at(at).run(add_player, first_name=FIRST[n % len(FIRST)], last_name=last,
                                      create_anyway=True)
        return player.id

    def open(self, game: Game, name: str, at: datetime) -> None:
        table = self.unit.at(at).run(open_table, game.id, name)
        self.tables.append(table)
        for seat in range(1, self.r.randint(6, 8) + 1):
            player_id = self.guest(at)
            self.unit.at(at).run(seat_directly, table_id=table.id, seat_no=seat, player_id=player_id,
                                 buy_in=game.min_buyin)

    def _live(self, kind: ColumnClause[str]) -> list[SeatHold]:
        return list(self.unit.session.scalars(select(SeatHold).where(
            SeatHold.table_id.in_([t.id for t in self.tables]), SeatHold.kind == kind,
            SeatHold.ended_at.is_(None)).order_by(SeatHold.id)))

    def step(self, games: list[Game], at: datetime, busy: float) -> None:
        """Five minutes of the evening at the tables of ``games`` (those running): calls answered
        (or let go), a player or two leaving, new players joining the lists."""
        unit = self.unit.at(at)
        for offer in self._live(OFFER):
            game = next(g for g in games if g.id == self._game_of(offer))
            if self.r.random() < 0.1:
                unit.run(decline, offer.id)
            else:
                unit.run(claim, offer.id, game.min_buyin)
        for hold in self._live(SEATED):
            if self.r.random() < 0.04:
                unit.run(leave, hold.id, self.r.randint(0, 3) * 10_000)
        for game in games:
            if self.r.random() < busy:
                unit.run(join, player_id=self.guest(at), game_id=game.id)

    def _game_of(self, hold: SeatHold) -> int:
        return next(t.game_id for t in self.tables if t.id == hold.table_id)

    def close(self, at: datetime) -> None:
        """After midnight: everybody goes home, the lists are cleared and the tables closed."""
        unit = self.unit.at(at)
        for offer in self._live(OFFER):
            unit.run(decline, offer.id)
        for hold in self._live(SEATED):
            unit.run(leave, hold.id, self.r.randint(0, 3) * 10_000)
        waiting = unit.session.scalars(select(ListEntry.id).where(
            ListEntry.room_id == unit.actor.room_id, ListEntry.status == "active"))
        for entry_id in list(waiting):
            unit.run(remove, entry_id, "the room closed for the night")
        for table in self.tables:
            unit.run(close_table, table.id)


def play_evenings(unit: UnitOfWork, games: tuple[Game, Game], first_day: datetime, days: int,
                  tz: ZoneInfo, until: datetime) -> None:
    """``days`` evenings from ``first_day``'s (a local date), each through the services at its own
    moment, those over by ``until``."""
    r = random.Random(43)
    guests = 0
    nlh, plo = games
    for d in range(days):
        day = (first_day + timedelta(days=d)).date()
        at = datetime.combine(day, OPEN_AT, tz).astimezone(UTC)
        end = datetime.combine(day + timedelta(days=1), CLOSE_AT, tz).astimezone(UTC)
        if end > until:
            break
        weekend = day.weekday() in (4, 5)
        evening = _Evening(unit, r, guests)
        for name in ("1", "2", "3")[: 3 if weekend else 2]:
            evening.open(nlh, name, at)
        while at < end:
            if at.astimezone(tz).time() == PLO_AT:
                evening.open(plo, "5", at)
            running = [g for g in games if any(t.game_id == g.id for t in evening.tables)]
            evening.step(running, at, 0.6 if weekend else 0.45)
            at += STEP
        evening.close(end)
        guests = evening.guests
