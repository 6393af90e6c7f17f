"""R33-R36: over any sequence of hands with players joining, leaving, going absent and coming
back, the forward-moving big blind meets every present player's obligations exactly once an
orbit, the button never goes back, and missed buttons land only on absent seats; with the room's
exceptions (issue 40) too: posting behind the button (R35) and must-move players moved at the big
blind (R17)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import example, given, settings
from hypothesis import strategies as st

from roomops.blinds.missed import arrive, must_move_arrival, owed
from roomops.blinds.positions import first_hand, next_hand
from roomops.blinds.state import HandPlan, SeatState, TableState, between
from roomops.errors import Conflict

EVENTS = st.sampled_from(["join", "free", "floor", "mover", "leave", "away", "back", "post"])
STEP = st.lists(st.tuples(EVENTS, st.integers(1, 10)), max_size=3)


def _apply(seats: list[SeatState], event: str, no: int, pid: int) -> int | None:
    """One change between hands; returns a seat that asks to post what it owes."""
    seat = seats[no - 1]
    if seat.player_id is None and event in ("join", "free", "floor", "mover"):
        how = {"floor": "floor_move", "mover": must_move_arrival("big_blind")}.get(event, "new")
        seats[no - 1] = arrive(no, pid, how, "free" if event == "free" else "post_or_wait")
    elif seat.player_id is not None and event == "leave":
        seats[no - 1] = SeatState(no)
    elif seat.present and event == "away":
        seats[no - 1] = replace(seat, status="absent")
    elif seat.absent and event == "back":
        seats[no - 1] = replace(seat, status="active")
    elif seat.present and event == "post":
        return no
    return None


def _deal(table: TableState, seats: tuple[SeatState, ...],
          posting: set[int]) -> tuple[HandPlan, bool] | None:
    """The next hand, and whether it was a redraw: a refused post waits instead (R35); a game
    that cannot go on draws for the button again (R33)."""
    try:
        return next_hand(table, seats, posting), False
    except Conflict as err:
        if err.rule == "R35":
            return _deal(table, seats, set())
    present = [s.seat_no for s in seats if s.present]
    return (first_hand(table, seats, present[0]), True) if len(present) >= 2 else None


def _check(before: TableState, seats: tuple[SeatState, ...], posting: set[int], plan: HandPlan) -> None:
    n, prev_bb, after = before.seats_per_table, before.big_blind_seat, plan.table
    by_no = {s.seat_no: s for s in seats}
    bb, sb, button = after.big_blind_seat, after.small_blind_seat, after.button
    assert bb is not None and sb is not None and button is not None and prev_bb is not None
    # missed buttons only on seats absent at the time
    assert all(by_no[s].absent for s in plan.missed_sb + plan.missed_bb)
    # no seat posts two blinds; blind posters post nothing else
    blind_posts = [p.seat_no for p in plan.posts if p.kind in ("small_blind", "big_blind")]
    assert len(blind_posts) == len(set(blind_posts))
    assert all(p.kind in ("small_blind", "big_blind") for p in plan.posts if p.seat_no in blind_posts)
    assert all(by_no[s].present for s in plan.dealt_in) and bb in plan.dealt_in
    # everyone else dealt in posted exactly what they owed (behind the button, at least a big
    # blind), and only if they asked to
    behind = {s for s in by_no if before.post_behind_button and button != sb and between(button, sb, s, n)}
    for s in plan.dealt_in:
        if s not in blind_posts:
            due = list(owed(by_no[s])) or (["live_big_blind"] if s in behind else [])
            assert [p.kind for p in plan.posts if p.seat_no == s] == due
            assert not due or s in posting
    assert (bb - prev_bb) % n > 0  # the big blind moves forward
    if plan.heads_up:
        assert button == sb and len(plan.dealt_in) == 2
        return
    # R34: the big blind skips nobody present; those it passes are absent and get missed BB
    passed = {s for s in by_no if by_no[s].player_id and between(prev_bb, bb, s, n)}
    assert passed <= set(plan.missed_bb) and all(by_no[s].absent for s in passed)
    # the small blind is the seat that had the big blind: its player posts it or misses it
    assert sb == prev_bb
    assert (sb in blind_posts) == (by_no[sb].status == "active" and by_no[sb].present)
    assert (sb in plan.missed_sb) == by_no[sb].absent
    # R35: nobody dealt in between the button and the big blind but the small blind, and where
    # the room allows it those who posted behind the button (between it and the small blind)
    assert all(s == sb or (s in behind and s in posting)
               for s in plan.dealt_in if between(button, bb, s, n))


@settings(max_examples=150, deadline=None)
@given(n=st.integers(2, 10), start=st.sets(st.integers(1, 10), min_size=2), steps=st.lists(STEP, max_size=40),
       dealers_choice=st.booleans(), behind=st.booleans())
# a floor-moved player and a must-move player posting behind the button, as a start
@example(n=10, start={1, 2, 4, 5, 6}, steps=[[("floor", 3), ("post", 3)], [("mover", 7)]],
         dealers_choice=False, behind=True)
def test_r33_r36_blind_obligations_over_random_hands(n, start, steps, dealers_choice, behind):
    taken = sorted(s for s in start if s <= n)
    if len(taken) < 2:
        return
    table = TableState(n, 50, 100, dealers_choice=dealers_choice, post_behind_button=behind)
    plan = first_hand(table, tuple(SeatState(s, s if s in taken else None) for s in range(1, n + 1)),
                      taken[0])
    bb_walk, button_at = 0, -((plan.table.big_blind_seat - plan.table.button) % n)
    for i, step in enumerate(steps):
        seats = list(plan.seats)
        posting = {p for k, (event, no) in enumerate(step) if no <= n
                   if (p := _apply(seats, event, no, 1000 * i + k)) is not None}
        before, after_events = plan.table, tuple(seats)
        dealt = _deal(before, after_events, posting)
        if dealt is None:
            return
        nxt, redrawn = dealt
        if redrawn:  # a new game
            plan, bb_walk = nxt, 0
            button_at = -((nxt.table.big_blind_seat - nxt.table.button) % n)
            continue
        _check(before, after_events, posting, nxt)
        # R33: measured along the big blind's path, the button never goes back
        bb_walk += (nxt.table.big_blind_seat - before.big_blind_seat) % n
        button_now = bb_walk - (nxt.table.big_blind_seat - nxt.table.button) % n
        assert button_now >= button_at and nxt.table.button != nxt.table.big_blind_seat
        button_at, plan = button_now, nxt
