"""R15, R17-R19 on the pure rules: must-move priority, the R18 shortness check, chips carried and
added, the balancing suggestion and break-table placement (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.errors import Invalid
from roomops.holds.allocation import Assignment, Candidate, TableState, allocate, leaves_short
from roomops.seating.balance import Seated, Suggestion, TableCount, check_added, suggest_move

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


# ---- R17: must-move goes first, to its main table only ------------------------------------------


def test_r17_must_move_player_goes_before_every_list_entry_in_sitting_order():
    main, other = TableState(1, [4], {10}), TableState(2, [6], {20})
    cands = [
        Candidate(1, 101, at(0)),  # waiting list, joined before anyone sat down
        Candidate(2, 102, at(1), table_id=1),  # main table's reserve list
        Candidate(None, 31, at(30), table_id=1, from_hold_id=301),  # sat down later...
        Candidate(None, 30, at(20), table_id=1, from_hold_id=300),  # ...than this one
    ]
    result = allocate([main, other], cands, set(), set())
    assert result == [Assignment(1, 4, None, 30, 300), Assignment(2, 6, 1, 101)]


def test_r17_must_move_player_is_never_placed_at_another_table():
    result = allocate([TableState(2, [6], set())],
                      [Candidate(None, 30, at(0), table_id=1, from_hold_id=300)], set(), set())
    assert result == []


def test_r15_r17_barred_must_move_player_passes_to_the_next():
    main = TableState(1, [4], {10})
    cands = [Candidate(None, 30, at(0), table_id=1, from_hold_id=300),
             Candidate(None, 31, at(1), table_id=1, from_hold_id=301)]
    assert allocate([main], cands, {frozenset((30, 10))}, set()) == [Assignment(1, 4, None, 31, 301)]


# ---- R18: a voluntary table change may not leave the table short --------------------------------


@pytest.mark.parametrize("from_seated,to_seated,short", [
    (9, 7, False),  # 8 stay, 8 there
    (9, 8, True),  # 8 stay, 9 there
    (8, 7, True),
    (6, 2, False),
    (5, 5, True),
])
def test_r18_leaves_short(from_seated, to_seated, short):
    assert leaves_short(from_seated, to_seated) is short


def test_r18_allocation_passes_over_a_table_change_that_leaves_a_table_short():
    t1, t2 = TableState(1, [], {1, 2, 3, 4, 5}, seated=5), TableState(2, [9], {6, 7, 8}, seated=3)
    change = Candidate(1, 1, at(0), table_id=2, seated_at=1)  # 4 stay, 4 there: fine
    assert allocate([t1, t2], [change], set(), set()) == [Assignment(2, 9, 1, 1)]
    t1.seated, t2 = 4, TableState(2, [9], {6, 7, 8}, seated=3)  # 3 stay, 4 there: refused
    assert allocate([t1, t2], [change, Candidate(2, 50, at(1))], set(), set()) == [
        Assignment(2, 9, 2, 50)]


# ---- R18/R28/R30: the stack carried, chips added ------------------------------------------------


@pytest.mark.parametrize("stack,added", [(500, 0), (90000, 0), (30000, 10000), (1, 0)])
def test_r18_any_stack_is_carried_and_chips_added_up_to_the_maximum(stack, added):
    check_added(stack, added, 40000)


@pytest.mark.parametrize("stack,added,rule", [(1000, -1, "R28"), (30000, 10001, "R30"),
                                              (50000, 1, "R30"), (0, 0, "R18")])
def test_r18_r28_refused_stacks(stack, added, rule):
    with pytest.raises(Invalid) as err:
        check_added(stack, added, 40000)
    assert err.value.rule == rule


# ---- R19: balancing -----------------------------------------------------------------------------


def _table(tid: int, players: list[int], open_seats: int = 0, **kw) -> TableCount:
    seated = [Seated(tid * 100 + p, p, at(p)) for p in players]  # player p sat down at minute p
    return TableCount(tid, seated, list(range(10 - open_seats, 10)), **kw)


def test_r19_last_to_join_the_fuller_table_moves_to_the_shortest():
    tables = [_table(1, [1, 2, 3, 9, 4, 5, 6], 2), _table(2, [7, 8, 10, 11, 12], 4),
              _table(3, [13, 14, 15, 16, 17, 18, 19, 20], 1)]
    assert suggest_move(tables, set()) == Suggestion(320, 20, 3, 2, 6, "last to join")


def test_r19_no_suggestion_when_tables_differ_by_one():
    assert suggest_move([_table(1, [1, 2, 3], 6), _table(2, [4, 5], 7)], set()) is None


def test_r19_the_transfer_list_applies_first():
    tables = [_table(1, [1, 2, 3, 4], 5), _table(2, [5, 6], 7, transfers=[99, 2, 3])]
    assert suggest_move(tables, set()) == Suggestion(102, 2, 1, 2, 3, "transfer list")


def test_r15_r19_a_barred_player_is_not_suggested():
    tables = [_table(1, [1, 2, 3, 4], 5), _table(2, [5, 6], 7)]
    assert suggest_move(tables, {frozenset((4, 6))}).player_id == 3


def test_r17_r19_must_move_tables_are_balanced_by_the_must_move():
    tables = [_table(1, [1, 2, 3, 4, 5], 4), _table(2, [6], 8, feeds=1), _table(3, [7, 8, 9], 6)]
    assert suggest_move(tables, set()) is None


# ---- R19: breaking a table places players where most needed (the R14 allocation) ----------------


def test_r19_break_places_longest_seated_first_into_the_table_most_in_need():
    others = [TableState(1, [8, 9], {1, 2, 3, 4, 5, 6, 7}), TableState(2, [6, 7, 8, 9], {11, 12, 13})]
    movers = [Candidate(None, 40 + i, at(i), from_hold_id=400 + i) for i in (2, 0, 1)]
    result = allocate(others, movers, {frozenset((41, 11))}, set())
    # 40 to table 2 (3 seated); 41 barred at table 2, so table 1; 42 to table 2
    assert [(a.player_id, a.table_id) for a in result] == [(40, 2), (41, 1), (42, 2)]
