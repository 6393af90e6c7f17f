"""A table started one player over its seat count (issue 20: R4, R14, R20, R33-R36) on the services,
on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from roomops.errors import Conflict, Invalid
from roomops.hands.services import preview, record_hand
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.seating import moves, offers, seat_change, seat_changes, seats, snapshot
from tests.services.helpers import audits, full_game, live_offer, live_seat, refused
from tests.units import act

MIN = timedelta(minutes=1)
REASON = "long list, the floor squeezes a chair in"


def _full(room, session, now):
    """A 9-seat table with seats 1..9 seated and three players waiting for the game."""
    game, table = full_game(room, session, now, free=0)
    holds = {h.seat_no: h for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.ended_at.is_(None)))}
    waiting = room.players(now, 3, "W")
    for i, p in enumerate(waiting):
        act(session, room.sup, now + i * MIN / 60, lists.join, player_id=p.id, game_id=game.id)
    return game, table, holds, waiting


def _tenth(room, session, now, table, player, why=REASON, seat_no=10, **kw):
    return act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=seat_no,
               player_id=player.id, buy_in=10000, over_reason=why, **kw)


def test_r4_seat_ten_of_a_nine_seat_table_only_with_a_written_reason(room, session, now):
    _game, table, _holds, (w1, _w2, _w3) = _full(room, session, now)
    for why in (None, "  "):
        refused(lambda w=why: _tenth(room, session, now, table, w1, w), "R4", "written reason",
                error=Invalid)
    refused(lambda: _tenth(room, session, now, table, w1, seat_no=11), "R4", "does not exist",
            error=Invalid)
    hold = _tenth(room, session, now, table, w1, "  " + REASON + " ")
    assert (hold.seat_no, hold.over_reason) == (10, REASON)
    (row,) = audits(session, "seat.one_over")
    assert row.reason == REASON and row.detail["seat_no"] == 10 and row.detail["rule"] == "R4"
    w3 = room.player(now, "Walk", "In")
    refused(lambda: _tenth(room, session, now, table, w3, reason="a walk-in"), "R20",
            "is taken", "sits there", error=Conflict)  # one over, never two


def test_r4_seat_ten_only_at_a_full_table(room, session, now):
    _game, table, holds, (w1, _w2, _w3) = _full(room, session, now)
    room.room.auto_offer = False  # seat 9 stays open
    act(session, room.sup, now, seats.leave, holds[9].id, 10000)
    refused(lambda: _tenth(room, session, now, table, w1), "R4", "full table", error=Conflict)
    assert live_seat(session, w1.id) is None


def test_r14_r20_offers_stop_at_or_over_the_count_and_resume_under_it(room, session, now):
    _game, table, holds, (w0, w1, w2) = _full(room, session, now)
    _tenth(room, session, now, table, w0)  # the first on the list takes the extra seat
    view = _table_view(session, room, now)
    assert len(view.seats) == 10 and view.over_reason == REASON and view.open_seats == []
    act(session, room.sup, now + MIN, seats.leave, holds[3].id, 10000)
    assert live_offer(session, w1.id) is None  # nine players still: no offer (R14)
    refused(lambda: act(session, room.sup, now + MIN, seats.seat_directly, table_id=table.id,
                        seat_no=3, player_id=w1.id, buy_in=10000), "R4",
            "until it is under 9", error=Conflict)
    act(session, room.sup, now + 2 * MIN, seats.leave, holds[5].id, 10000)
    offer = live_offer(session, w1.id)
    assert offer is not None and offer.seat_no in (3, 5)  # eight: one seat, never seat 10
    assert live_offer(session, w2.id) is None
    assert len(_table_view(session, room, now).seats) == 10  # seat 10 still sat in


def _table_view(session, room, now):
    (gv,) = snapshot.load(session, room.room.id, now).games
    (tv,) = gv.tables
    return tv


def test_r36_r17_seat_changes_and_moves_never_move_into_the_extra_seat(room, session, now):
    game, table, holds, (w1, _w2, _w3) = _full(room, session, now)
    act(session, room.sup, now, seat_changes.ask, holds[2].id)
    _tenth(room, session, now, table, w1)
    act(session, room.sup, now + MIN, seats.leave, holds[7].id, 10000)
    assert live_offer(session, holds[2].player_id) is None  # the table is at its count
    other = room.table(now, game, "2")
    mover = act(session, room.sup, now, seats.seat_directly, table_id=other.id, seat_no=9,
                player_id=room.player(now, "Mover").id, buy_in=10000)
    refused(lambda: act(session, room.sup, now, moves.move_player, mover.id, table_id=table.id,
                        seat_no=7, stack=10000), "R4", "under 9", error=Conflict)


def test_r33_r4_the_dealer_deals_ten_at_a_nine_seat_table_then_nine_again(room, session, now):
    _game, table, _holds, (w1, _w2, _w3) = _full(room, session, now)
    dealer = room.actor("dealer")
    ten = _tenth(room, session, now, table, w1)
    hand = act(session, dealer, now, record_hand, table.id, hand_no=1, high_card_seat=9)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (9, 10, 1)
    assert len(hand.dealt_in) == 10
    assert len(preview(session, dealer, table.id).seats) == 10
    act(session, room.sup, now + MIN, seats.leave, ten.id, 10000)
    hand = act(session, dealer, now + 2 * MIN, record_hand, table.id, hand_no=2)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (10, 1, 2)  # dead button
    hand = act(session, dealer, now + 3 * MIN, record_hand, table.id, hand_no=3)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 2, 3)
    assert len(preview(session, dealer, table.id).seats) == 9


def test_r4_a_hand_offer_for_the_extra_seat_carries_its_reason_to_the_claim(room, session, now):
    room.room.auto_offer = False
    _game, table, _holds, (w1, _w2, _w3) = _full(room, session, now)
    entry_id = session.scalar(select(ListEntry.id).where(ListEntry.player_id == w1.id))
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=10,
                        entry_id=entry_id), "R4", "written reason", error=Invalid)
    offer = act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=10,
                entry_id=entry_id, over_reason=REASON)
    assert offer.over_reason == REASON
    hold = act(session, room.sup, now + MIN, seats.claim, offer.id, 10000)
    assert (hold.seat_no, hold.over_reason) == (10, REASON)


def test_r4_the_database_refuses_seat_ten_without_its_reason(room, session, now):
    _game, table, _holds, (w1, _w2, _w3) = _full(room, session, now)
    session.add(SeatHold(room_id=room.room.id, table_id=table.id, seat_no=10, player_id=w1.id,
                         kind="seated", started_at=now, buy_in=10000))
    with pytest.raises(IntegrityError):
        session.flush()


def test_r36_r4_a_swap_with_the_extra_seat_keeps_its_reason_and_a_change_out_ends_it(
        room, session, now):
    _game, table, holds, (w1, _w2, _w3) = _full(room, session, now)
    room.room.auto_offer = False
    ten = _tenth(room, session, now, table, w1)
    refused(lambda: act(session, room.sup, now, seat_change.change_seat, holds[3].id, 10, stack=10000),
            "R4", "seats 1 to 9", error=Invalid)
    three, in_ten = act(session, room.sup, now + MIN, seat_change.swap_seats, ten.id, holds[3].id,
                        stack=10000, other_stack=12000)
    assert (three.seat_no, three.over_reason) == (3, None)
    assert (in_ten.seat_no, in_ten.over_reason) == (10, REASON)
    act(session, room.sup, now + 2 * MIN, seats.leave, holds[5].id, 10000)
    back = act(session, room.sup, now + 3 * MIN, seat_change.change_seat, in_ten.id, 5, stack=12000)
    assert (back.seat_no, back.over_reason) == (5, None)
    view = _table_view(session, room, now)
    assert len(view.seats) == 9 and view.over_reason is None and view.can_go_over
