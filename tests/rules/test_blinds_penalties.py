"""R55/R57: penalty sit-outs counted in hands, rounds per player, and the escalation ladder."""

from __future__ import annotations

import pytest

from roomops.blinds.penalties import Penalty, check_penalty, hands_out, hands_remaining, next_penalty
from roomops.errors import Invalid


def test_r55_a_round_is_one_hand_per_player_at_the_table_when_given():
    assert hands_out(Penalty("rounds", 1, 9, "abuse")) == 9
    assert hands_out(Penalty("rounds", 2, 7, "abuse")) == 14
    assert hands_out(Penalty("hands", 2, reason="acting out of turn")) == 2
    assert hands_out(Penalty("warning", reason="x")) == hands_out(Penalty("removal", reason="x")) == 0


def test_r55_hands_remaining_from_recorded_hands():
    penalty = Penalty("rounds", 1, 6, "exposed a card")
    assert [hands_remaining(penalty, n) for n in (0, 1, 5, 6, 9)] == [6, 5, 1, 0, 0]


@pytest.mark.parametrize("penalty, rule", [
    (Penalty("rounds", 3, 9, "x"), "R55"),
    (Penalty("rounds", 1, 1, "x"), "R55"),
    (Penalty("hands", 0, reason="x"), "R55"),
    (Penalty("hands", 2), "R55"),
    (Penalty("removal", reason="  "), "R57"),
])
def test_r55_r57_refused_penalties(penalty, rule):
    with pytest.raises(Invalid) as err:
        check_penalty(penalty)
    assert err.value.rule == rule


def test_r55_ladder_warning_one_round_two_rounds_removal():
    history: list[Penalty] = []
    kinds = []
    for _ in range(5):
        penalty = next_penalty(history, 8, "again")
        check_penalty(penalty)
        kinds.append((penalty.kind, penalty.count))
        history.append(penalty)
    assert kinds == [("warning", 0), ("rounds", 1), ("rounds", 2), ("removal", 0), ("removal", 0)]
    assert next_penalty([], 8, "x").players_at_table == 0
    assert next_penalty(history[:1], 8, "x").players_at_table == 8


def test_r55_ladder_starts_above_the_harshest_penalty_so_far():
    assert next_penalty([Penalty("rounds", 2, 9, "x")], 9, "y").kind == "removal"
    assert next_penalty([Penalty("hands", 2, reason="x")], 9, "y") == Penalty("rounds", 1, 9, "y")
