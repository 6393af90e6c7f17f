"""R14/R15: who gets an opened seat, on the pure allocation rule (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roomops.holds.allocation import Assignment, Candidate, TableState, allocate, is_barred

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_r14_earliest_joined_across_reserve_and_waiting_list():
    tables = [TableState(1, [5], {10, 11})]
    cands = [
        Candidate(1, 1, at(30)),  # waiting list
        Candidate(2, 2, at(20), table_id=1),  # reserve list of table 1, joined earlier
        Candidate(3, 3, at(10), table_id=2),  # reserve list of another table: not for table 1
    ]
    assert allocate(tables, cands, set(), set()) == [Assignment(1, 5, 2, 2)]


def test_r14_waiting_list_entry_beats_later_reserve_entry():
    tables = [TableState(1, [5], set())]
    cands = [Candidate(2, 2, at(20), table_id=1), Candidate(1, 1, at(10))]
    assert allocate(tables, cands, set(), set()) == [Assignment(1, 5, 1, 1)]


def test_r14_several_seats_at_once_in_list_order():
    tables = [TableState(1, [2, 4, 7], set())]
    cands = [Candidate(i, 100 + i, at(10 * (5 - i))) for i in range(5)]  # entry 4 joined first
    result = allocate(tables, cands, set(), set())
    assert [(a.seat_no, a.entry_id) for a in result] == [(2, 4), (4, 3), (7, 2)]


def test_r14_skips_player_already_at_the_table():
    tables = [TableState(1, [3], {1})]
    cands = [Candidate(1, 1, at(0), table_id=1), Candidate(2, 2, at(1))]
    assert allocate(tables, cands, set(), set()) == [Assignment(1, 3, 2, 2)]


@pytest.mark.parametrize("present", ["seated", "called"])
def test_r15_skips_player_barred_with_someone_seated_or_called(present):
    # seated and called players are both in TableState.players; "called" one arrives by an offer
    # made in the same round to an earlier entry.
    if present == "seated":
        tables = [TableState(1, [3, 4], {9})]
        cands = [Candidate(1, 1, at(0)), Candidate(2, 2, at(1))]
        result = allocate(tables, cands, {frozenset((1, 9))}, set())
        assert result == [Assignment(1, 3, 2, 2)]
    else:
        tables = [TableState(1, [3, 4], set())]
        cands = [Candidate(1, 1, at(0)), Candidate(2, 2, at(1)), Candidate(3, 3, at(2))]
        result = allocate(tables, cands, {frozenset((1, 2))}, set())
        assert [a.player_id for a in result] == [1, 3]


def test_r14_skips_player_already_holding_an_offer():
    tables = [TableState(1, [3], set())]
    cands = [Candidate(1, 1, at(0)), Candidate(2, 2, at(1))]
    assert allocate(tables, cands, set(), busy={1}) == [Assignment(1, 3, 2, 2)]


def test_r14_player_on_both_lists_is_offered_once():
    tables = [TableState(1, [3, 4], set()), TableState(2, [1], set())]
    cands = [Candidate(1, 1, at(0)), Candidate(2, 1, at(1), table_id=2), Candidate(3, 2, at(2))]
    result = allocate(tables, cands, set(), set())
    assert sorted(a.player_id for a in result) == [1, 2]
    assert [a.entry_id for a in result if a.player_id == 1] == [1]


def test_r14_most_need_goes_to_the_table_with_fewest_seated_or_called():
    tables = [TableState(1, [9], {1, 2, 3}), TableState(2, [8, 9], {4, 5}), TableState(3, [9], {6, 7})]
    cands = [Candidate(1, 100, at(0)), Candidate(2, 101, at(1)), Candidate(3, 102, at(2))]
    result = allocate(tables, cands, set(), set(), "most_need")
    # tables 2 and 3 tie at 2 players (lower id first); then table 3 has fewest; then all tie at 3
    assert [(a.table_id, a.seat_no) for a in result] == [(2, 8), (3, 9), (1, 9)]


def test_r14_first_open_goes_to_the_first_table_with_a_seat():
    tables = [TableState(2, [9], {1}), TableState(1, [8, 9], {2, 3, 4, 5})]
    cands = [Candidate(1, 100, at(0)), Candidate(2, 101, at(1)), Candidate(3, 102, at(2))]
    result = allocate(tables, cands, set(), set(), "first_open")
    assert [(a.table_id, a.seat_no) for a in result] == [(1, 8), (1, 9), (2, 9)]


def test_r14_reserve_entry_only_goes_to_its_table():
    tables = [TableState(1, [3], set()), TableState(2, [], set())]
    assert allocate(tables, [Candidate(1, 1, at(0), table_id=2)], set(), set()) == []


def test_r15_is_barred_is_symmetric():
    assert is_barred(2, {1, 5}, {frozenset((1, 2))})
    assert is_barred(1, {2}, {frozenset((1, 2))})
    assert not is_barred(3, {1, 2}, {frozenset((1, 2))})


# -- properties ---------------------------------------------------------------------------------

PLAYERS = st.integers(min_value=1, max_value=12)


@st.composite
def scenarios(draw):
    n_tables = draw(st.integers(1, 3))
    tables = []
    for tid in range(1, n_tables + 1):
        seats = draw(st.lists(st.integers(1, 9), unique=True, max_size=4))
        players = draw(st.sets(PLAYERS, max_size=4))
        tables.append(TableState(tid, sorted(seats), set(players)))
    n = draw(st.integers(0, 12))
    cands = []
    for eid in range(1, n + 1):
        table_id = draw(st.one_of(st.none(), st.integers(1, n_tables)))
        cands.append(Candidate(eid, draw(PLAYERS), at(draw(st.integers(0, 50))), table_id))
    barred = {frozenset(p) for p in draw(st.lists(st.tuples(PLAYERS, PLAYERS), max_size=6))
              if p[0] != p[1]}
    busy = draw(st.sets(PLAYERS, max_size=3))
    placement = draw(st.sampled_from(["most_need", "first_open"]))
    return tables, cands, barred, busy, placement


def _eligible(c, table_id, players, barred):
    return c.table_id in (None, table_id) and c.player_id not in players and not is_barred(
        c.player_id, players, barred)


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_r14_r15_allocation_properties(scenario):
    tables, cands, barred, busy, placement = scenario
    initial = {t.table_id: (list(t.open_seats), set(t.players)) for t in tables}
    result = allocate(
        [TableState(t.table_id, list(t.open_seats), set(t.players)) for t in tables],
        cands, barred, busy, placement,
    )
    by_id = {c.entry_id: c for c in cands}
    # no seat twice, no player twice, nobody busy, only seats that were open
    assert len({(a.table_id, a.seat_no) for a in result}) == len(result)
    assert len({a.player_id for a in result}) == len(result)
    assert not {a.player_id for a in result} & busy
    assert all(a.seat_no in initial[a.table_id][0] for a in result)
    # every assignment eligible given who was at the table when it was made (R14/R15)
    present = {tid: set(p) for tid, (_s, p) in initial.items()}
    order = sorted(cands, key=lambda c: (c.queue_at, c.entry_id))
    assigned_players = {a.player_id for a in result}
    for a in result:
        c = by_id[a.entry_id]
        assert c.player_id == a.player_id
        assert _eligible(c, a.table_id, present[a.table_id], barred), a
        # no earlier, unserved, eligible entry was passed over for this seat
        for e in order:
            if (e.queue_at, e.entry_id) >= (c.queue_at, c.entry_id):
                break
            if e.player_id in assigned_players or e.player_id in busy:
                continue
            assert not _eligible(e, a.table_id, present[a.table_id], barred), (e, a)
        present[a.table_id].add(a.player_id)
    # assignments are made in list order
    keys = [(by_id[a.entry_id].queue_at, a.entry_id) for a in result]
    assert keys == sorted(keys)


def requester(request_id: int, player_id: int, seconds: float, table_id: int = 1) -> Candidate:
    """A player seated at ``table_id`` (seat hold 900 + id) asking for a seat change there."""
    return Candidate(None, player_id, at(seconds), table_id, from_hold_id=900 + request_id,
                     seat_change_id=request_id)


def test_r14_r36_seat_change_requesters_first_oldest_first_then_must_move_then_lists():
    """R14/R36: a seat of table 1 goes to its seat-change requesters, oldest request first, before
    a player due a must-move seat (R17) and before the lists; each seat to one requester."""
    tables = [TableState(1, [3, 8], {21, 22, 23})]
    cands = [Candidate(1, 1, at(0)),  # waiting list, joined before anyone asked
             Candidate(None, 5, at(0), 1, from_hold_id=50),  # due a must-move seat
             requester(2, 22, 20), requester(1, 21, 10), requester(3, 23, 5, table_id=2)]
    assert allocate(tables, cands, set(), set()) == [Assignment(1, 3, None, 21, 901, 1),
                                                      Assignment(1, 8, None, 22, 902, 2)]


def test_r14_r36_a_requester_holding_an_offer_is_passed_over_not_the_seat():
    """R14: a requester already called to a seat is not eligible; the next requester is asked."""
    tables = [TableState(1, [3], {21, 22})]
    result = allocate(tables, [requester(1, 21, 10), requester(2, 22, 20)], set(), {21})
    assert result == [Assignment(1, 3, None, 22, 902, 2)]


def test_r14_r36_a_requester_sits_beside_the_players_they_already_sit_beside():
    """R15 does not refuse a requester a seat of their own table (they already play there)."""
    tables = [TableState(1, [3], {21, 30})]
    result = allocate(tables, [requester(1, 21, 10)], {frozenset((21, 30))}, set())
    assert result == [Assignment(1, 3, None, 21, 901, 1)]


def test_r36_requests_made_at_once_go_in_the_order_they_were_made():
    """R36: two requests with the same time go by request, not by the seat asked from."""
    tables = [TableState(1, [3], {21, 22})]
    first = Candidate(None, 22, at(0), 1, from_hold_id=907, seat_change_id=1)
    second = Candidate(None, 21, at(0), 1, from_hold_id=902, seat_change_id=2)
    assert allocate(tables, [second, first], set(), set())[0].seat_change_id == 1
