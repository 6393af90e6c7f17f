"""R35/R36/R19: missed-blind buttons, what a returning, new or moved player owes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from roomops.blinds.missed import arrive, move_seat, must_move_arrival, owed
from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import HandPlan, SeatState
from roomops.errors import Conflict
from tests.rules.test_blinds_positions import BB, SB, blinds, places, seated, table


def with_seat(plan: HandPlan, seat: SeatState) -> tuple[SeatState, ...]:
    return tuple(seat if s.seat_no == seat.seat_no else s for s in plan.seats)


def status(plan: HandPlan, seat_no: int, value: str) -> tuple[SeatState, ...]:
    return with_seat(plan, replace(plan.seats[seat_no - 1], status=value))


def started() -> HandPlan:
    """Players in seats 1-6 of 10; button 1, SB 2, BB 3."""
    return first_hand(table(), seated(10, range(1, 7)), 1)


def test_r35_absent_when_the_big_blind_comes_gets_missed_bb_and_is_skipped():
    plan = next_hand(started().table, status(started(), 4, "absent"))
    assert places(plan) == (2, 3, 5)
    assert plan.missed_bb == (4,) and plan.seats[3].missed_bb
    assert 4 not in plan.dealt_in


def test_r35_absent_when_the_small_blind_comes_gets_missed_sb_and_it_is_dead():
    plan = next_hand(started().table, status(started(), 3, "absent"))  # seat 3 had the BB
    assert plan.missed_sb == (3,) and plan.seats[2].missed_sb and not plan.seats[2].missed_bb
    assert blinds(plan) == [(4, "big_blind")]


def test_r35_returning_with_missed_bb_posts_sb_dead_and_bb_live_in_any_position():
    plan = next_hand(started().table, status(started(), 4, "absent"))  # BB 5, seat 4 missed it
    for _ in range(2):  # until the button has passed seat 4: button 5, SB 6, BB 1
        plan = next_hand(plan.table, plan.seats)
    back = status(plan, 4, "active")
    waited = next_hand(plan.table, back)
    assert 4 not in waited.dealt_in and waited.waiting[0].rule == "R35"
    posted = next_hand(plan.table, back, posting={4})
    assert 4 in posted.dealt_in
    assert [(p.seat_no, p.kind, p.amount) for p in posted.posts if p.seat_no == 4] == [
        (4, "dead_small_blind", SB), (4, "live_big_blind", BB)]
    assert not posted.seats[3].missed_bb and not posted.seats[3].missed_sb


def test_r35_missed_sb_alone_is_posted_dead():
    seat = SeatState(4, 104, missed_sb=True)
    assert owed(seat) == ("dead_small_blind",)
    assert owed(replace(seat, missed_bb=True)) == ("dead_small_blind", "live_big_blind")
    assert owed(replace(seat, missed_sb=False, missed_bb=True)) == ("dead_small_blind", "live_big_blind")
    assert owed(SeatState(4, 104, owes_bb=True)) == ("live_big_blind",)
    assert owed(SeatState(4, 104)) == ()


def test_r35_waiting_for_the_big_blind_clears_the_buttons_without_a_dead_blind():
    plan = next_hand(started().table, status(started(), 4, "absent"))  # button 2, SB 3, BB 5
    seats = status(plan, 4, "active")
    for _ in range(4):  # big blinds 6, 1, 2, 3: seat 4 waits
        plan = next_hand(plan.table, seats)
        seats = plan.seats
        assert 4 not in plan.dealt_in
    plan = next_hand(plan.table, seats)
    assert plan.table.big_blind_seat == 4 and 4 in plan.dealt_in
    assert [p.kind for p in plan.posts if p.seat_no == 4] == ["big_blind"]
    assert not plan.seats[3].missed_bb


def test_r35_no_one_is_dealt_in_between_the_big_blind_and_the_button():
    plan = first_hand(table(), seated(10, [1, 3, 5, 7]), 1)  # button 1, SB 3, BB 5
    back = with_seat(plan, SeatState(4, 104, missed_bb=True))  # next: button 3, SB 5, BB 7
    with pytest.raises(Conflict) as err:
        next_hand(plan.table, back, posting={4})
    assert err.value.rule == "R35"
    assert next_hand(plan.table, back).waiting[0].seat_no == 4


@pytest.mark.parametrize("policy, dealt", [("post_or_wait", False), ("free", True)])
def test_r36_new_player_waits_or_posts_or_plays_free(policy, dealt):
    plan = started()  # button 1, SB 2, BB 3: next BB 4, seat 8 is behind it
    seats = with_seat(plan, arrive(8, 108, policy=policy))
    nxt = next_hand(plan.table, seats)
    assert (8 in nxt.dealt_in) == dealt and nxt.posts[-1].seat_no != 8
    if not dealt:
        posted = next_hand(plan.table, seats, posting={8})
        assert 8 in posted.dealt_in and posted.posts[-1] == posted.posts[-1].__class__(
            8, "live_big_blind", BB)


@pytest.mark.parametrize("how", ["new", "floor_move", "broken_table"])
def test_r36_new_player_in_the_big_blind_posts_it(how):
    plan = started()  # next BB: seat 4, which is taken, so put the arrival at the SB's seat 7
    seats = with_seat(plan, arrive(7, 107, how))
    seats = tuple(SeatState(s.seat_no) if s.seat_no in (4, 5, 6) else s for s in seats)
    nxt = next_hand(plan.table, seats)
    assert nxt.table.big_blind_seat == 7 and [p.kind for p in nxt.posts if p.seat_no == 7] == [
        "big_blind"]


@pytest.mark.parametrize("how", ["floor_move", "broken_table"])
def test_r19_players_moved_by_the_floor_owe_nothing(how):
    plan = started()
    seats = with_seat(plan, arrive(8, 108, how))
    nxt = next_hand(plan.table, seats)
    assert 8 in nxt.dealt_in and all(p.seat_no != 8 for p in nxt.posts)


def test_r19_floor_moved_player_still_waits_between_the_big_blind_and_the_button():
    plan = first_hand(table(), seated(10, [1, 3, 5, 7]), 1)  # button 1, SB 3, BB 5
    nxt = next_hand(plan.table, with_seat(plan, arrive(4, 104, "broken_table")))
    assert 4 not in nxt.dealt_in and nxt.waiting[0].rule == "R35"


def test_r36_moving_two_occupied_seats_away_from_the_button_owes_the_big_blind():
    plan = first_hand(table(), seated(10, [1, 2, 3, 5, 6]), 1)  # button 1, SB 2, BB 3
    seats = move_seat(plan.table, plan.seats, 2, 4)  # passes seat 3 only
    assert not seats[3].owes_bb and seats[1].player_id is None and seats[3].player_id == 102
    seats = move_seat(plan.table, plan.seats, 2, 7)  # passes seats 3, 5 and 6
    assert seats[6].owes_bb and seats[6].status == "new"
    nxt = next_hand(plan.table, seats)
    assert 7 not in nxt.dealt_in  # dodging the blinds: posts a big blind or waits for it


def test_r36_moving_towards_the_button_or_by_the_floor_owes_nothing():
    plan = first_hand(table(), seated(10, [1, 2, 3, 5, 6]), 1)
    assert not move_seat(plan.table, plan.seats, 6, 4)[3].owes_bb
    assert not move_seat(plan.table, plan.seats, 2, 7, by_floor=True)[6].owes_bb


def test_r36_moving_keeps_the_buttons_and_refuses_a_taken_seat():
    plan = first_hand(table(), seated(10, [1, 2, 3, 5, 6]), 1)
    seats = with_seat(plan, replace(plan.seats[4], missed_bb=True, status="absent"))
    assert move_seat(plan.table, seats, 5, 9)[8].missed_bb
    with pytest.raises(Conflict):
        move_seat(plan.table, seats, 5, 6)


def test_r34_r35_worked_example_of_docs_blinds():
    plan = first_hand(table(), seated(10, range(1, 6)), 1)
    rows = [(places(plan), blinds(plan), plan.dealt_in)]
    plan = next_hand(plan.table, with_seat(plan, SeatState(2)))
    rows.append((places(plan), blinds(plan), plan.dealt_in))
    plan = next_hand(plan.table, status(plan, 5, "absent"))
    rows.append((places(plan), blinds(plan), plan.dealt_in))
    assert plan.missed_bb == (5,)
    plan = next_hand(plan.table, status(plan, 5, "active"))
    rows.append((places(plan), blinds(plan), plan.dealt_in))
    assert [w.seat_no for w in plan.waiting] == [5]
    plan = next_hand(plan.table, plan.seats, posting={5})
    rows.append((places(plan), blinds(plan), plan.dealt_in))
    assert rows == [
        ((1, 2, 3), [(2, "small_blind"), (3, "big_blind")], (2, 3, 4, 5, 1)),
        ((2, 3, 4), [(3, "small_blind"), (4, "big_blind")], (3, 4, 5, 1)),
        ((3, 4, 1), [(4, "small_blind"), (1, "big_blind")], (4, 1, 3)),
        ((4, 1, 3), [(1, "small_blind"), (3, "big_blind")], (1, 3, 4)),
        ((1, 3, 4), [(3, "small_blind"), (4, "big_blind"), (5, "dead_small_blind"),
                     (5, "live_big_blind")], (3, 4, 5, 1)),
    ]


# ---- issue 40: settings rooms differ on (R17, R35) ---------------------------------------------


@pytest.mark.parametrize("policy", ["post_or_wait", "free"])
def test_r17_moved_when_the_big_blind_reached_them_posts_a_big_blind_at_the_main_table(policy):
    """Under "move at the big blind" the player dodged that big blind at the must-move table: at
    the main table they post one or wait for it, whatever the new players' policy; moved at once
    they come in free (R19)."""
    assert must_move_arrival("at_once") == "floor_move"
    free = arrive(5, 99, must_move_arrival("at_once"), policy)
    assert owed(free) == ()
    mover = arrive(5, 99, must_move_arrival("big_blind"), policy)
    assert owed(mover) == ("live_big_blind",)
    plan = next_hand(started().table, with_seat(started(), mover))  # button 2, SB 3, BB 4
    assert 5 not in plan.dealt_in
    (why,) = [w for w in plan.waiting if w.seat_no == 5]
    assert why.rule == "R36" and why.posts == ("live_big_blind",)
    posted = next_hand(started().table, with_seat(started(), mover), posting={5})
    assert 5 in posted.dealt_in and (5, "live_big_blind") in blinds(posted)


def behind_table(allowed: bool) -> HandPlan:
    """Players in 1, 2, 4, 5, 6 of 10, hand 1: button 1, SB 2, BB 4; hand 2 will be button 2,
    SB 4, BB 5, so seat 3 is behind the button."""
    t = replace(table(), post_behind_button=allowed)
    return first_hand(t, seated(10, [1, 2, 4, 5, 6]), 1)


@pytest.mark.parametrize(("seat", "posts"), [
    (arrive(3, 99), [(3, "live_big_blind")]),
    (SeatState(3, 99, missed_sb=True, missed_bb=True), [(3, "dead_small_blind"), (3, "live_big_blind")]),
    (arrive(3, 99, "floor_move"), [(3, "live_big_blind")]),  # at least a big blind there
    (arrive(3, 99, policy="free"), [(3, "live_big_blind")]),
])
def test_r35_where_the_room_allows_it_a_player_posts_behind_the_button(seat, posts):
    plan = behind_table(True)
    waits = next_hand(plan.table, with_seat(plan, seat))
    assert places(waits) == (2, 4, 5) and 3 not in waits.dealt_in
    (why,) = [w for w in waits.waiting if w.seat_no == 3]
    assert why.rule == "R35" and why.reason.startswith("behind the button: posts")
    assert list(why.posts) == [kind for _no, kind in posts]
    dealt = next_hand(plan.table, with_seat(plan, seat), posting={3})
    assert places(dealt) == (2, 4, 5) and dealt.dealt_in == (3, 4, 5, 6, 1, 2)
    assert [p for p in blinds(dealt) if p[0] == 3] == posts
    after = dealt.seats[2]
    assert not (after.owes_bb or after.missed_sb or after.missed_bb) and after.status == "active"


def test_r35_by_default_nobody_posts_behind_the_button():
    plan = behind_table(False)
    seats = with_seat(plan, arrive(3, 99))
    (why,) = [w for w in next_hand(plan.table, seats).waiting if w.seat_no == 3]
    assert why.reason.startswith("between the big blind and the button") and why.posts == ()
    with pytest.raises(Conflict) as err:
        next_hand(plan.table, seats, posting={3})
    assert err.value.rule == "R35"


def test_r35_in_dealers_choice_no_seat_is_behind_the_button():
    """Dealer's Choice has the button post the small blind: nobody sits between them, and a new
    player elsewhere owes the big blind as anywhere (R36)."""
    t = replace(table(dealers_choice=True), post_behind_button=True)
    plan = first_hand(t, seated(10, [1, 2, 4, 5, 6]), 1)  # button and SB 1, BB 2
    nxt = next_hand(plan.table, with_seat(plan, arrive(8, 99)))
    assert places(nxt) == (2, 2, 4) and 8 not in nxt.dealt_in
    assert [(w.seat_no, w.rule) for w in nxt.waiting] == [(8, "R36")]
