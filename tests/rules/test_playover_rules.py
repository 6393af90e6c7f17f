"""R29 as pure rules: who may play over, the owner's side, and "no playover" to the second."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from roomops.absences.rules import check_overplayer_stack
from roomops.errors import Invalid
from roomops.playovers.rules import (
    Overplayer,
    no_playover_deadline,
    no_playover_refusal,
    no_playover_running,
    overplayer_refusal,
    owner_refusal,
)

T = datetime(2026, 11, 21, 21, 0, tzinfo=UTC)
S = timedelta(seconds=1)
ELIGIBLE = Overplayer(on_the_list=True, awaiting_checkin=False, holds_offer=False, at_the_table=False,
                      barred_at_the_table=False, seated_in_room=False, playing_over=False)


def test_an_eligible_waiting_player_may_play_over():
    assert overplayer_refusal(ELIGIBLE) is None


@pytest.mark.parametrize("field,rule", [
    ("on_the_list", "R14"), ("awaiting_checkin", "R12"), ("holds_offer", "R14"),
    ("at_the_table", "R14"), ("barred_at_the_table", "R15"), ("seated_in_room", "R29"),
    ("playing_over", "R29"),
])
def test_each_reason_a_player_may_not_play_over(field, rule):
    refusal = overplayer_refusal(replace(ELIGIBLE, **{field: not getattr(ELIGIBLE, field)}))
    assert refusal is not None and refusal.rule == rule


def test_a_second_playover_is_refused_as_such_not_as_being_at_the_table():
    refusal = overplayer_refusal(replace(ELIGIBLE, playing_over=True, at_the_table=True))
    assert refusal is not None and "already playing over" in refusal.reason


@pytest.mark.parametrize("now,running", [(T - S, True), (T, False), (T + S, False)])
def test_no_playover_runs_strictly_before_its_deadline(now, running):
    assert no_playover_running(T, now) is running
    refusal = owner_refusal(T, now, needs_consent=False, consent=False, played_over=False)
    if running:
        assert refusal is not None and refusal.rule == "R29"
        assert "no playover until 21:00:00" in refusal.reason
    else:
        assert refusal is None


def test_owner_side_refusals():
    assert owner_refusal(None, T, False, False, False) is None
    assert not no_playover_running(None, T)
    assert "already playing over" in owner_refusal(None, T, False, False, True).reason
    assert "consent" in owner_refusal(None, T, True, False, False).reason
    assert owner_refusal(None, T, True, True, False) is None


def test_no_playover_request_limits():
    assert no_playover_refusal(10, 10, False, False) is None
    assert "at most 10 minutes" in no_playover_refusal(11, 10, False, False).reason
    assert "already asked" in no_playover_refusal(5, 10, True, False).reason
    assert "already playing over" in no_playover_refusal(5, 10, False, True).reason
    assert no_playover_deadline(T, 7) == T + timedelta(minutes=7)


@pytest.mark.parametrize("stack", [None, 0, 1, 10**12])
def test_r27_r29_an_overplayers_counted_stack_is_nothing_or_more(stack):
    check_overplayer_stack(stack)  # None: not counted (the cage's cash-out then needs approval)


def test_r29_a_negative_overplayer_stack_is_refused_naming_r29():
    with pytest.raises(Invalid) as err:
        check_overplayer_stack(-1)
    assert err.value.rule == "R29" and err.value.amounts == {"stack": -1}
