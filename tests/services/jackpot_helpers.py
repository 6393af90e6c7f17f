"""A raked table with a jackpot scheme and hands to drop from, for the jackpot tests (R67-R70)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.hands.models import Hand
from roomops.hands.services import record_hand
from roomops.holds.models import SeatHold
from roomops.jackpots.models import JackpotScheme
from roomops.jackpots.schemes import Terms, start
from tests.factories import Room_
from tests.services.ledger_helpers import seated_holds
from tests.units import act

BAD_BEAT: dict[str, Any] = dict(name="Bad beat", kind="bad_beat", drop=100, threshold=2000,
                                qualifying="aces_full_of_tens")


@dataclass
class Night:
    """A table of the game with a running scheme; ``hand()`` records the next hand."""

    room: Room_
    session: Session
    game: Game
    table: Table
    holds: list[SeatHold]
    scheme: JackpotScheme
    hands: int = 0

    def another_table(self, now: datetime, name: str) -> Table:
        """A second table of the game (so of its scheme), eight players seated."""
        table = self.room.table(now, self.game, name)
        self.session.add_all(SeatHold(room_id=table.room_id, table_id=table.id, seat_no=i, player_id=p.id,
                                      kind="seated", started_at=now, buy_in=self.game.min_buyin)
                             for i, p in enumerate(self.room.players(now, 8, f"T{name}-"), start=1))
        self.session.flush()
        return table

    def hand(self, now: datetime) -> Hand:
        self.hands += 1
        extra = {"high_card_seat": 1} if self.hands == 1 else {}
        return act(self.session, self.room.actor("dealer"), now, record_hand, self.table.id,
                   hand_no=self.hands, **extra)


def night(room: Room_, session: Session, now: datetime, free: int = 1, **terms: Any) -> Night:
    """A raked 9-seat table (5 %, no cap) with ``9 - free`` players and a bad-beat scheme on its
    game (``terms`` over ``BAD_BEAT``)."""
    game, table, holds = seated_holds(room, session, now, free=free, fee_kind="rake", rake_bp=500)
    scheme = act(session, room.sup, now, start, Terms(**{**BAD_BEAT, "games": (game.id,), **terms}))
    return Night(room, session, game, table, holds, scheme)
