"""R13, R14, R17, R36: offering a seat by hand reaches whoever is next for it, as the sweep
does (a seat change at the table, then a must-move player, then the lists), and switching
automatic offers on offers every seat already open; on every configured database."""

from __future__ import annotations

from datetime import timedelta

from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import moves, offers, seat_change
from tests.services.helpers import audits, live_offer, must_move_floor, refused
from tests.units import act

MIN = timedelta(minutes=1)


def test_r14_r36_r17_by_hand_the_seat_goes_to_whoever_is_next(room, session, now):
    main, mains, fed, reserve = must_move_floor(room, session, now, seat_change=True)
    assert live_offer(session, reserve.player_id) is None  # automatic offers are off
    at = now + 6 * MIN
    # R13: the reserve player out of order is refused, naming who is next, not an id
    err = refused(lambda: act(session, room.sup, at, offers.offer_by_hand, table_id=main.id, seat_no=1,
                              entry_id=reserve.id), "R13",
                  "S1-4 Player (seat change from seat 4) is next for this seat")
    assert "entry" not in err.message and "None" not in err.message
    # R36: the next is Sam, asking for a seat change at the table
    offer = act(session, room.sup, at, offers.offer_by_hand, table_id=main.id, seat_no=1)
    assert (offer.player_id, offer.seat_change_id is not None) == (mains[3].player_id, True)
    act(session, room.sup, at + MIN, seat_change.claim_seat_change, offer.id, stack=10000)
    # R17: Sam's seat 4 goes to the longest seated at the must-move table, before Rita
    offer = act(session, room.sup, at + 2 * MIN, offers.offer_by_hand, table_id=main.id, seat_no=4)
    assert (offer.player_id, offer.from_hold_id, offer.entry_id) == (
        fed[0].player_id, fed[0].id, None)
    assert audits(session, "offer.made")[-1].detail["must_move_from"] == fed[0].id
    moved = act(session, room.sup, at + 3 * MIN, moves.claim_move, offer.id, 10000)
    assert (moved.table_id, moved.seat_no) == (main.id, 4)


def test_r13_by_hand_out_of_order_with_a_reason_still_works(room, session, now):
    main, _mains, _fed, reserve = must_move_floor(room, session, now, seat_change=True)
    offer = act(session, room.sup, now + 6 * MIN, offers.offer_by_hand, table_id=main.id, seat_no=1,
                entry_id=reserve.id, reason="the floor's call")
    assert offer.player_id == reserve.player_id


def test_r14_nobody_due_the_seat_is_said_in_words(room, session, now):
    act(session, room.sup, now, update_policy, auto_offer=False)
    game = room.game(now)
    table = room.table(now, game, "1")
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=1),
            "R14", "nobody can be offered seat 1 at table 1")


def test_r14_switching_automatic_offers_on_offers_every_seat_already_open(room, session, now):
    main, mains, fed, reserve = must_move_floor(room, session, now, seat_change=True)
    other = room.game(now, small_blind=200, big_blind=500, min_buyin=20000, max_buyin=100000)
    t9 = room.table(now, other, "9")
    waiting = room.players(now, 3, "W")
    for i, p in enumerate(waiting):
        act(session, room.sup, now + i * MIN, lists.join, player_id=p.id, game_id=other.id)
    assert not audits(session, "offer.made")
    at = now + 10 * MIN
    act(session, room.sup, at, update_policy, auto_offer=True)
    made = audits(session, "offer.made")
    assert {(r.detail["table_id"], r.detail["seat_no"]) for r in made} == {
        (main.id, 1), (t9.id, 1), (t9.id, 2), (t9.id, 3)}
    assert all(r.at == at for r in made)
    assert live_offer(session, mains[3].player_id).seat_change_id is not None  # R36 first
    assert {live_offer(session, p.id).table_id for p in waiting} == {t9.id}
    assert live_offer(session, reserve.player_id) is None and live_offer(
        session, fed[0].player_id) is None
    assert audits(session, "policy.changed")[-1].detail["after"] == {"auto_offer": "True"}
