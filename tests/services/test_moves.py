"""R15, R17-R19: table changes, must-move, floor moves and breaking tables on the services, on
every configured database. The clock is moved, never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.errors import Conflict, Invalid, NotFound
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.services import bar_pair, update_policy
from roomops.seating import moves, offers, seats
from roomops.seating.closing import close_table
from tests.services.helpers import audits, fill_table, live_offer, live_seat, refused
from tests.units import act

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)


def _tables(room, session, now, *free, **game_fields):
    """One game with a table per entry of ``free`` (its open seats), players seated at ``now``."""
    game = room.game(now, **game_fields)
    tables = [room.table(now, game, str(i)) for i in range(1, len(free) + 1)]
    holds = [fill_table(room, session, now, game, t, f, prefix=f"T{t.name}-")
             for t, f in zip(tables, free, strict=True)]
    return game, tables, holds


# ---- R18: table change through the reserve list ---------------------------------------------


def test_r18_table_change_carries_the_stack_and_offers_the_old_seat(room, session, now):
    game, (_t1, t2), (h1, _h2) = _tables(room, session, now, 1, 3)  # 8 and 6 seated
    waiting = room.player(now, "Wendy")
    act(session, room.sup, now + S, lists.join, player_id=waiting.id, game_id=game.id)
    mover = h1[0]
    offer = live_offer(session, waiting.id)  # the waiting list is offered T2 first (most need)
    assert offer.table_id == t2.id
    entry = act(session, room.sup, now + 2 * S, lists.join, player_id=mover.player_id, table_id=t2.id)
    called = live_offer(session, mover.player_id)
    assert (called.table_id, called.entry_id) == (t2.id, entry.id)  # R14 as for anyone
    refused(lambda: act(session, room.sup, now + 3 * S, seats.claim, called.id, 10000), "R18", "move")
    new = act(session, room.sup, now + 3 * S, moves.claim_move, called.id, 2500, 0)  # below the minimum
    assert (new.table_id, new.buy_in, new.from_hold_id, new.no_blind_owed) == (
        t2.id, 2500, mover.id, False)
    session.refresh(mover)
    assert (mover.outcome, mover.leave_amount) == ("moved", None)  # a move counts no amount (R27)
    session.refresh(entry)
    assert entry.status == "seated"
    moved = audits(session, "seat.moved")[-1]
    assert moved.detail.items() >= {"to_table_id": t2.id, "stack": 2500, "added": 0,
                                    "move": "table_change"}.items()
    # the old seat is offered to the next player (R14): nobody else waits, so it stays open
    assert offers.plan(session, game) == []


@pytest.mark.parametrize("stack,added,rule", [(50000, 100, "R30"), (1000, -1, "R28"), (0, 0, "R18")])
def test_r18_r28_chips_added_never_removed_and_not_past_the_maximum(room, session, now, stack, added,
                                                                     rule):
    _game, (_t1, t2), (h1, _h2) = _tables(room, session, now, 1, 3)
    act(session, room.sup, now + S, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    called = live_offer(session, h1[0].player_id)
    refused(lambda: act(session, room.sup, now + 2 * S, moves.claim_move, called.id, stack, added), rule)


def test_r18_stack_above_the_maximum_is_carried_and_chips_added_up_to_it(room, session, now):
    _game, (_t1, t2), (h1, _h2) = _tables(room, session, now, 1, 5)  # 8 and 4 seated
    act(session, room.sup, now + S, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    called = live_offer(session, h1[0].player_id)
    new = act(session, room.sup, now + 2 * S, moves.claim_move, called.id, 30000, 10000)  # to the max
    assert new.buy_in == 40000
    act(session, room.sup, now + 3 * S, lists.join, player_id=h1[1].player_id, table_id=t2.id)
    again = live_offer(session, h1[1].player_id)
    assert act(session, room.sup, now + 4 * S, moves.claim_move, again.id, 90000).buy_in == 90000


def test_r18_voluntary_move_that_leaves_the_table_short_is_refused(room, session, now):
    _game, (t1, t2), (h1, _h2) = _tables(room, session, now, 4, 4)  # 5 and 5 seated
    entry = act(session, room.sup, now + S, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    assert live_offer(session, h1[0].player_id) is None  # not offered: 4 would stay against 6
    offer = act(session, room.sup, now + 2 * S, offers.offer_by_hand, table_id=t2.id, seat_no=9,
                entry_id=entry.id)
    refused(lambda: act(session, room.sup, now + 3 * S, moves.claim_move, offer.id, 10000), "R18",
             "short")
    assert live_seat(session, h1[0].player_id).table_id == t1.id


def test_r18_table_change_is_offered_once_it_no_longer_leaves_the_table_short(room, session, now):
    game, (t1, t2), (h1, _h2) = _tables(room, session, now, 4, 5)  # 5 and 4 seated
    act(session, room.sup, now + S, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    assert live_offer(session, h1[0].player_id) is None  # 4 would stay against 5
    newcomer = room.player(now, "Nina")
    act(session, room.sup, now + 2 * S, seats.seat_directly, table_id=t1.id, seat_no=9,
        player_id=newcomer.id, buy_in=game.min_buyin)
    assert live_offer(session, h1[0].player_id).table_id == t2.id  # 5 and 5 after the move


def test_r18_a_claim_lets_a_table_change_go_ahead_once_it_no_longer_leaves_the_table_short(
        room, session, now):
    game, (t1, t2), (h1, _h2) = _tables(room, session, now, 4, 5)  # 5 and 4 seated
    act(session, room.sup, now + S, lists.join, player_id=h1[0].player_id, table_id=t2.id)
    assert live_offer(session, h1[0].player_id) is None  # 4 would stay against 5
    newcomer = room.player(now, "Nina")
    act(session, room.sup, now + 2 * S, lists.join, player_id=newcomer.id, table_id=t1.id)
    called = live_offer(session, newcomer.id)
    assert called.table_id == t1.id
    act(session, room.sup, now + 3 * S, seats.claim, called.id, game.min_buyin)
    assert live_offer(session, h1[0].player_id).table_id == t2.id  # 5 and 5 after the move


# ---- R19: floor-ordered moves -----------------------------------------------------------------


def test_r19_floor_move_owes_no_blind_and_may_leave_a_table_short(room, session, now):
    _game, (t1, t2), (h1, _h2) = _tables(room, session, now, 4, 4)
    new = act(session, room.sup, now + S, moves.move_player, h1[0].id, table_id=t2.id, seat_no=7,
              stack=12000, added=500, reason="balancing")
    assert (new.table_id, new.seat_no, new.buy_in, new.no_blind_owed) == (t2.id, 7, 12500, True)
    row = audits(session, "seat.moved")[-1]
    assert row.reason == "balancing" and row.detail["table_id"] == t1.id
    assert row.detail["to_seat_no"] == 7 and row.detail["move"] == "floor"
    taken = audits(session, "seat.taken")[-1]
    assert taken.detail["from_table_id"] == t1.id and taken.detail["no_blind_owed"] is True


def test_r18_r15_r20_floor_move_refusals(room, session, now):
    _game, (t1, t2), (h1, h2) = _tables(room, session, now, 4, 4)
    other = room.game(now, variant="PL Omaha")
    t9 = room.table(now, other, "9")
    refused(lambda: act(session, room.sup, now, moves.move_player, h1[0].id, table_id=t9.id, seat_no=1,
                         stack=10000), "R18", "new buy-in")
    refused(lambda: act(session, room.sup, now, moves.move_player, h1[0].id, table_id=t2.id, seat_no=1,
                         stack=10000), "R20", "taken")
    refused(lambda: act(session, room.sup, now, moves.move_player, h1[0].id, table_id=t1.id, seat_no=9,
                         stack=10000), "R18")
    act(session, room.sup, now, bar_pair, h1[0].player_id, h2[0].player_id, "fight")
    refused(lambda: act(session, room.sup, now, moves.move_player, h1[0].id, table_id=t2.id, seat_no=9,
                         stack=10000), "R15", "barred")
    refused(lambda: act(session, room.actor("cashier"), now, moves.move_player, h1[0].id,
                         table_id=t2.id, seat_no=9, stack=10000), "R61")
    assert not audits(session, "seat.moved")


# ---- R17: must-move ---------------------------------------------------------------------------


def _must_move(room, session, now, **policy):
    """Main table 1 full, must-move table 2 with three players who sat down a minute apart, and a
    waiting-list player who joined before any of them."""
    if policy:
        act(session, room.sup, now, update_policy, **policy)
    game = room.game(now)
    main, feeder = room.table(now, game, "1"), room.table(now, game, "2")
    mains = fill_table(room, session, now, game, main, 0)
    waiting = room.player(now, "Wendy")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    fed = []
    for i, p in enumerate(room.players(now, 3, "F")):  # Wendy takes seat 1 at T2 first
        fed.append(act(session, room.sup, now + (i + 1) * MIN, seats.seat_directly, table_id=feeder.id,
                       seat_no=i + 2, player_id=p.id, buy_in=10000, reason="test"))
    act(session, room.sup, now + 5 * MIN, moves.set_must_move, feeder.id, main.id)
    return game, main, feeder, mains, fed


def test_r17_longest_seated_at_the_must_move_table_goes_first(room, session, now):
    _game, main, feeder, mains, fed = _must_move(room, session, now)
    later = room.player(now, "Late")
    act(session, room.sup, now + 6 * MIN, lists.join, player_id=later.id, table_id=main.id)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.seat_no, offer.entry_id, offer.from_hold_id) == (
        main.id, 1, None, fed[0].id)
    assert audits(session, "offer.made")[-1].detail["must_move_from"] == fed[0].id
    new = act(session, room.sup, now + 8 * MIN, moves.claim_move, offer.id, 14000)
    assert (new.table_id, new.no_blind_owed, new.buy_in) == (main.id, True, 14000)
    # the must-move seat left behind goes to the list (R14): the reserve player of T1 is not
    # eligible for T2, so the waiting list's next entry... nobody waits: it stays open
    assert live_seat(session, fed[1].player_id).table_id == feeder.id


def test_r17_forced_refusal_gives_up_the_must_move_seat(room, session, now):
    _game, main, _feeder, mains, fed = _must_move(room, session, now)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    offer = live_offer(session, fed[0].player_id)
    act(session, room.sup, now + 8 * MIN, offers.decline, offer.id)
    session.refresh(fed[0])
    assert fed[0].outcome == "released"
    assert live_offer(session, fed[1].player_id).table_id == main.id  # the next moves first
    entry = session.scalar(select(ListEntry).where(ListEntry.player_id == fed[0].player_id,
                                                   ListEntry.status == "active"))
    assert entry.kind == "waiting"
    assert audits(session, "entry.joined")[-1].reason == "refused a must-move seat (R17)"
    assert audits(session, "offer.declined")[-1].detail["policy"] == "forced"


def test_r17_skip_refusal_keeps_the_seat_and_offers_the_next(room, session, now):
    _game, main, feeder, mains, fed = _must_move(room, session, now, must_move_refusal="skip")
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    act(session, room.sup, now + 8 * MIN, offers.decline, live_offer(session, fed[0].player_id).id)
    assert live_seat(session, fed[0].player_id).table_id == feeder.id
    assert live_offer(session, fed[1].player_id).table_id == main.id


def test_r17_expired_must_move_call_is_a_refusal(room, session, now):
    from tests.units import sweep

    _game, main, _feeder, mains, fed = _must_move(room, session, now)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    offer = live_offer(session, fed[0].player_id)
    sweep(session, offer.deadline)
    assert live_seat(session, fed[0].player_id) is None
    assert live_offer(session, fed[1].player_id).table_id == main.id


def test_r17_must_move_offer_is_void_once_the_player_leaves_the_must_move_seat(room, session, now):
    _, main, _feeder, mains, fed = _must_move(room, session, now)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    offer = live_offer(session, fed[0].player_id)
    act(session, room.sup, now + 8 * MIN, seats.leave, fed[0].id, 9000)
    session.refresh(offer)
    assert offer.outcome == "cancelled"
    assert live_offer(session, fed[1].player_id).table_id == main.id


def test_r17_absent_must_move_players_are_passed_over_until_they_come_back(room, session, now):
    from roomops.absences import services as absences

    _, main, _feeder, mains, fed = _must_move(room, session, now)
    for hold in fed:
        act(session, room.sup, now + 6 * MIN, absences.mark_away, hold.id)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    assert all(live_offer(session, h.player_id) is None for h in fed)
    act(session, room.sup, now + 8 * MIN, absences.come_back, fed[1].id)
    assert live_offer(session, fed[1].player_id).table_id == main.id


def test_r15_must_move_player_barred_at_the_main_table_is_passed_over(room, session, now):
    _game, main, _feeder, mains, fed = _must_move(room, session, now)
    act(session, room.sup, now, bar_pair, fed[0].player_id, mains[5].player_id, "dispute")
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    assert live_offer(session, fed[0].player_id) is None
    assert live_offer(session, fed[1].player_id).table_id == main.id


def test_r17_set_must_move_refusals_and_closing_the_main_table(room, session, now):
    _game, (t1, t2, t3), _holds = _tables(room, session, now, 1, 1, 9)
    other = room.game(now, variant="PL Omaha")
    t9 = room.table(now, other, "9")
    refused(lambda: act(session, room.sup, now, moves.set_must_move, t2.id, t9.id), "R17", "same game")
    refused(lambda: act(session, room.sup, now, moves.set_must_move, t2.id, t2.id), "R17")
    act(session, room.sup, now, moves.set_must_move, t2.id, t1.id)
    act(session, room.sup, now, moves.set_must_move, t3.id, t2.id)  # a chain: 3 feeds 2 feeds 1
    refused(lambda: act(session, room.sup, now, moves.set_must_move, t1.id, t3.id), "R17", "circle")
    assert audits(session, "table.must_move_set")[-1].detail["feeds_table_id"] == t2.id
    act(session, room.sup, now + S, close_table, t3.id)
    for h in list(session.scalars(select(SeatHold).where(
            SeatHold.table_id == t1.id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))):
        act(session, room.sup, now + S, seats.leave, h.id, 0)
    act(session, room.sup, now + 2 * S, close_table, t1.id)
    session.refresh(t2)
    assert t2.feeds_table_id is None  # its main table closed


# ---- R19: breaking a table ---------------------------------------------------------------------


def test_r19_break_moves_players_to_the_tables_that_need_them_and_lists_the_rest(room, session, now):
    game, (t1, t2), _holds = _tables(room, session, now, 1, 2)  # 8 and 7 seated: 3 open seats
    t3 = room.table(now, game, "3")
    waiting = room.player(now, "Wendy")  # joins once no seat is open
    broken = [act(session, room.sup, now + i * MIN, seats.seat_directly, table_id=t3.id, seat_no=9 - i,
                  player_id=p.id, buy_in=10000, reason="test")
              for i, p in enumerate(room.players(now, 5, "B"))]
    act(session, room.sup, now + 6 * MIN, lists.join, player_id=waiting.id, game_id=game.id)
    barred_everywhere = broken[1]
    for h in _holds[0][:1] + _holds[1][:1]:
        act(session, room.sup, now, bar_pair, barred_everywhere.player_id, h.player_id, "dispute")
    done = act(session, room.sup, now + 7 * MIN, moves.break_table, t3.id, {broken[0].id: 23456})
    # longest seated first, to the table most in need (T2 has 7) ; B2 is barred everywhere
    placed = [(h.from_hold_id, h.table_id) for h in done.moved]
    assert placed == [(broken[0].id, t2.id), (broken[2].id, t1.id), (broken[3].id, t2.id)]
    assert done.moved[0].buy_in == 23456 and done.moved[1].buy_in == 10000
    assert all(h.no_blind_owed for h in done.moved)
    assert [e.player_id for e in done.listed] == [barred_everywhere.player_id, broken[4].player_id]
    order = lists.list_entries(session, game.id, None)
    assert [e.player_id for e in order] == [barred_everywhere.player_id, broken[4].player_id,
                                            waiting.id]
    session.refresh(t3)
    assert t3.status == "closed"
    assert audits(session, "table.broken")[-1].detail["listed"] == [e.id for e in done.listed]
    refused(lambda: act(session, room.sup, now + 8 * MIN, moves.break_table, t3.id), "R19", "closed")


def test_r19_break_refuses_a_stack_of_another_table_and_changes_nothing(room, session, now):
    _game, (_t1, t2), holds = _tables(room, session, now, 1, 5)
    before = len(audits(session))
    refused(lambda: act(session, room.sup, now, moves.break_table, t2.id, {holds[0][0].id: 100}), "R19")
    assert len(audits(session)) == before
    with pytest.raises((Conflict, Invalid, NotFound)):
        act(session, room.sup, now, moves.break_table, t2.id, {holds[1][0].id: 0})
