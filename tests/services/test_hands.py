"""Recording hands (R33-R36, R40, R26, R61) on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.absences import services as absences
from roomops.audit.models import AuditEvent
from roomops.blinds.straddles import Straddle
from roomops.errors import Conflict, Forbidden
from roomops.hands.models import Hand, SeatBlinds
from roomops.hands.services import preview, record_hand
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import seats
from roomops.seating.closing import close_table
from tests.services.helpers import audits, full_game, live_offer, refused
from tests.units import act

MIN = timedelta(minutes=1)


def _table(room, session, now, free=0, **fields):
    game, table = full_game(room, session, now, free=free, **fields)
    holds = {h.seat_no: h for h in session.scalars(select(seats.SeatHold).where(
        seats.SeatHold.table_id == table.id, seats.SeatHold.ended_at.is_(None)))}
    return game, table, holds


def _hand(room, session, at, table, n, **kw):
    return act(session, room.actor("dealer"), at, record_hand, table.id, hand_no=n, **kw)


def test_r33_first_hand_from_the_high_card_then_the_button_moves_on(room, session, now):
    _game, table, _holds = _table(room, session, now)
    refused(lambda: _hand(room, session, now, table, 1), "R33")  # no high card yet
    first = _hand(room, session, now, table, 1, high_card_seat=4)
    assert (first.button, first.small_blind_seat, first.big_blind_seat) == (4, 5, 6)
    assert first.dealt_in == [5, 6, 7, 8, 9, 1, 2, 3, 4]
    assert first.posts == [{"seat_no": 5, "kind": "small_blind", "amount": 100},
                           {"seat_no": 6, "kind": "big_blind", "amount": 200}]
    second = _hand(room, session, now + MIN, table, 2)
    assert (second.button, second.small_blind_seat, second.big_blind_seat) == (5, 6, 7)
    row = audits(session, "hand.recorded")[-1]
    assert (row.actor, row.detail["hand_no"], row.detail["button"]) == ("main-dealer", 2, 5)


def test_r33_a_second_tap_never_records_a_hand_twice(room, session, now):
    _game, table, _holds = _table(room, session, now)
    _hand(room, session, now, table, 1, high_card_seat=1)
    before = session.scalar(select(func.count()).select_from(AuditEvent))
    refused(lambda: _hand(room, session, now, table, 1), "R33")
    refused(lambda: _hand(room, session, now, table, 3), "R33")
    assert session.scalar(select(func.count()).select_from(Hand)) == 1
    assert session.scalar(select(func.count()).select_from(AuditEvent)) == before


def test_r36_a_new_player_waits_for_the_big_blind_or_posts_one(room, session, now):
    game, table, _holds = _table(room, session, now, free=1)  # seat 9 open
    _hand(room, session, now, table, 1, high_card_seat=1)  # button 1, SB 2, BB 3
    newcomer = room.player(now, "Nell")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9, player_id=newcomer.id,
        buy_in=game.min_buyin)
    hand = _hand(room, session, now + MIN, table, 2)  # button 2, SB 3, BB 4: seat 9 owes a BB
    assert 9 not in hand.dealt_in
    seat_rows = preview(session, room.actor("dealer"), table.id).seats
    assert seat_rows[8].owes_bb
    hand = _hand(room, session, now + 2 * MIN, table, 3, posting=[9])
    assert 9 in hand.dealt_in
    assert {"seat_no": 9, "kind": "live_big_blind", "amount": 200} in hand.posts
    blinds = session.get_one(SeatBlinds, live_seat_id(session, newcomer.id))
    assert (blinds.status, blinds.owes_bb) == ("active", False)


def test_r36_free_policy_a_new_player_pays_only_in_turn(room, session, now):
    game, table, _holds = _table(room, session, now, free=1)
    act(session, room.sup, now, update_policy, new_player_posting="free")
    _hand(room, session, now, table, 1, high_card_seat=1)
    newcomer = room.player(now, "Fred")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9, player_id=newcomer.id,
        buy_in=game.min_buyin)
    assert 9 in _hand(room, session, now + MIN, table, 2).dealt_in


def test_r35_r26_an_away_player_passed_by_the_big_blind_collects_buttons_and_loses_the_seat(
        room, session, now):
    game, table, holds = _table(room, session, now, max_straddles=0)
    act(session, room.sup, now, update_policy, max_missed_bb=2)
    waiting = room.player(now, "Wanda")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    _hand(room, session, now, table, 1, high_card_seat=1)  # button 1, SB 2, BB 3
    away = act(session, room.sup, now, absences.mark_away, holds[5].id, stack=7000)
    _hand(room, session, now + MIN, table, 2)  # BB 4
    hand = _hand(room, session, now + 2 * MIN, table, 3)  # BB passes seat 5 to 6: missed BB
    assert hand.big_blind_seat == 6 and 5 not in hand.dealt_in
    assert session.get_one(SeatBlinds, holds[5].id).missed_bb and away.missed_bb == 1
    assert away.ended_at is None
    for n in range(4, 4 + 9):  # round again: the second missed big blind costs the seat (R26)
        _hand(room, session, now + n * MIN, table, n)
        if away.ended_at is not None:
            break
    assert (away.outcome, away.missed_bb) == ("released", 2)
    assert live_offer(session, waiting.id).seat_no == 5  # offered on (R14)
    assert audits(session, "entry.joined")[-1].reason == "missed 2 big blinds (R26)"


def test_r35_back_from_away_posts_dead_sb_and_live_bb_to_play_at_once(room, session, now):
    _game, table, holds = _table(room, session, now)
    _hand(room, session, now, table, 1, high_card_seat=1)
    act(session, room.sup, now, absences.mark_away, holds[4].id)
    for n in (2, 3, 4):  # BB 4, 5, 6: seat 4 misses the BB, then the SB passes it
        _hand(room, session, now + n * MIN, table, n)
    act(session, room.sup, now + 5 * MIN, absences.come_back, holds[4].id)
    waiting = _hand(room, session, now + 5 * MIN, table, 5)  # BB 7
    assert 4 not in waiting.dealt_in
    posted = _hand(room, session, now + 6 * MIN, table, 6, posting=[4])
    assert 4 in posted.dealt_in
    assert [p["kind"] for p in posted.posts if p["seat_no"] == 4] == ["dead_small_blind",
                                                                     "live_big_blind"]


def test_r40_straddles_in_rotation_only(room, session, now):
    _game, table, _holds = _table(room, session, now, straddle_allowed=True, max_straddles=2)
    _hand(room, session, now, table, 1, high_card_seat=1)  # BB 3: UTG is seat 4
    refused(lambda: _hand(room, session, now, table, 2, straddles=[Straddle(6, 400)]), "R40")
    refused(lambda: _hand(room, session, now, table, 2, straddles=[Straddle(5, 300)]), "R40")
    hand = _hand(room, session, now, table, 2, straddles=[Straddle(5, 400), Straddle(6, 800)])
    assert hand.straddles == [{"seat_no": 5, "amount": 400}, {"seat_no": 6, "amount": 800}]


def test_r33_dealers_choice_the_button_posts_the_small_blind(room, session, now):
    _game, table, _holds = _table(room, session, now, variant="Dealer's Choice")
    hand = _hand(room, session, now, table, 1, high_card_seat=1)
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (1, 1, 2)


def test_r61_r5_who_may_record_and_where(room, session, now):
    _game, table, _holds = _table(room, session, now)
    with pytest.raises(Forbidden):
        act(session, room.actor("cashier"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    act(session, room.sup, now, record_hand, table.id, hand_no=1, high_card_seat=1)  # the floor may
    for hold in session.scalars(select(seats.SeatHold).where(seats.SeatHold.table_id == table.id,
                                                             seats.SeatHold.ended_at.is_(None))):
        act(session, room.sup, now, seats.leave, hold.id, 0)
    act(session, room.sup, now, close_table, table.id)
    with pytest.raises(Conflict) as err:
        _hand(room, session, now, table, 2)
    assert err.value.rule == "R5"


def live_seat_id(session, player_id):
    return session.scalar(select(seats.SeatHold.id).where(
        seats.SeatHold.player_id == player_id, seats.SeatHold.ended_at.is_(None),
        seats.SeatHold.kind == "seated"))


def test_r40_straddles_only_with_the_supervisors_sanction_where_the_game_says_so(room, session, now):
    _game, table, _holds = _table(room, session, now, straddle_allowed=True, max_straddles=1,
                                  straddle_sanction=True)
    _hand(room, session, now, table, 1, high_card_seat=1)  # hand 2: BB 4, so UTG is seat 5
    refused(lambda: _hand(room, session, now, table, 2, straddles_in_turn=1), "R40")
    hand = _hand(room, session, now, table, 2, straddles_in_turn=1, sanctioned=True)
    assert hand.straddles == [{"seat_no": 5, "amount": 400}]


def test_r19_a_player_moved_by_the_floor_owes_no_blind(room, session, now):
    from roomops.seating import moves

    game, _table_1, holds = _table(room, session, now)
    other = room.table(now, game, "2")
    for seat_no, name in ((2, "Ann"), (3, "Bo")):
        act(session, room.sup, now, seats.seat_directly, table_id=other.id, seat_no=seat_no,
            player_id=room.player(now, name).id, buy_in=game.min_buyin, reason="test")
    act(session, room.actor("dealer"), now, record_hand, other.id, hand_no=1, high_card_seat=2)
    act(session, room.sup, now, moves.move_player, holds[9].id, table_id=other.id, seat_no=5,
        stack=game.min_buyin)
    act(session, room.sup, now, seats.seat_directly, table_id=other.id, seat_no=7,
        player_id=room.player(now, "Cy").id, buy_in=game.min_buyin, reason="test")
    seat_rows = preview(session, room.actor("dealer"), other.id).seats
    assert not seat_rows[4].owes_bb  # moved by the floor (R19)
    assert seat_rows[6].owes_bb  # a new player (R36, post_or_wait)


def test_r29_r35_a_played_over_seat_is_dealt_in_and_its_owner_misses_the_blinds(room, session, now):
    from roomops.playovers.services import start_playover

    game, table, holds = _table(room, session, now)
    waiting = room.player(now, "Otto")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    _hand(room, session, now, table, 1, high_card_seat=1)  # button 1, SB 2, BB 3
    away = act(session, room.sup, now, absences.mark_away, holds[5].id)
    act(session, room.sup, now, start_playover, holds[5].id, buy_in=game.min_buyin)
    hands = [_hand(room, session, now + n * MIN, table, n) for n in (2, 3, 4)]  # BB 4, 5, 6
    assert all(5 in h.dealt_in for h in hands)  # the overplayer plays the seat
    assert {"seat_no": 5, "kind": "big_blind", "amount": 200} in hands[1].posts
    blinds = session.get_one(SeatBlinds, holds[5].id)
    assert (blinds.missed_sb, blinds.missed_bb) == (True, True)  # the owner missed both (R35)
    assert away.missed_bb == 1  # and the big blind counts towards R26
    act(session, room.sup, now + 5 * MIN, absences.come_back, holds[5].id)  # the playover ends (R29)
    seat = preview(session, room.actor("dealer"), table.id).seats[4]
    assert seat.missed_bb and seat.status == "active"


def test_r36_a_seat_change_two_seats_away_from_the_button_owes_the_big_blind(room, session, now):
    from roomops.seating.seat_change import change_seat

    game, table, holds = _table(room, session, now, free=3)  # seats 1-6 taken, 7-9 open
    other = room.table(now, game, "2")
    act(session, room.sup, now, lists.join, player_id=holds[2].player_id, table_id=other.id)
    _hand(room, session, now, table, 1, high_card_seat=1)  # button 1: seat 2 moves to 7, past 3-6
    far = act(session, room.sup, now, change_seat, holds[2].id, 7, stack=12345)
    assert session.get_one(SeatBlinds, far.id).owes_bb
    # R18/R36: the counted stack is the new seat's last known stack, audited as counted
    assert (far.table_id, far.seat_no, far.buy_in) == (table.id, 7, 12345)
    assert audits(session, "seat.moved")[-1].detail["stack_counted"] is True
    near = act(session, room.sup, now, change_seat, holds[6].id, 8, stack=game.min_buyin)  # owes nothing
    assert not session.get_one(SeatBlinds, near.id).owes_bb
    assert audits(session, "seat.moved")[-1].detail["move"] == "seat_change"
    refused(lambda: act(session, room.sup, now, change_seat, holds[1].id, 8, stack=1), "R20")  # taken
    refused(lambda: act(session, room.sup, now, change_seat, holds[1].id, 10, stack=1), "R4")
    refused(lambda: act(session, room.sup, now, change_seat, holds[1].id, 9, stack=0), "R18")  # counted
    refused(lambda: act(session, room.actor("dealer"), now, change_seat, holds[1].id, 9, stack=1), "R61")
    # a seat change keeps the player's place on another table's reserve list (R11, R18)
    assert [e.table_id for e in lists.list_entries(session, game.id, other.id)] == [other.id]
