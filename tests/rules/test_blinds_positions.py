"""R33/R34: button, blinds and the dead button, on the pure blind rules (no database)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import HandPlan, SeatState, TableState
from roomops.errors import Conflict

SB, BB = 50, 100


def seated(n: int, taken: Iterable[int]) -> tuple[SeatState, ...]:
    """Seats 1..n, each taken seat by player 100 + seat, active."""
    taken = set(taken)
    return tuple(SeatState(s, 100 + s) if s in taken else SeatState(s) for s in range(1, n + 1))


def table(n: int = 10, dealers_choice: bool = False) -> TableState:
    return TableState(n, SB, BB, dealers_choice=dealers_choice)


def places(plan: HandPlan) -> tuple[int | None, int | None, int | None]:
    return plan.table.button, plan.table.small_blind_seat, plan.table.big_blind_seat


def blinds(plan: HandPlan) -> list[tuple[int, str]]:
    return [(p.seat_no, p.kind) for p in plan.posts]


def leave(plan: HandPlan, *seat_nos: int) -> tuple[SeatState, ...]:
    return tuple(SeatState(s.seat_no) if s.seat_no in seat_nos else s for s in plan.seats)


def test_r33_first_hand_button_on_the_high_card_blinds_to_its_left():
    plan = first_hand(table(), seated(10, [2, 4, 5, 9]), 4)
    assert places(plan) == (4, 5, 9)
    assert blinds(plan) == [(5, "small_blind"), (9, "big_blind")]
    assert plan.dealt_in == (5, 9, 2, 4)  # dealt from the left of the button round to it
    assert [p.amount for p in plan.posts] == [SB, BB]


def test_r33_first_hand_starts_afresh_nobody_owes_anything():
    """Players who sat down before the first hand, or carried buttons into a redraw, owe nothing."""
    owing = tuple(SeatState(s.seat_no, s.player_id, "new", missed_bb=s.seat_no == 2, owes_bb=True)
                  if s.player_id else s for s in seated(10, [2, 4, 5, 9]))
    plan = first_hand(table(), owing, 4)
    assert blinds(plan) == [(5, "small_blind"), (9, "big_blind")]
    assert not any(s.owes_bb or s.missed_bb for s in plan.seats)


def test_r33_first_hand_refuses_an_empty_high_card_seat():
    with pytest.raises(Conflict) as err:
        first_hand(table(), seated(10, [2, 4]), 3)
    assert err.value.rule == "R33"


@pytest.mark.parametrize("players", range(3, 11))
def test_r33_r34_every_player_has_each_position_once_an_orbit(players):
    plan = first_hand(table(), seated(10, range(1, players + 1)), 1)
    buttons, sbs, bbs = [], [], []
    for _ in range(players):
        plan = next_hand(plan.table, plan.seats)
        buttons.append(plan.table.button)
        sbs += [p.seat_no for p in plan.posts if p.kind == "small_blind"]
        bbs += [p.seat_no for p in plan.posts if p.kind == "big_blind"]
        assert len(plan.dealt_in) == players
    everyone = list(range(1, players + 1))
    assert sorted(buttons) == sorted(sbs) == sorted(bbs) == everyone
    assert buttons == [*everyone[1:], 1]  # one seat clockwise each hand


def test_r33_heads_up_button_posts_the_small_blind_and_blinds_alternate():
    plan = first_hand(table(), seated(10, [3, 8]), 8)
    assert places(plan) == (8, 8, 3) and plan.heads_up
    assert plan.dealt_in == (3, 8)
    plan = next_hand(plan.table, plan.seats)
    assert places(plan) == (3, 3, 8)
    assert blinds(plan) == [(3, "small_blind"), (8, "big_blind")]
    assert places(next_hand(plan.table, plan.seats)) == (8, 8, 3)


def test_r33_dealers_choice_the_button_posts_the_small_blind():
    plan = first_hand(table(dealers_choice=True), seated(10, [1, 4, 6, 9]), 4)
    assert places(plan) == (4, 4, 6)
    plan = next_hand(plan.table, plan.seats)
    assert places(plan) == (6, 6, 9)
    assert blinds(plan) == [(6, "small_blind"), (9, "big_blind")]
    assert plan.dealt_in == (9, 1, 4, 6)


def test_r34_dead_button_in_front_of_an_empty_seat():
    plan = first_hand(table(), seated(10, [1, 2, 3, 4, 5]), 1)  # button 1, SB 2, BB 3
    plan = next_hand(plan.table, leave(plan, 2))  # the player due the button left
    assert places(plan) == (2, 3, 4)  # the button stays on the empty seat 2
    assert blinds(plan) == [(3, "small_blind"), (4, "big_blind")]
    assert plan.dealt_in == (3, 4, 5, 1)


def test_r34_dead_small_blind_when_the_big_blind_left():
    plan = first_hand(table(), seated(10, [1, 2, 3, 4, 5]), 1)
    plan = next_hand(plan.table, leave(plan, 3))
    assert places(plan) == (2, 3, 4)
    assert blinds(plan) == [(4, "big_blind")]  # nobody posts the small blind
    plan = next_hand(plan.table, plan.seats)
    assert places(plan) == (3, 4, 5)  # dead button on seat 3, everyone's turn kept


@pytest.mark.parametrize("gone", [1, 2, 3, 4, 6])
def test_r34_a_player_leaving_from_any_position_skips_nobody(gone):
    plan = first_hand(table(), seated(10, [1, 2, 3, 4, 6, 8]), 1)  # button 1, SB 2, BB 3
    plan = next_hand(plan.table, leave(plan, gone))
    bb = 4 if gone != 4 else 6
    assert plan.table.big_blind_seat == bb
    assert (2 in plan.dealt_in) == (gone != 2)
    assert len({p.seat_no for p in plan.posts}) == len(plan.posts)  # no seat posts twice


def test_r33_three_to_heads_up_when_the_big_blind_leaves():
    plan = first_hand(table(), seated(10, [1, 2, 3]), 1)  # button 1, SB 2, BB 3
    plan = next_hand(plan.table, leave(plan, 3))
    # the big blind moves on to seat 1; seat 2 takes the button and the small blind
    assert plan.heads_up and places(plan) == (2, 2, 1)


def test_r33_three_to_heads_up_when_the_button_leaves():
    plan = first_hand(table(), seated(10, [1, 2, 3]), 1)
    plan = next_hand(plan.table, leave(plan, 1))
    assert plan.heads_up and places(plan) == (3, 3, 2)  # the big blind is not posted twice


def test_r33_heads_up_to_three_handed_the_button_stays():
    plan = first_hand(table(), seated(10, [2, 5]), 2)  # button/SB 2, BB 5
    joined = tuple(SeatState(7, 107, "new") if s.seat_no == 7 else s for s in plan.seats)
    plan = next_hand(plan.table, joined)
    # the new player in seat 7 is due the big blind next; the button may not go back
    assert not plan.heads_up and places(plan) == (2, 5, 7)
    assert blinds(plan) == [(5, "small_blind"), (7, "big_blind")]


def test_r33_heads_up_new_player_between_button_and_big_blind_waits():
    plan = first_hand(table(), seated(10, [2, 5]), 2)  # button/SB 2, BB 5
    joined = tuple(SeatState(3, 103, "new") if s.seat_no == 3 else s for s in plan.seats)
    plan = next_hand(plan.table, joined)
    assert plan.heads_up and places(plan) == (5, 5, 2)
    assert [w.seat_no for w in plan.waiting] == [3]
    plan = next_hand(plan.table, plan.seats)
    assert places(plan) == (5, 2, 3) and plan.dealt_in == (2, 3, 5)


def test_r33_one_player_left_is_refused():
    plan = first_hand(table(), seated(10, [2, 5]), 2)
    with pytest.raises(Conflict) as err:
        next_hand(plan.table, leave(plan, 5))
    assert err.value.rule == "R33"


def test_r33_next_hand_needs_a_first_hand():
    with pytest.raises(Conflict):
        next_hand(table(), seated(10, [1, 2, 3]))


def test_r33_heads_up_button_goes_forward_to_the_first_player_after_it():
    plan = first_hand(table(6), seated(6, [1, 2, 3, 5, 6]), 1)  # button 1, SB 2, BB 3
    plan = next_hand(plan.table, leave(plan, 1, 2, 3))
    # the big blind would go to seat 5 and the button back to 6: seat 5 takes the button instead
    assert plan.heads_up and places(plan) == (5, 5, 6)


def test_r33_heads_up_with_a_new_player_owing_the_big_blind_on_the_button_redraws():
    plan = first_hand(table(6), seated(6, [1, 2, 3, 6]), 1)  # button 1, SB 2, BB 3
    seats = tuple(SeatState(5, 105, "new", owes_bb=True) if s.seat_no == 5 else s
                  for s in leave(plan, 1, 2, 3))
    # seat 5 owes the big blind, and giving it means moving the button back to seat 6
    with pytest.raises(Conflict) as err:
        next_hand(plan.table, seats)
    assert err.value.rule == "R33" and "draw for the button" in err.value.message
