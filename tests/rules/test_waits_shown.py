"""R10-R14, R80: what a player is shown of an estimated wait (roomops.waits.shown), no database:
honest at the short end, coarse at the long end, only ever widened by rounding, scored as shown."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.waits.model import Estimate
from roomops.waits.shown import Shown, contains, minutes_text, shown, wait_text


@pytest.mark.parametrize(("est", "expected", "text"), [
    (Estimate(0.0, 1.0, 3.0), Shown(0, 1, 5), "under 5 min"),  # a seat open now: no "~5 min (5-10)"
    (Estimate(0.4, 2.2, 5.0), Shown(0, 2, 5), "under 5 min"),
    (Estimate(1.0, 6.0, 13.0), Shown(0, 5, 15), "~5 min (up to 15)"),
    (Estimate(13.2, 24.9, 41.0), Shown(10, 25, 50), "~25 min (10-50)"),
    (Estimate(33.0, 74.0, 118.0), Shown(30, 75, 120), "~75 min (30-120)"),
    (Estimate(61.0, 130.0, 179.0), Shown(60, 120, 180), "~120 min (60-180)"),
    (Estimate(42.0, 130.0, 300.0), Shown(40, 120, None), "~120 min (40-180+)"),  # no false precision
    (Estimate(90.0, 250.0, 400.0), Shown(90, 180, None), "~180 min (90-180+)"),
    (Estimate(190.0, 250.0, 400.0), Shown(180, 180, None), "over 3 hours"),
])
def test_r10_shown_rounds_outwards_in_coarser_steps(est, expected, text):
    assert shown(est) == expected
    assert minutes_text(shown(est)) == text


@given(st.floats(0, 600), st.floats(0, 600), st.floats(0, 600))
def test_r80_rounding_only_widens_the_range(a, b, c):
    low, median, high = sorted((a, b, c))
    s = shown(Estimate(low, median, high))
    assert contains(s, low) and contains(s, high)  # whatever the model's range held, the shown one does
    assert s.low <= s.median and (s.high is None or s.median <= s.high)  # the table's checks
    assert s.low >= 0


def test_r80_contains_scores_what_was_shown():
    assert contains(Shown(0, 2, 5), 4.9) and not contains(Shown(0, 2, 5), 5.5)
    assert contains(Shown(10, 25, 50), 10) and contains(Shown(10, 25, 50), 50)
    assert not contains(Shown(10, 25, 50), 9.5) and not contains(Shown(10, 25, 50), 51)
    assert contains(Shown(40, 120, None), 600) and not contains(Shown(40, 120, None), 39)


def test_r10_an_early_estimate_says_so():
    early = shown(Estimate(13.2, 24.9, 41.0, early=True))
    assert early == Shown(10, 25, 50, early=True)
    assert minutes_text(early) == "~25 min (10-50), early estimate"
    assert wait_text(Estimate(0.0, 1.0, 3.0, early=True), False) == "Typical wait under 5 min, early estimate"


def test_wait_text():
    assert wait_text(None, False) == ""
    assert wait_text(Estimate(1, 2, 3), True) == wait_text(None, True) == "Seats open now"
    assert wait_text(Estimate(13.2, 24.9, 41.0), False) == "Typical wait ~25 min (10-50)"
    assert wait_text(Estimate(100, 200, 400), False) == "Typical wait ~180 min (90-180+)"


def test_minutes_text_in_the_players_language():
    german = {"under {high} min": "unter {high} Min.", "{wait}, early estimate": "{wait}, erste Schätzung"}
    in_german = minutes_text(Shown(0, 2, 5, early=True), lambda m: german.get(m, m))
    assert in_german == "unter 5 Min., erste Schätzung"
