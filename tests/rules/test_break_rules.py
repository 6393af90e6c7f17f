"""R23-R26: break eligibility, deadlines and the away note, with no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.absences.rules import (
    BreakPolicy,
    Refusal,
    away_deadline,
    break_deadline,
    break_refusal,
    granted_over,
    is_running,
    note_needed,
    picked_up_for_blinds,
)
from roomops.errors import Conflict, Invalid

T0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
S = timedelta(seconds=1)
HOUR = timedelta(hours=1)
POLICY = BreakPolicy()


@pytest.mark.parametrize("played,allowed", [(HOUR - 59 * S, False), (HOUR - S, False), (HOUR, True),
                                            (HOUR + S, True)])
def test_r23_needs_continuous_play_to_the_second(played, allowed):
    refusal = break_refusal(POLICY, T0 + played, T0, 0, 0)
    assert (refusal is None) == allowed
    if refusal:
        assert refusal.rule == "R23" and "60 minutes of continuous play" in refusal.reason


def test_r23_time_to_go_is_rounded_up():
    assert "1 minute to go" in break_refusal(POLICY, T0 + HOUR - S, T0, 0, 0).reason
    assert "2 minutes to go" in break_refusal(POLICY, T0 + HOUR - 61 * S, T0, 0, 0).reason


def test_r23_breaks_per_gaming_day():
    refusal = break_refusal(POLICY, T0 + HOUR, T0, 1, 0)
    assert refusal.rule == "R23" and "1 of 1 breaks" in refusal.reason
    assert break_refusal(BreakPolicy(per_gaming_day=2), T0 + HOUR, T0, 1, 0) is None
    assert break_refusal(BreakPolicy(per_gaming_day=0), T0 + HOUR, T0, 0, 0).rule == "R23"


def test_r23_players_on_break_per_table():
    assert break_refusal(POLICY, T0 + HOUR, T0, 0, 2) is None
    refusal = break_refusal(POLICY, T0 + HOUR, T0, 0, 3)
    assert refusal.rule == "R23" and "at most 3" in refusal.reason


def test_r23_no_play_minimum_when_policy_is_zero():
    assert break_refusal(BreakPolicy(after_play_minutes=0), T0, T0, 0, 0) is None


def test_r24_break_deadline_and_running_to_the_second():
    deadline = break_deadline(T0, 60)
    assert deadline == T0 + HOUR
    assert is_running(deadline, deadline - S)
    assert not is_running(deadline, deadline)
    assert not is_running(deadline, deadline + S)


def test_r26_away_deadline_only_when_the_policy_is_set():
    assert away_deadline(T0, None) is None and is_running(None, T0 + 1000 * HOUR)
    assert away_deadline(T0, 45) == T0 + timedelta(minutes=45)


def test_r25_note_needed_after_notify_minutes_until_a_note_is_recorded():
    assert not note_needed(T0, T0 + timedelta(minutes=30) - S, None, 30)
    assert note_needed(T0, T0 + timedelta(minutes=30), None, 30)
    assert not note_needed(T0, T0 + timedelta(minutes=31), "at the bar", 30)


@pytest.mark.parametrize("kind,missed,limit,lost", [
    ("away", 2, 3, False), ("away", 3, 3, True), ("away", 4, 3, True),
    ("away", 99, None, False),  # policy off
    ("break", 3, 3, False),  # R23: a break protects the seat for its time
])
def test_r26_pickup_after_max_missed_big_blinds(kind, missed, limit, lost):
    assert picked_up_for_blinds(kind, missed, limit) is lost


# ---- R23 with R60: a supervisor grants a refused break with a written reason --------------------


def test_r23_a_refused_break_is_granted_only_with_a_written_reason():
    refusal = Refusal("the player has had 1 of 1 breaks allowed this gaming day", "R23")
    with pytest.raises(Conflict) as err:
        granted_over(refusal, None)
    assert err.value.rule == "R23" and "a supervisor may grant it with a written reason" in err.value.message
    assert granted_over(refusal, "  doctor's call  ") == "doctor's call"
    for blank in ("", "   "):
        with pytest.raises(Invalid) as bad:
            granted_over(refusal, blank)
        assert bad.value.rule == "R23"


def test_r23_an_allowed_break_needs_no_reason_and_records_none():
    assert granted_over(None, None) is None
    assert granted_over(None, "not needed") is None
