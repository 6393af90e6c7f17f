"""Every action on a seated player refuses a seat nobody sits in the same way (R1 and each action's
own rule): an unknown id is 404, an offer or a seat already left is 409, and nothing is written."""

from __future__ import annotations

from datetime import timedelta

import pytest

from roomops.absences import services as absences
from roomops.errors import Conflict, NotFound
from roomops.lists import services as lists
from roomops.penalties import services as penalties
from roomops.playovers import services as playovers
from roomops.seating import seats
from roomops.seating.moves import move_player
from roomops.seating.seat_change import change_seat
from tests.services.helpers import audits, full_game, live_offer, refused
from tests.units import act

HOUR = timedelta(hours=1)

# (rule, the action on seat hold ``h`` at table 2's seat 9)
ACTIONS = {
    "break": ("R23", lambda s, a, now, h, t2: act(s, a, now, absences.grant_break, h, 100)),
    "away": ("R25", lambda s, a, now, h, t2: act(s, a, now, absences.mark_away, h)),
    "playover": ("R29", lambda s, a, now, h, t2: act(s, a, now, playovers.start_playover, h, buy_in=100)),
    "move": ("R19", lambda s, a, now, h, t2: act(s, a, now, move_player, h, table_id=t2, seat_no=9,
                                                 stack=100)),
    "seat change": ("R36", lambda s, a, now, h, t2: act(s, a, now, change_seat, h, 9, stack=10000)),
    "penalty": ("R55", lambda s, a, now, h, t2: act(s, a, now, penalties.give_penalty, h, kind="warning",
                                                    reason="x")),
    "next penalty": ("R55", lambda s, a, now, h, t2: penalties.suggest(s, a, now, h)),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_actions_on_a_seat_nobody_sits_in(room, session, now, action):
    rule, on_seat = ACTIONS[action]
    game, _table = full_game(room, session, now)
    t2 = room.table(now, game, "2")
    left = act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=1,
               player_id=room.player(now, "Gone").id, buy_in=game.min_buyin)
    act(session, room.sup, now, seats.leave, left.id, 100)
    p = room.player(now, "Wait")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    offer = live_offer(session, p.id)
    before = len(audits(session))
    later = now + HOUR
    refused(lambda: on_seat(session, room.sup, later, 999999, t2.id), rule, "no seat",
            error=NotFound)
    refused(lambda: on_seat(session, room.sup, later, offer.id, t2.id), rule, "is called for Wait Player",
            error=Conflict)
    refused(lambda: on_seat(session, room.sup, later, left.id, t2.id), rule, "has left",
            error=Conflict)
    assert len(audits(session)) == before
