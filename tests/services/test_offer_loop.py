"""R14, R20-R22: the core loop on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.errors import Conflict
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.seating import seats
from tests.services.helpers import full_game, live_offer, live_seat, statements_sent
from tests.units import act, sweep

S = timedelta(seconds=1)


def test_r14_open_seat_is_offered_to_first_joined(room, session, now):
    game, table = full_game(room, session, now, free=0)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + timedelta(seconds=1), lists.join, player_id=b.id, game_id=game.id)
    leaving = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id,
                                                    SeatHold.seat_no == 4))
    act(session, room.sup, now, seats.leave, leaving.id, 15000)
    offer = live_offer(session, a.id)
    assert offer is not None and offer.seat_no == 4
    assert offer.deadline == now + timedelta(minutes=10)  # R20 default claim_minutes
    assert live_offer(session, b.id) is None


@pytest.mark.parametrize("offset,claimable", [(-1, True), (0, False), (1, False)])
def test_r22_claim_to_the_second(room, session, now, offset, claimable):
    game, _table = full_game(room, session, now)
    p = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    offer = live_offer(session, p.id)
    at = offer.deadline + timedelta(seconds=offset)
    if claimable:
        hold = act(session, room.sup, at, seats.claim, offer.id, 10000)
        assert hold.kind == "seated" and hold.seat_no == offer.seat_no
    else:
        with pytest.raises(Conflict) as err:
            act(session, room.sup, at, seats.claim, offer.id, 10000)
        assert err.value.rule == "R22"


def test_r14_a_claim_reads_the_games_seats_only_if_one_was_open(room, session, now, connection):
    """A claim opens no seat: in a game whose every seat is taken or called, nothing is left to
    offer, so the seats are not read (one cheap check instead); with a seat left open they are."""
    game, _table = full_game(room, session, now, free=2)
    first, second = room.players(now, 2, "W")
    act(session, room.sup, now + S, lists.join, player_id=first.id, game_id=game.id)
    act(session, room.sup, now + 2 * S, lists.join, player_id=second.id, game_id=game.id)
    offers = [live_offer(session, p.id) for p in (first, second)]

    def claim(offer: SeatHold, at: timedelta) -> list[str]:
        return statements_sent(connection, lambda: act(
            session, room.sup, now + at, seats.claim, offer.id, game.min_buyin))

    read_seats = "FROM tables LEFT OUTER JOIN seat_holds"
    assert not any(read_seats in q for q in claim(offers[0], 3 * S))  # the other seat is called
    act(session, room.sup, now + 4 * S, seats.leave, live_seat(session, first.id).id, 100)  # nobody waits
    assert any(read_seats in q for q in claim(offers[1], 5 * S))


def test_r22_sweep_expires_and_offers_next(room, session, now):
    game, _table = full_game(room, session, now)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + timedelta(seconds=1), lists.join, player_id=b.id, game_id=game.id)
    first = live_offer(session, a.id)
    assert sweep(session, first.deadline - timedelta(seconds=1)).expired_offers == []
    result = sweep(session, first.deadline)
    assert result.expired_offers == [first.id]
    assert live_offer(session, b.id).seat_no == first.seat_no
    assert sweep(session, first.deadline).expired_offers == []  # idempotent
    missed = session.scalars(select(AuditEvent).where(AuditEvent.action == "offer.expired")).all()
    assert len(missed) == 1 and missed[0].actor == "scheduler"
