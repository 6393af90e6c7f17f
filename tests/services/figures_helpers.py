"""A room's evening for the figures' tests (R80): one history, the same on every layer."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from roomops.games.models import Game
from roomops.hands.services import record_hand
from roomops.ledger import rake
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.seating import offers, seats
from tests.factories import Room_
from tests.services.helpers import fill_table, live_offer
from tests.units import act

M = timedelta(minutes=1)


def evening(room: Room_, session, now) -> tuple[Game, Game]:
    """A raked game from 20:00 (and another game's table): a full table, two leave; Ann is seated
    from the list after being shown "about 5 minutes (0-10)", Bob declines his call, Cid gives up;
    a hand raked 5.00."""
    game = room.game(now, fee_kind="rake", rake_bp=500, rake_cap=500)
    other = room.game(now)
    table = room.table(now, game, "1")
    room.table(now, other, "2")
    holds = fill_table(room, session, now, game, table, free=0)
    act(session, room.actor("dealer"), now + 5 * M, record_hand, table.id, hand_no=1, high_card_seat=1)
    act(session, room.actor("dealer"), now + 6 * M, rake.record_rake, table.id, 1, pot=10000, flop=True,
        rake=500)
    ann, bob, cid = (room.player(now, n) for n in ("Ann", "Bob", "Cid"))
    for p in (ann, bob, cid):
        act(session, room.sup, now + 50 * M, lists.join, player_id=p.id, game_id=game.id)
    session.execute(ListEntry.__table__.update().where(ListEntry.player_id == ann.id).values(
        shown_low=0, shown_median=5, shown_high=10))
    act(session, room.sup, now + 58 * M, seats.leave, holds[0].id, 0)  # Ann is called
    act(session, room.sup, now + 59 * M, seats.leave, holds[1].id, 0)  # Bob is called
    act(session, room.sup, now + 62 * M, seats.claim, live_offer(session, ann.id).id, game.min_buyin)
    act(session, room.sup, now + 63 * M, offers.decline, live_offer(session, bob.id).id)
    cid_entry = session.scalar(select(ListEntry).where(ListEntry.player_id == cid.id))
    act(session, room.sup, now + 64 * M, offers.decline, live_offer(session, cid.id).id)
    if cid_entry.status == "active":
        act(session, room.sup, now + 65 * M, lists.remove, cid_entry.id, "went home")
    session.flush()
    return game, other


