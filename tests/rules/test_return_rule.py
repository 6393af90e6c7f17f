"""R27 (with R2, R4 and R30): the return rule and the gaming day, with no database."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest

from roomops.errors import Conflict, Invalid
from roomops.rooms.gaming_day import gaming_day
from roomops.seating.return_rule import (
    ReturnPolicy,
    Stakes,
    Stint,
    check_return_buy_in,
    last_departure,
    return_requirement,
)

S = timedelta(seconds=1)
NL = Stakes("NL Hold'em", 100, 200, 0)
LEFT = datetime(2026, 11, 21, 21, 14, tzinfo=UTC)
MIN, MAX = 10000, 40000
TWO_HOURS = ReturnPolicy("minutes", 120, "UTC", time(6, 0))


def stint(amount: int | None = 65000, ended: datetime | None = LEFT, *, stakes: Stakes = NL,
          outcome: str | None = "left", started: datetime | None = None, game_id: int = 1,
          table: str = "3") -> Stint:
    start = started or (ended or LEFT) - timedelta(hours=1)
    return Stint(stakes, game_id, table, start, ended, outcome if ended else None, amount)


def required(stints: list[Stint], now: datetime, policy: ReturnPolicy = TWO_HOURS,
             stakes: Stakes = NL):
    return return_requirement(stints, stakes, MIN, MAX, policy, now)


# ---- the amount (R27 with R30) ------------------------------------------------------------------


def test_r27_left_with_more_than_the_max_must_return_with_it_even_above_the_max():
    req = required([stint(65000)], LEFT + timedelta(minutes=30))
    assert (req.minimum, req.maximum) == (65000, 65000)
    assert req.why("UTC", "£650.00") == "returning within 2 h: at least £650.00 (left table 3 at 21:14)"
    assert req.why("Europe/Zurich", "650") == "returning within 2 h: at least 650 (left table 3 at 22:14)"


def test_r27_left_between_min_and_max_raises_the_minimum_only():
    req = required([stint(25000)], LEFT + S)
    assert (req.minimum, req.maximum) == (25000, MAX)


@pytest.mark.parametrize("amount", [0, 5000, MIN])
def test_r27_left_with_the_minimum_or_less_the_normal_range_applies(amount):
    assert required([stint(amount)], LEFT + S) is None


def test_r27_check_refuses_below_and_above_naming_amount_time_table_and_rule():
    req = required([stint(65000)], LEFT + S)
    check_return_buy_in(65000, req, "UTC")
    with pytest.raises(Conflict) as err:
        check_return_buy_in(64999, req, "UTC")
    assert err.value.rule == "R27"
    assert "65000" in err.value.message and "table 3" in err.value.message and "21:14" in err.value.message
    with pytest.raises(Invalid) as err:
        check_return_buy_in(65001, req, "UTC")
    assert err.value.rule == "R30"


# ---- the window (minutes) -----------------------------------------------------------------------


@pytest.mark.parametrize(("after", "applies"), [
    (timedelta(0), True), (timedelta(minutes=120) - S, True), (timedelta(minutes=120), False),
    (timedelta(minutes=120) + S, False),
])
def test_r27_minutes_window_to_the_second_end_exclusive(after, applies):
    assert (required([stint()], LEFT + after) is not None) is applies


def test_r27_window_of_90_minutes_is_described_in_minutes():
    policy = ReturnPolicy("minutes", 90, "UTC", time(6, 0))
    assert required([stint()], LEFT + S, policy).window == "within 90 min"
    assert required([stint()], LEFT + timedelta(minutes=90), policy) is None


# ---- the window (gaming day, R2) ----------------------------------------------------------------

LONDON = ReturnPolicy("gaming_day", 120, "Europe/London", time(6, 0))


def test_r2_gaming_day_starts_at_the_local_start_time():
    def day(*at: int, tz: str = "Europe/London") -> date:
        return gaming_day(datetime(*at, tzinfo=UTC), tz, time(6, 0))

    assert day(2026, 11, 22, 5, 59, 59) == date(2026, 11, 21)
    assert day(2026, 11, 22, 6, 0) == date(2026, 11, 22)
    # Zurich is UTC+1 in November: 06:00 local is 05:00 UTC
    assert day(2026, 11, 22, 4, 59, 59, tz="Europe/Zurich") == date(2026, 11, 21)
    assert day(2026, 11, 22, 5, 0, tz="Europe/Zurich") == date(2026, 11, 22)


def test_r27_gaming_day_mode_across_the_gaming_day_start():
    left = datetime(2026, 11, 21, 23, 0, tzinfo=UTC)  # London = UTC in November
    start = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)
    req = required([stint(ended=left)], start - S, LONDON)
    assert req is not None and req.window == "the same gaming day"
    assert req.why("Europe/London", "650") == (
        "returning the same gaming day: at least 650 (left table 3 at 23:00)")
    assert required([stint(ended=left)], start, LONDON) is None
    assert required([stint(ended=left)], start + S, LONDON) is None


def test_r27_gaming_day_is_longer_than_two_hours():
    left = datetime(2026, 11, 21, 7, 0, tzinfo=UTC)
    assert required([stint(ended=left)], left + timedelta(hours=22), LONDON) is not None
    assert required([stint(ended=left)], left + timedelta(hours=22), TWO_HOURS) is None


def test_r2_r27_gaming_day_across_the_spring_dst_change_in_london():
    # 29 March 2026: clocks go from 01:00 GMT to 02:00 BST; 06:00 BST is 05:00 UTC
    left = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)
    start = datetime(2026, 3, 29, 5, 0, tzinfo=UTC)
    assert gaming_day(start - S, "Europe/London", time(6, 0)) == date(2026, 3, 28)
    assert gaming_day(start, "Europe/London", time(6, 0)) == date(2026, 3, 29)
    assert required([stint(ended=left)], start - S, LONDON) is not None
    assert required([stint(ended=left)], start, LONDON) is None


def test_r2_r27_gaming_day_across_the_autumn_dst_change_in_london():
    # 25 October 2026: clocks go from 02:00 BST back to 01:00 GMT; 06:00 GMT is 06:00 UTC, and the
    # gaming day of the 24th lasts 25 hours (05:00 UTC on the 24th to 06:00 UTC on the 25th)
    day_start = datetime(2026, 10, 24, 5, 0, tzinfo=UTC)
    next_start = datetime(2026, 10, 25, 6, 0, tzinfo=UTC)
    assert next_start - day_start == timedelta(hours=25)
    assert required([stint(ended=day_start)], next_start - S, LONDON) is not None
    assert required([stint(ended=day_start)], next_start, LONDON) is None
    assert required([stint(ended=day_start - S)], day_start, LONDON) is None  # the day before


def test_r2_a_start_time_inside_the_repeated_hour_starts_the_day_once():
    # 01:30 happens twice in London on 25 October 2026 (00:30 UTC BST and 01:30 UTC GMT)
    start = time(1, 30)
    first = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    assert gaming_day(first - S, "Europe/London", start) == date(2026, 10, 24)
    assert gaming_day(first, "Europe/London", start) == date(2026, 10, 25)
    assert gaming_day(datetime(2026, 10, 25, 1, 15, tzinfo=UTC), "Europe/London", start) == date(2026, 10, 25)


# ---- which departure counts (R4) ----------------------------------------------------------------


@pytest.mark.parametrize("other", [
    Stakes("PL Omaha", 100, 200, 0), Stakes("NL Hold'em", 200, 400, 0),
    Stakes("NL Hold'em", 100, 200, 25), Stakes("NL Hold'em", 50, 200, 0),
])
def test_r4_a_different_variant_or_stakes_is_not_the_same_game(other):
    assert required([stint()], LEFT + S, stakes=other) is None


def test_r4_a_game_closed_and_reopened_at_the_same_stakes_is_the_same_game():
    old_game = stint(game_id=1)
    reopened = Stakes(" nl hold'em", 100, 200, 0)
    req = required([old_game], LEFT + S, stakes=reopened)
    assert req is not None and req.left_game_id == 1


def test_r27_the_latest_departure_from_the_same_game_counts():
    first = stint(90000, LEFT - timedelta(minutes=40))
    second = stint(30000, LEFT)
    assert required([second, first], LEFT + S).minimum == 30000
    assert required([stint(5000, LEFT), first], LEFT + S) is None  # now left with the minimum or less


def test_r27_playing_another_game_in_between_does_not_clear_the_departure():
    other = stint(12000, LEFT + timedelta(minutes=30), stakes=Stakes("PL Omaha", 100, 200, 0))
    assert required([stint(65000), other], LEFT + timedelta(minutes=45)).minimum == 65000


def test_r27_still_seated_in_the_same_game_is_a_table_change_not_a_return():
    live = stint(None, None, started=LEFT + S)
    assert last_departure([stint(), live], NL) is None


def test_r27_a_seat_ended_by_a_move_counts_no_amount():
    moved = stint(None, LEFT + timedelta(minutes=5), outcome="moved", started=LEFT + S)
    assert required([stint(), moved], LEFT + timedelta(minutes=10)) is None
    assert required([], LEFT) is None


# ---- a seat lost to the room (R17, R19, R24, R26) counts as leaving -----------------------------


def lost(cause: str | None, amount: int | None = 65000) -> Stint:
    return Stint(NL, 1, "3", LEFT - timedelta(hours=1), LEFT, "released", amount, 7, cause)


@pytest.mark.parametrize(("cause", "words"), [
    ("break", "the break ran out, R24"), ("away", "away too long, R26"),
    ("missed_bb", "missed big blinds, R26"), ("must_move", "refused a must-move seat, R17"),
    ("broken", "the table was broken with no seat left, R19"),
])
def test_r27_a_released_seat_with_a_counted_stack_sets_the_amount_and_names_its_cause(cause, words):
    req = required([lost(cause)], LEFT + S)
    assert (req.minimum, req.left_cause) == (65000, cause)
    assert req.why("UTC", "£650.00") == (
        f"returning within 2 h: at least £650.00 (lost the seat at table 3 at 21:14: {words})")
    with pytest.raises(Conflict) as err:
        check_return_buy_in(64999, req, "UTC")
    assert err.value.rule == "R27" and words in err.value.message


def test_r27_a_released_seat_with_no_stack_counted_sets_nothing():
    assert required([lost("away", None)], LEFT + S) is None
    # and, being the latest, it ends an earlier departure's requirement, as a move does
    earlier = stint(started=LEFT - timedelta(hours=3), ended=LEFT - timedelta(hours=2))
    assert required([earlier, lost("must_move", None)], LEFT + S) is None
