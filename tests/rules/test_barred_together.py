"""R15 with R19 (issue 20): two barred players seated at one table, who should move and where, with
no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from roomops.seating.balance import Apart, Seated, TableCount, barred_together

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def sat(hold: int, player: int, minutes: float) -> Seated:
    return Seated(hold, player, T0 + timedelta(minutes=minutes))


def pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def test_r15_the_later_to_sit_down_moves_to_the_table_most_in_need():
    t1 = TableCount(1, [sat(11, 1, 0), sat(12, 2, 5), sat(13, 3, 10)], [])
    t2 = TableCount(2, [sat(21, 4, 0), sat(22, 5, 0)], [3, 7])
    t3 = TableCount(3, [sat(31, 6, 0)], [2])
    assert barred_together([t1, t2, t3], {pair(1, 2)}) == [Apart(12, 2, 1, 1, 3, 2)]


def test_r15_never_beside_someone_else_the_mover_is_barred_from():
    t1 = TableCount(1, [sat(11, 1, 0), sat(12, 2, 5)], [])
    t2 = TableCount(2, [sat(21, 4, 0)], [3])
    t3 = TableCount(3, [sat(31, 6, 0), sat(32, 7, 0)], [2])
    assert barred_together([t1, t2, t3], {pair(1, 2), pair(2, 4)}) == [Apart(12, 2, 1, 1, 3, 2)]


def test_r15_with_no_seat_free_elsewhere_the_floor_decides():
    t1 = TableCount(1, [sat(11, 1, 5), sat(12, 2, 0)], [4])  # a seat here does not separate them
    t2 = TableCount(2, [sat(21, 4, 0)], [])
    assert barred_together([t1, t2], {pair(1, 2)}) == [Apart(11, 1, 2, 1, None, None)]


def test_r15_players_at_different_tables_or_not_barred_need_nothing():
    t1 = TableCount(1, [sat(11, 1, 0), sat(12, 3, 0)], [5])
    t2 = TableCount(2, [sat(21, 2, 0)], [5])
    assert barred_together([t1, t2], {pair(1, 2)}) == []
    assert barred_together([t1, t2], set()) == []


def test_r15_each_pair_at_a_table_is_named_once():
    t1 = TableCount(1, [sat(11, 1, 0), sat(12, 2, 1), sat(13, 3, 2)], [])
    t2 = TableCount(2, [], [1, 2, 3])
    found = barred_together([t1, t2], {pair(1, 2), pair(1, 3)})
    assert [(a.player_id, a.barred_from) for a in found] == [(2, 1), (3, 1)]
