"""Issue 20, the settings rooms differ on (R12, R17, R24, R27, R36, R10-R14 lockups), each at each
of its values, on the services and on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.errors import Conflict, Invalid
from roomops.games.services import update_game
from roomops.hands.services import preview, record_hand
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import moves, seats
from tests.services.helpers import audits, fill_table, full_game, live_offer, refused
from tests.units import act, sweep

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def _holds(session, table):
    return {h.seat_no: h for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated", SeatHold.ended_at.is_(None)))}


# ---- R12: call-ins -----------------------------------------------------------------------------


@pytest.mark.parametrize("call_ins", [True, False])
def test_r12_call_ins_taken_only_where_the_room_allows_them(room, session, now, call_ins):
    """R12: with call-ins on, a phone entry joins with its check-in deadline; off, it is refused
    and nothing is written; an in-person entry joins either way."""
    act(session, room.sup, now, update_policy, call_ins=call_ins, checkin_minutes=20)
    game = room.game(now)
    caller, walk_in = room.player(now, "Cal"), room.player(now, "Walt")
    if call_ins:
        entry = act(session, room.sup, now, lists.join, player_id=caller.id, game_id=game.id,
                    source="phone")
        assert entry.checkin_deadline == now + 20 * MIN
    else:
        before = len(audits(session))
        refused(lambda: act(session, room.sup, now, lists.join, player_id=caller.id, game_id=game.id,
                            source="phone"), "R12", "no call-ins")
        assert len(audits(session)) == before and lists.list_entries(session, game.id, None) == []
    assert act(session, room.sup, now, lists.join, player_id=walk_in.id, game_id=game.id).source == (
        "in_person")


# ---- R24: a seat lost at break expiry always, or only when someone is waiting ------------------


def _on_break(room, session, now, **policy):
    act(session, room.sup, now, update_policy, **policy)
    game, table = full_game(room, session, now, free=0)
    hold = _holds(session, table)[4]
    absence = act(session, room.sup, now + HOUR, absences.grant_break, hold.id, 23450)
    return game, table, hold, absence


def test_r24_always_the_seat_is_lost_at_the_deadline_with_nobody_waiting(room, session, now):
    """R24 ``always`` (the default): the seat goes at the deadline even with empty lists."""
    _game, _table, hold, absence = _on_break(room, session, now, break_expiry="always")
    assert sweep(session, absence.deadline).released_absences == [absence.id]
    session.refresh(hold)
    assert (hold.outcome, hold.leave_amount) == ("released", 23450)


def test_r24_if_waiting_the_break_runs_on_until_somebody_waits(room, session, now):
    """R24 ``if_waiting``: past the deadline the seat is kept while nobody could be offered it
    (an unchecked call-in and a locked-up entry do not count); the first sweep after somebody
    joins the list releases it and offers them the seat (R14)."""
    game, table, hold, absence = _on_break(room, session, now, break_expiry="if_waiting",
                                           lockup_minutes=15)
    caller, locked = room.player(now, "Cal"), room.player(now, "Lock")
    act(session, room.sup, now, lists.join, player_id=caller.id, game_id=game.id, source="phone")
    entry = act(session, room.sup, now, lists.join, player_id=locked.id, game_id=game.id)
    act(session, room.sup, now + HOUR, lists.lock_up, entry.id)
    later = absence.deadline + 10 * MIN
    assert sweep(session, absence.deadline).released_absences == []
    assert sweep(session, later).released_absences == []
    assert absence.ended_at is None and hold.ended_at is None
    # the player's own entry for another seat does not count either
    wanda = room.player(now, "Wanda")
    act(session, room.sup, later, lists.join, player_id=wanda.id, game_id=game.id)
    assert sweep(session, later + S).released_absences == [absence.id]
    session.refresh(hold)
    assert (hold.outcome, hold.leave_amount, hold.ended_at) == ("released", 23450, later + S)
    offer = live_offer(session, wanda.id)
    assert (offer.table_id, offer.seat_no) == (table.id, 4)


def test_r24_if_waiting_a_player_back_late_keeps_the_seat_while_nobody_waits(room, session, now):
    """R24 ``if_waiting``: past the deadline, with nobody waiting, the player may still come back
    (the seat is theirs); ``always``, and ``if_waiting`` once somebody waits, it is too late."""
    game, table, hold, absence = _on_break(room, session, now, break_expiry="if_waiting",
                                           breaks_per_gaming_day=2)
    assert act(session, room.sup, absence.deadline + MIN, absences.come_back, hold.id).outcome == (
        "returned")
    second = act(session, room.sup, absence.deadline + 2 * HOUR, absences.grant_break, hold.id, 100)
    act(session, room.sup, second.deadline, lists.join, player_id=room.player(now, "W").id,
        game_id=game.id)
    refused(lambda: act(session, room.sup, second.deadline + S, absences.come_back, hold.id), "R24",
            "ran out")
    act(session, room.sup, now, update_policy, break_expiry="always")
    other = _holds(session, table)[5]
    third = act(session, room.sup, now + HOUR, absences.grant_break, other.id, 100)
    refused(lambda: act(session, room.sup, third.deadline, absences.come_back, other.id), "R24")


def test_r24_if_waiting_a_reserve_entry_for_the_table_counts(room, session, now):
    """R24/R11: a player on the table's reserve list waits for that seat."""
    _game, table, _hold, absence = _on_break(room, session, now, break_expiry="if_waiting")
    rita = room.player(now, "Rita")
    act(session, room.sup, now, lists.join, player_id=rita.id, table_id=table.id)
    assert sweep(session, absence.deadline).released_absences == [absence.id]


def test_r24_if_waiting_leaves_time_away_to_r26(room, session, now):
    """R24's setting is about breaks: away past ``max_away_minutes`` still loses the seat (R26)."""
    act(session, room.sup, now, update_policy, break_expiry="if_waiting", max_away_minutes=20)
    _game, table = full_game(room, session, now, free=0)
    away = act(session, room.sup, now, absences.mark_away, _holds(session, table)[2].id, stack=5000)
    assert sweep(session, away.deadline).released_absences == [away.id]


# ---- R36: new-player posting per game ----------------------------------------------------------


def _newcomer_dealt_in(room, session, now, game, table) -> bool:
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    newcomer = room.player(now, "Nell")
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9,
        player_id=newcomer.id, buy_in=game.min_buyin)
    hand = act(session, room.actor("dealer"), now + MIN, record_hand, table.id, hand_no=2)
    return 9 in hand.dealt_in


@pytest.mark.parametrize("room_posting,game_posting,dealt_in", [
    ("post_or_wait", "room", False), ("free", "room", True),
    ("post_or_wait", "free", True), ("free", "post_or_wait", False)])
def test_r36_a_game_sets_its_own_new_player_posting(room, session, now, room_posting,
                                                    game_posting, dealt_in):
    """R36: a game's own posting wins over the room's; ``room`` follows the room's."""
    act(session, room.sup, now, update_policy, new_player_posting=room_posting)
    game, table = full_game(room, session, now, free=1, new_player_posting=game_posting)
    assert _newcomer_dealt_in(room, session, now, game, table) is dealt_in
    assert preview(session, room.actor("dealer"), table.id).seats[8].owes_bb is not dealt_in


def test_r36_r6_changing_a_games_posting_is_audited(room, session, now):
    """R6: the game's posting is one of its conditions: changed by the floor, audited."""
    game, _table = full_game(room, session, now)
    assert game.new_player_posting == "room"
    act(session, room.sup, now, update_game, game.id, new_player_posting="free")
    row = audits(session, "game.changed")[-1]
    assert (row.detail["before"], row.detail["after"]) == (
        {"new_player_posting": "room"}, {"new_player_posting": "free"})


# ---- R27: the return-rule tolerance ------------------------------------------------------------

LEFT_WITH = 65000  # above the 400.00 maximum of tests.factories.GAME_DEFAULTS


def _returning(room, session, now, **policy):
    act(session, room.sup, now, update_policy, **policy)
    room.room.auto_offer = False
    game = room.game(now)
    table = room.table(now, game, "1")
    ann = room.player(now, "Ann")
    hold = act(session, room.sup, now - HOUR, seats.seat_directly, table_id=table.id, seat_no=1,
               player_id=ann.id, buy_in=game.min_buyin)
    act(session, room.sup, now, seats.leave, hold.id, LEFT_WITH)
    return table, ann


@pytest.mark.parametrize("unit,tolerance,lowest", [
    ("amount", 0, LEFT_WITH), ("amount", 5000, 60000), ("percent", 10, 58500),
    ("percent", 100, 10000), ("amount", 99999, 10000)])
def test_r27_a_buy_in_within_the_tolerance_is_accepted(room, session, now, unit, tolerance,
                                                       lowest):
    """R27: the buy-in may be the tolerance (an amount, or a percent rounded down in the
    player's favour of the house) below the stack left with, never below the table minimum."""
    table, ann = _returning(room, session, now, return_tolerance_unit=unit,
                            return_tolerance=tolerance)
    sit = lambda amount: act(  # noqa: E731
        session, room.sup, now + 30 * MIN, seats.seat_directly, table_id=table.id, seat_no=2,
        player_id=ann.id, buy_in=amount)
    if lowest > 10000:
        with pytest.raises(Conflict) as err:
            sit(lowest - 1)
        assert err.value.rule == "R27" and err.value.amounts["minimum"] == lowest
        assert err.value.amounts.get("left", LEFT_WITH) == LEFT_WITH
    assert sit(lowest).buy_in == lowest


def test_r27_a_percent_tolerance_is_at_most_100(room, session, now):
    """R27: 'percent' above 100 is refused whichever of the two fields is sent."""
    act(session, room.sup, now, update_policy, return_tolerance=5000)
    with pytest.raises(Invalid) as err:
        act(session, room.sup, now, update_policy, return_tolerance_unit="percent")
    assert err.value.rule == "R27"
    act(session, room.sup, now, update_policy, return_tolerance_unit="percent", return_tolerance=20)
    refused(lambda: act(session, room.sup, now, update_policy, return_tolerance=101), "R27")


# ---- R13/R14: lockups --------------------------------------------------------------------------


def test_r13_no_lockups_when_the_room_sets_none(room, session, now):
    """R13: ``lockup_minutes`` 0 (the default): a lockup is refused, nothing changes."""
    game = room.game(now)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Al").id, game_id=game.id)
    refused(lambda: act(session, room.sup, now, lists.lock_up, entry.id), "R13", "no lockups")
    assert entry.locked_until is None


def _locked(room, session, now, deposit=None):
    """Lou heads the waiting list and steps away; Bea is next; table 1 has one open seat later."""
    act(session, room.sup, now, update_policy, lockup_minutes=15)
    game, table = full_game(room, session, now, free=0)
    lou, bea = room.player(now, "Lou"), room.player(now, "Bea")
    first = act(session, room.sup, now, lists.join, player_id=lou.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=bea.id, game_id=game.id)
    act(session, room.sup, now + MIN, lists.lock_up, first.id, deposit=deposit)
    return game, table, first, lou, bea


def test_r13_a_locked_up_entry_keeps_its_place_and_is_passed_over(room, session, now):
    """R13/R14: locked up, Lou stays first on the list but the open seat goes to Bea; offering
    Lou by hand is refused until the lockup ends; back in time, Lou gets the next seat."""
    game, table, first, lou, bea = _locked(room, session, now, deposit=2000)
    assert (first.locked_until, first.lockup_deposit) == (now + 16 * MIN, 2000)
    assert audits(session, "entry.locked_up")[-1].detail["deposit"] == 2000
    act(session, room.sup, now + 2 * MIN, seats.leave, _holds(session, table)[1].id, 10000)
    assert live_offer(session, lou.id) is None and live_offer(session, bea.id).seat_no == 1
    assert next(e.player_id for e in lists.list_entries(session, game.id, None)) == lou.id
    act(session, room.sup, now + 5 * MIN, lists.end_lockup, first.id)
    assert (first.locked_until, first.lockup_deposit) == (None, None)
    assert audits(session, "entry.lockup_ended")[-1].detail["deposit_returned"] == 2000
    act(session, room.sup, now + 6 * MIN, seats.leave, _holds(session, table)[2].id, 10000)
    assert live_offer(session, lou.id).seat_no == 2


def test_r13_a_lockup_that_runs_out_is_dropped_by_the_sweep(room, session, now):
    """R13/R16: at the lockup's end, to the second, the sweep drops the entry with a reason; the
    player cannot end it any more."""
    _game, _table, first, _lou, _bea = _locked(room, session, now)
    assert sweep(session, first.locked_until - S).no_shows == []
    refused(lambda: act(session, room.sup, first.locked_until, lists.end_lockup, first.id), "R13",
            "run out")
    assert sweep(session, first.locked_until).no_shows == [first.id]
    assert (first.status, first.end_reason) == ("removed", "no-show: the lockup ran out")
    assert audits(session, "entry.lockup_expired")[-1].entity_id == first.id


def test_r13_one_lockup_at_a_time_and_not_with_a_seat_called(room, session, now):
    """R13: locked up twice is refused; R20: a player with a seat called claims or declines it."""
    game, table, first, _lou, bea = _locked(room, session, now)
    refused(lambda: act(session, room.sup, now + 2 * MIN, lists.lock_up, first.id), "R13", "already")
    refused(lambda: act(session, room.sup, now + 2 * MIN,
                        lists.end_lockup,
                        lists.list_entries(session, game.id, None)[1].id), "R13")
    act(session, room.sup, now + 2 * MIN, seats.leave, _holds(session, table)[1].id, 10000)
    called = lists.list_entries(session, game.id, None)[1]
    assert called.player_id == bea.id and live_offer(session, bea.id) is not None
    refused(lambda: act(session, room.sup, now + 3 * MIN, lists.lock_up, called.id), "R20")


# ---- R17: must-move players moved at once, or when the big blind reaches them ------------------


def _must_move(room, session, now, when):
    """Main table 1 full; must-move table 2 with F1, F2, F3 in seats 2-4 (sat down in that
    order); one hand dealt at table 2 from the button in seat 4: the next big blind is seat 4."""
    act(session, room.sup, now, update_policy, must_move_when=when)
    game = room.game(now)
    main, feeder = room.table(now, game, "1"), room.table(now, game, "2")
    mains = fill_table(room, session, now, game, main, 0)
    fed = [act(session, room.sup, now + i * MIN, seats.seat_directly, table_id=feeder.id, seat_no=i + 2,
               player_id=p.id, buy_in=10000)
           for i, p in enumerate(room.players(now, 3, "F"))]
    act(session, room.sup, now + 5 * MIN, moves.set_must_move, feeder.id, main.id)
    act(session, room.actor("dealer"), now + 6 * MIN, record_hand, feeder.id, hand_no=1,
        high_card_seat=3)  # button 3, SB 4, BB 2; next: button 4, SB 2, BB 3
    return game, main, feeder, mains, fed


def test_r17_at_once_the_longest_seated_moves_as_the_seat_opens(room, session, now):
    """R17 ``at_once`` (the default): F1 is called to the main table's seat at once, though the
    big blind is not theirs."""
    _game, main, _feeder, mains, fed = _must_move(room, session, now, "at_once")
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.from_hold_id) == (main.id, fed[0].id)


def test_r17_big_blind_the_seat_waits_until_the_big_blind_reaches_the_mover(room, session, now):
    """R17 ``big_blind``: the next big blind at table 2 is F2's (seat 3), not F1's: the main
    table's seat waits for F1 (nobody behind F1 nor on the list takes it; Wendy is called to
    the must-move table); two hands later the big blind reaches F1 (seat 2) and the seat is
    offered to F1."""
    game, main, feeder, mains, fed = _must_move(room, session, now, "big_blind")
    wendy = room.player(now, "Wendy")
    act(session, room.sup, now + 7 * MIN, lists.join, player_id=wendy.id, game_id=game.id)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    assert [live_offer(session, h.player_id) for h in fed] == [None] * 3
    assert live_offer(session, wendy.id).table_id == feeder.id
    dealer = room.actor("dealer")
    act(session, dealer, now + 8 * MIN, record_hand, feeder.id, hand_no=2)  # BB 3: next BB 4
    assert live_offer(session, fed[0].player_id) is None
    act(session, dealer, now + 9 * MIN, record_hand, feeder.id, hand_no=3)  # BB 4: next BB 2 (F1)
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.seat_no, offer.from_hold_id) == (main.id, 1, fed[0].id)
    assert live_offer(session, fed[1].player_id) is None


def test_r17_big_blind_before_the_first_hand_moves_at_once(room, session, now):
    """R17 ``big_blind``: with no hand dealt at the must-move table there is no blind to dodge."""
    act(session, room.sup, now, update_policy, must_move_when="big_blind")
    game = room.game(now)
    main, feeder = room.table(now, game, "1"), room.table(now, game, "2")
    mains = fill_table(room, session, now, game, main, 0)
    mover = act(session, room.sup, now, seats.seat_directly, table_id=feeder.id, seat_no=1,
                player_id=room.player(now, "Mo").id, buy_in=10000)
    act(session, room.sup, now + MIN, moves.set_must_move, feeder.id, main.id)
    act(session, room.sup, now + 2 * MIN, seats.leave, mains[0].id, 5000)
    assert live_offer(session, mover.player_id).from_hold_id == mover.id


# ---- issue 40, R17: the must-move player's blind at the main table -------------------------------


def _moved_to_main(room, session, now, when, posting="post_or_wait"):
    """F1 moves from table 2 to seat 1 of main table 1 (a hand dealt there first: button 1, SB 2,
    BB 3; the next hand button 2, SB 3, BB 4, seat 1 outside the gap), as ``when`` says."""
    act(session, room.sup, now, update_policy, new_player_posting=posting)
    _game, main, feeder, mains, fed = _must_move(room, session, now, when)
    dealer = room.actor("dealer")
    act(session, dealer, now + 6 * MIN, record_hand, main.id, hand_no=1, high_card_seat=1)
    act(session, room.sup, now + 7 * MIN, seats.leave, mains[0].id, 5000)
    if when == "big_blind":  # the seat waits for the big blind to reach F1 at table 2
        act(session, dealer, now + 8 * MIN, record_hand, feeder.id, hand_no=2)
        act(session, dealer, now + 9 * MIN, record_hand, feeder.id, hand_no=3)
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.seat_no) == (main.id, 1)
    moved = act(session, room.sup, now + 10 * MIN, moves.claim_move, offer.id, 10000)
    return main, moved


@pytest.mark.parametrize("posting", ["post_or_wait", "free"])
def test_r17_moved_at_the_big_blind_posts_a_big_blind_at_the_main_table(room, session, now, posting):
    """R17 ``big_blind``: F1 left table 2 as its big blind reached them, so at the main table F1
    posts a big blind or waits for it, whatever the new players' policy (R36); the dealer's
    screen says what F1 posts."""
    main, moved = _moved_to_main(room, session, now, "big_blind", posting)
    assert not moved.no_blind_owed
    view = preview(session, room.actor("dealer"), main.id)
    assert view.seats[0].owes_bb
    (why,) = [w for w in view.plan.waiting if w.seat_no == 1]
    assert why.posts == ("live_big_blind",) and why.rule == "R36"
    dealer = room.actor("dealer")
    assert 1 not in act(session, dealer, now + 11 * MIN, record_hand, main.id, hand_no=2).dealt_in
    hand = act(session, dealer, now + 12 * MIN, record_hand, main.id, hand_no=3, posting=[1])
    assert 1 in hand.dealt_in and {"seat_no": 1, "kind": "live_big_blind", "amount": 200} in hand.posts


def test_r17_moved_at_once_comes_in_free(room, session, now):
    """R17 ``at_once`` (the default): moved by the rule, F1 owes nothing at the main table (R19)."""
    main, moved = _moved_to_main(room, session, now, "at_once")
    assert moved.no_blind_owed
    assert not preview(session, room.actor("dealer"), main.id).seats[0].owes_bb
    hand = act(session, room.actor("dealer"), now + 11 * MIN, record_hand, main.id, hand_no=2)
    assert 1 in hand.dealt_in and all(p["seat_no"] != 1 for p in hand.posts)


# ---- issue 40, R35: posting behind the button where the room allows it ------------------------


def _behind(room, session, now, allowed):
    """Seats 1-8 taken, hand 1 from the high card in 7: button 7, SB 8, BB 1; the next hand is
    button 8, SB 1, BB 2, so a new player in seat 9 sits behind the button."""
    act(session, room.sup, now, update_policy, post_behind_button=allowed)
    game, table = full_game(room, session, now, free=1)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=7)
    act(session, room.sup, now + MIN, seats.seat_directly, table_id=table.id, seat_no=9,
        player_id=room.player(now, "Nev").id, buy_in=game.min_buyin)
    return table


def test_r35_where_the_room_allows_it_a_new_player_posts_behind_the_button(room, session, now):
    table = _behind(room, session, now, True)
    view = preview(session, room.actor("dealer"), table.id)
    (why,) = [w for w in view.plan.waiting if w.seat_no == 9]
    assert why.posts == ("live_big_blind",) and why.reason.startswith("behind the button")
    hand = act(session, room.actor("dealer"), now + 2 * MIN, record_hand, table.id, hand_no=2,
               posting=[9])
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (8, 1, 2)
    assert hand.dealt_in[0] == 9 and {"seat_no": 9, "kind": "live_big_blind", "amount": 200} in hand.posts


def test_r35_by_default_a_player_behind_the_button_waits_until_it_passes(room, session, now):
    table = _behind(room, session, now, False)
    (why,) = [w for w in preview(session, room.actor("dealer"), table.id).plan.waiting
              if w.seat_no == 9]
    assert why.posts == () and why.rule == "R35"
    refused(lambda: act(session, room.actor("dealer"), now + 2 * MIN, record_hand, table.id, hand_no=2,
                        posting=[9]), "R35", "between the big blind and the button")
    assert 9 not in act(session, room.actor("dealer"), now + 2 * MIN, record_hand, table.id,
                        hand_no=2).dealt_in
