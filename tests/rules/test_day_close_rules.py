"""R52, R54 without a database: variance, counts and their explanations, the pair who close a day,
complete and fresh counts, and the report's breakdowns adding up to its total."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roomops.errors import Conflict, Invalid, NotFound
from roomops.ledger.closing import (
    Line,
    check_count,
    check_counts_complete,
    check_day,
    check_pair,
    parse_day,
    reconciles,
    variance,
)


def test_variance_is_counted_minus_expected():
    assert (variance(900, 1000), variance(1000, 1000), variance(1200, 1000)) == (-100, 0, 200)


def test_a_variance_needs_an_explanation():
    assert check_count(1000, 1000, None, "table 1") is None
    assert check_count(1000, 1000, "  ", "table 1") is None
    with pytest.raises(Invalid) as err:
        check_count(990, 1000, "   ", "table 1")
    assert err.value.rule == "R54" and "-10" in err.value.message
    assert check_count(990, 1000, " a chip under the rack ", "table 1") == "a chip under the rack"


@pytest.mark.parametrize("counted", [10.0, "10", True])
def test_a_count_is_whole_minor_units(counted):
    with pytest.raises(Invalid):
        check_count(counted, 10, "x", "the total")


def test_two_different_staff_one_a_supervisor():
    check_pair(1, True, 2, False)
    check_pair(1, False, 2, True)
    for args in [(1, True, 1, True), (1, False, 2, False)]:
        with pytest.raises(Conflict) as err:
            check_pair(*args)
        assert err.value.rule == "R54"


def test_a_future_day_is_neither_counted_nor_closed():
    check_day(date(2026, 11, 21), date(2026, 11, 21))
    with pytest.raises(Invalid):
        check_day(date(2026, 11, 22), date(2026, 11, 21))


def test_counts_cover_every_table_and_the_total_and_are_fresh():
    expected = {1: 500, 2: -200, None: 300}
    names = {1: "A", 2: "B"}
    check_counts_complete("Ann", expected, {1: (500, 500), 2: (-200, -200), None: (290, 300)}, names)
    with pytest.raises(Conflict, match="not counted B, total"):
        check_counts_complete("Ann", expected, {1: (500, 500)}, names)
    with pytest.raises(Conflict, match="changed after Ann counted A"):
        check_counts_complete("Ann", expected, {1: (500, 400), 2: (-200, -200), None: (0, 300)},
                              names)


@given(st.lists(st.tuples(st.integers(1, 5), st.sampled_from(["buy_in", "rake"]), st.integers(1, 10**6)),
                max_size=30))
def test_breakdowns_of_the_same_rows_reconcile_and_a_missing_row_does_not(rows):
    def by(i: int) -> list[Line]:
        acc: dict[object, list[int]] = {}
        for row in rows:
            acc.setdefault(row[i], []).append(row[2])
        return [Line(k, str(k), len(v), sum(v)) for k, v in acc.items()]

    total = Line(None, "total", len(rows), sum(r[2] for r in rows))
    assert reconciles(total, by(0), by(1))
    if rows:
        assert not reconciles(total, by(0)[1:] if len(by(0)) > 1 else [], by(1))


def test_parse_day():
    assert parse_day("2026-11-21") == date(2026, 11, 21)
    for raw in ["2026-02-30", "21-11-2026", "2026-1-1xx", "tomorrow!!"]:
        with pytest.raises(NotFound):
            parse_day(raw)
