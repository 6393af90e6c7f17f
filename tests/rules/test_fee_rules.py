"""R50 and R51 as pure rules: the fee by players seated, the hour or half hour a collection covers,
who is due and for how long, the drop by players dealt in, the methods a fee is taken in, and the
most rake a pot allows (percent, smallest chip, cap, no flop no drop)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid
from roomops.games.terms import fee_text
from roomops.ledger.fee_rules import (
    HOUR,
    RakePolicy,
    check_down_rake,
    check_players,
    check_rake,
    drop_amount,
    due,
    fee_for_players,
    max_rake,
    next_period,
    period,
    step_value,
)
from roomops.ledger.rules import DROP_METHODS, FEE_METHODS, check_method
from roomops.money import Money

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
MIN = timedelta(minutes=1)
STEPS = [{"players": 7, "fee": 600}, {"players": 2, "fee": 300}]  # any order
FIVE = RakePolicy(bp=500, cap=500, smallest_chip=100)  # 5%, max 5.00, 1.00 chip
GBP = Money("GBP")


@pytest.mark.parametrize("players,fee", [(1, 500), (2, 300), (6, 300), (7, 600), (9, 600)])
def test_r50_the_fee_is_the_step_for_the_players_seated_else_the_flat_fee(players, fee):
    assert fee_for_players(500, STEPS, players) == fee


@pytest.mark.parametrize("steps", [None, []])
def test_r50_no_schedule_is_the_flat_fee(steps):
    assert fee_for_players(500, steps, 9) == 500


def test_r50_a_covered_player_extends_from_where_the_paid_hour_ends():
    assert next_period(NOW + 20 * MIN, NOW) == (NOW + 20 * MIN, NOW + 80 * MIN)


@pytest.mark.parametrize("paid_until", [None, NOW, NOW - 90 * MIN])
def test_r50_a_player_not_covered_pays_for_the_coming_hour_from_now(paid_until):
    assert next_period(paid_until, NOW) == (NOW, NOW + HOUR)


def test_r50_covered_is_not_due():
    d = due(NOW + MIN, NOW - 2 * HOUR, NOW)
    assert (d.is_due, d.due_since, d.due_seconds, d.paid_until) == (False, None, 0, NOW + MIN)


def test_r50_due_since_the_paid_hour_ended():
    d = due(NOW - 25 * MIN, NOW - 2 * HOUR, NOW)
    assert (d.is_due, d.due_since, d.due_seconds) == (True, NOW - 25 * MIN, 1500)


def test_r50_never_paid_is_due_since_sitting_down():
    d = due(None, NOW - 10 * MIN, NOW)
    assert (d.is_due, d.due_since, d.due_seconds) == (True, NOW - 10 * MIN, 600)


def test_r50_the_hour_ending_now_is_due_at_once():
    assert due(NOW, NOW - HOUR, NOW).is_due


@pytest.mark.parametrize("pot,percent,cap,chip,most", [
    (10000, 5, 500, 100, 500),     # 5% of 100.00 is 5.00: at the cap
    (20000, 5, 500, 100, 500),     # 10.00 capped at 5.00
    (2990, 5, 500, 100, 100),      # 1.495 rounded down to the 1.00 chip
    (2990, 5, 500, 25, 125),       # ... or to a 0.25 chip
    (150, 10, 500, 25, 0),         # 0.15 is under the smallest chip: nothing
    (20000, 5, 0, 100, 1000),      # cap 0: no cap
    (0, 5, 500, 100, 0),
])
def test_r51_max_rake_is_percent_rounded_down_to_the_chip_and_capped(pot, percent, cap, chip, most):
    assert max_rake(pot, RakePolicy(percent * 100, cap, chip)) == most


def test_r51_a_rake_within_the_maximum_is_accepted():
    assert check_rake(500, 10000, True, FIVE) == 500


def test_r51_a_rake_above_the_maximum_is_refused():
    with pytest.raises(Conflict) as err:
        check_rake(600, 10000, True, FIVE)
    assert err.value.rule == "R51"


def test_r51_no_flop_no_drop():
    with pytest.raises(Conflict) as err:
        check_rake(100, 10000, False, FIVE)
    assert err.value.rule == "R51" and "no flop" in err.value.message
    assert check_rake(100, 10000, False, RakePolicy(500, 500, 100, False)) == 500


@pytest.mark.parametrize("rake,pot", [(0, 10000), (-100, 10000), (100.0, 10000), (True, 10000),
                                      (100, -1), (100, 100.5)])
def test_r51_rake_and_pot_are_whole_minor_units(rake, pot):
    with pytest.raises(Invalid) as err:
        check_rake(rake, pot, True, FIVE)
    assert err.value.rule == "R51"


# ---- R51: a schedule per pot increment, caps by players dealt in, rake per dealer down ----------

SCHEDULE = ({"pot": 4000, "rake": 200}, {"pot": 2000, "rake": 100}, {"pot": 6000, "rake": 300})
CAPS = ({"players": 5, "cap": 500}, {"players": 2, "cap": 300})
SCHEDULED = RakePolicy(bp=0, cap=200, smallest_chip=100, schedule=SCHEDULE,
                       caps_by_players=CAPS)


@pytest.mark.parametrize("pot,players,most", [
    (1999, 9, 0),      # below the first step: nothing
    (2000, 9, 100),    # from a pot of 20.00, 1.00
    (5999, 9, 200),
    (6000, 9, 300),    # top step, under the 5-player cap of 5.00
    (6000, 4, 300),    # 2 to 4 players: cap 3.00
    (6000, 5, 300),
])
def test_r51_a_schedule_takes_the_step_for_the_pot(pot, players, most):
    assert max_rake(pot, SCHEDULED, players) == most


@pytest.mark.parametrize("players,cap", [(2, 300), (4, 300), (5, 500), (10, 500)])
def test_r51_the_cap_is_the_step_for_the_players_dealt_in(players, cap):
    assert SCHEDULED.cap_for(players) == cap
    assert max_rake(100000, RakePolicy(1000, 200, 100, caps_by_players=CAPS), players) == cap


def test_r51_below_the_first_cap_step_the_game_cap_applies():
    caps = ({"players": 6, "cap": 500},)
    assert max_rake(100000, RakePolicy(1000, 200, 100, caps_by_players=caps), 5) == 200
    assert max_rake(100000, RakePolicy(1000, 200, 100, caps_by_players=caps), 6) == 500


def test_r51_a_schedule_step_and_a_cap_in_odd_units_round_down_to_the_chip():
    odd = RakePolicy(0, 0, 25, schedule=({"pot": 1000, "rake": 110},))
    assert max_rake(1000, odd) == 100
    assert max_rake(100000, RakePolicy(500, 490, 100)) == 400
    assert odd.hand_ceiling(None) == 100


def test_r51_no_flop_no_drop_under_a_schedule():
    with pytest.raises(Conflict, match="no flop"):
        check_rake(100, 10000, False, SCHEDULED, 6)
    free = RakePolicy(0, 0, 100, no_flop_no_drop=False, schedule=SCHEDULE)
    assert check_rake(300, 10000, False, free) == 300


def test_r51_a_rake_over_the_schedule_names_it():
    with pytest.raises(Conflict) as err:
        check_rake(200, 3000, True, SCHEDULED, 6)
    assert err.value.rule == "R51" and "schedule" in err.value.message


def test_r51_a_cap_by_players_needs_the_count():
    with pytest.raises(Invalid) as err:
        max_rake(10000, SCHEDULED)
    assert err.value.rule == "R51" and "players" in err.value.message


@pytest.mark.parametrize("players", [1, 11, 0, 2.0, True, "5"])
def test_r51_players_dealt_in_are_2_to_10(players):
    with pytest.raises(Invalid) as err:
        check_players(players)
    assert err.value.rule == "R51"


@given(st.integers(0, 10**7), st.integers(2, 10))
def test_r51_a_scheduled_rake_never_exceeds_its_step_or_cap(pot, players):
    most = max_rake(pot, SCHEDULED, players)
    assert most % 100 == 0 and most <= SCHEDULED.cap_for(players)
    assert most <= step_value(0, SCHEDULE, "pot", "rake", pot)
    assert most <= (SCHEDULED.hand_ceiling(players) or 0)


@pytest.mark.parametrize("policy,players,ceiling", [
    (FIVE, 9, 500),                                          # the cap
    (RakePolicy(500, 0, 100), 9, None),                      # a percent with no cap: unbounded
    (RakePolicy(0, 0, 100, schedule=SCHEDULE), 9, 300),      # the schedule's top step
    (SCHEDULED, 3, 300), (SCHEDULED, 6, 300),                # the lower of cap and top step
    (RakePolicy(0, 250, 100, schedule=SCHEDULE), 9, 200),    # cap 2.50 rounds down to 2.00
])
def test_r51_a_hand_ceiling(policy, players, ceiling):
    assert policy.hand_ceiling(players) == ceiling


def test_r51_a_down_is_at_most_its_hands_ceilings_added_up():
    assert check_down_rake(1500, [500, 500, 500], 100) == 1500
    with pytest.raises(Conflict) as err:
        check_down_rake(1600, [500, 500, 500], 100)
    assert err.value.rule == "R51" and "1500" in err.value.message
    assert check_down_rake(10**6, [500, None], 100) is None  # an uncapped hand: no bound


@pytest.mark.parametrize("amount", [0, -100, 150, 100.0, True])
def test_r51_a_down_rake_is_positive_whole_chips(amount):
    with pytest.raises(Invalid) as err:
        check_down_rake(amount, [500], 100)
    assert err.value.rule == "R51"


# ---- R50: half-hourly time fees and the drop ---------------------------------------------------


def test_r50_the_period_is_an_hour_or_half_an_hour():
    assert (period("hourly", "NL"), period("halfhour", "NL")) == (HOUR, 30 * MIN)
    for kind in ("none", "rake", "drop"):
        with pytest.raises(Conflict) as err:
            period(kind, "NL")
        assert err.value.rule == "R50"


def test_r50_a_half_hour_is_paid_in_advance_like_an_hour():
    half = 30 * MIN
    assert next_period(None, NOW, half) == (NOW, NOW + half)
    assert next_period(NOW + 10 * MIN, NOW, half) == (NOW + 10 * MIN, NOW + 40 * MIN)  # extends
    assert next_period(NOW - 5 * MIN, NOW, half) == (NOW, NOW + half)  # a lapse is not charged


@pytest.mark.parametrize("players,drop", [(None, 300), (2, 300), (6, 300), (7, 500), (10, 500)])
def test_r50_the_drop_is_the_step_for_the_players_dealt_in(players, drop):
    steps = [{"players": 7, "fee": 500}] if players else None
    assert drop_amount(300, steps, players) == drop


def test_r50_drop_refusals():
    with pytest.raises(Invalid) as invalid:  # a schedule by players needs the count
        drop_amount(300, [{"players": 7, "fee": 500}], None)
    with pytest.raises(Conflict) as nothing:  # nothing to take
        drop_amount(0, [{"players": 7, "fee": 500}], 6)
    with pytest.raises(Conflict) as changed:  # the screen showed another amount
        drop_amount(300, None, 6, sent=200)
    assert [e.value.rule for e in (invalid, nothing, changed)] == ["R50"] * 3
    assert changed.value.amounts == {"amount": 300, "sent": 200}
    assert drop_amount(300, None, 6, sent=300) == 300


@pytest.mark.parametrize("kind,method", [("session_fee", "card"), ("session_fee", "cheque"),
                                         ("session_fee", "credit"), ("drop", "cash"),
                                         ("drop", "card")])
def test_r50_a_fee_is_taken_only_as_it_can_be(kind, method):
    with pytest.raises(Invalid) as err:
        check_method(method, "R50", kind)
    assert err.value.rule == "R50"


def test_r50_the_methods_a_fee_is_taken_in():
    for method in FEE_METHODS:
        check_method(method, "R50", "session_fee")
    check_method("chips", "R50", "drop")
    assert (FEE_METHODS, DROP_METHODS) == (("chips", "cash"), ("chips",))


def test_r50_r53_the_fees_as_players_are_told_them():
    assert fee_text(GBP, "halfhour", 300, 0, 0, [{"players": 7, "fee": 400}]) == (
        "Time: £3.00 per half hour, £4.00 from 7 players, paid in advance")
    assert fee_text(GBP, "hourly", 500, 0, 0) == "Time: £5.00 per hour, paid in advance"
    assert fee_text(GBP, "drop", 0, 0, 0, drop_fee=300,
                    drop_by_players=[{"players": 7, "fee": 500}]) == (
        "Drop: £3.00 per hand, £5.00 from 7 players")
