"""Refusals name people, not ids (R14, R17-R20, R36): a taken seat says who sits there, or whom
it is held for and until when in the room's local time; the rule id stays on the error. On
every configured database."""

from __future__ import annotations

from datetime import timedelta

from roomops.errors import Conflict, Invalid
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import moves, offers, seat_change, seat_changes, seats
from tests.services.helpers import fill_table, live_offer, refused
from tests.units import act

MIN = timedelta(minutes=1)


def _table(room, session, now, free=2):
    act(session, room.sup, now, update_policy, timezone="Europe/London")
    game = room.game(now)
    table = room.table(now, game, "1")
    return game, table, fill_table(room, session, now, game, table, free)


def test_r20_a_called_seat_names_whom_it_is_held_for_and_until_when(room, session, now):
    game, table, _holds = _table(room, session, now, free=1)
    ann = room.player(now, "Ann", "Bee")
    act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)  # called to seat 9
    assert live_offer(session, ann.id).seat_no == 9
    bob = room.player(now, "Bob", "Cox")
    err = refused(lambda: act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9,
                              player_id=bob.id, buy_in=10000, reason="x"), "R20",
                  error=Conflict)
    # 20:00 UTC in November is 20:00 in London; the call runs 10 minutes
    assert err.message == "seat 9 at table 1 is taken: held for Ann Bee until 20:10"


def test_r20_the_local_time_is_the_rooms(room, session, now):
    act(session, room.sup, now, update_policy, timezone="America/New_York", auto_offer=False)
    game = room.game(now)
    table = room.table(now, game, "1")
    fill_table(room, session, now, game, table, 1)
    ann = room.player(now, "Ann", "Bee")
    act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)
    act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9)
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9),
            "R20", "held for Ann Bee until 15:10")


def test_r20_r36_a_taken_seat_names_who_sits_there(room, session, now):
    _game, _table1, holds = _table(room, session, now)
    refused(lambda: act(session, room.sup, now, seat_change.change_seat, holds[0].id, 2, stack=10000),
            "R20", "seat 2 at table 1 is taken: S1-2 Player sits there")


def test_r36_a_seat_held_for_a_hand_names_its_player(room, session, now):
    _game, _table1, holds = _table(room, session, now, free=3)
    act(session, room.sup, now, seat_changes.ask, holds[0].id)
    offer = live_offer(session, holds[0].player_id)
    act(session, room.sup, now + MIN, seat_change.claim_seat_change, offer.id, during_hand=True)
    refused(lambda: act(session, room.sup, now, seat_change.change_seat, holds[1].id, offer.seat_no,
                        stack=10000),
            "R20", f"seat {offer.seat_no} at table 1 is taken: held for S1-1 Player until the "
                   "dealer records the hand")


def test_r18_r19_refusals_about_seated_players_name_them(room, session, now):
    game, table, holds = _table(room, session, now)
    t2 = room.table(now, game, "2")
    refused(lambda: act(session, room.sup, now, moves.move_player, holds[0].id, table_id=table.id,
                        seat_no=8, stack=10000), "R18",
            "S1-1 Player already sits at table 1")
    other = fill_table(room, session, now, game, t2, 8, prefix="T")
    err = refused(lambda: act(session, room.sup, now, moves.break_table, table.id,
                              {other[0].id: 100, 999999: 100}), "R19", error=Invalid)
    assert err.message == ("T2-1 Player (seat 1 at table 2), seat hold 999999: not seated at "
                           "table 1")
    act(session, room.sup, now, seats.leave, holds[0].id, 100)
    refused(lambda: act(session, room.sup, now, moves.move_player, holds[0].id, table_id=t2.id,
                        seat_no=5, stack=10000), "R19",
            "S1-1 Player has left seat 1 at table 1: nobody is seated there now")


def test_r12_r13_r14_list_entries_are_named(room, session, now):
    act(session, room.sup, now, update_policy, auto_offer=False, lockup_minutes=15)
    game, table, _holds = _table(room, session, now)
    ann = room.player(now, "Ann", "Bee")
    entry = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)
    act(session, room.sup, now, lists.lock_up, entry.id)
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=8,
                        entry_id=entry.id), "R13", "Ann Bee stepped away")


def test_r10_r11_r13_r16_r18_list_refusals_name_the_player(room, session, now):
    act(session, room.sup, now, update_policy, auto_offer=False, lockup_minutes=15)
    game, table, holds = _table(room, session, now)
    seated = holds[0].player_id
    refused(lambda: act(session, room.sup, now, lists.join, player_id=seated, game_id=game.id), "R18",
            "S1-1 Player already sits at seat 1 at table 1: use a reserve list")
    refused(lambda: act(session, room.sup, now, lists.join, player_id=seated, table_id=table.id),
            "R11", "S1-1 Player already sits at seat 1 at table 1")
    ann = room.player(now, "Ann", "Bee")
    entry = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)
    refused(lambda: act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id), "R10",
            "Ann Bee is already on that list")
    refused(lambda: act(session, room.sup, now, lists.end_lockup, entry.id), "R13",
            "Ann Bee is not locked up")
    act(session, room.sup, now, lists.remove, entry.id, "went home")
    refused(lambda: act(session, room.sup, now, lists.check_in, entry.id), "R16",
            "Ann Bee is no longer on the list (removed)")
