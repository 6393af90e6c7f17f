"""R80: the figures screen's charts (roomops.figures.charts), pure: each spec carries its rows'
values, which are its table's; the dealers' chart only with a roster; the heat map at most 168
cells; money in major units drawn and in the room's currency shown; words through ``tr``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from roomops.figures.charts import DASH, KEYS, Chart, charts
from roomops.figures.shape import HeatCell
from roomops.words import english, translator
from tests.figures import fake


def by_key(*args, **kwargs) -> dict[str, Chart]:  # type: ignore[no-untyped-def]
    return {c.key: c for c in charts(*args, **kwargs)}


def values(c: Chart) -> list[dict]:  # type: ignore[type-arg]
    return c.spec["data"]["values"]


def test_r80_every_chart_in_order_the_dealers_only_with_a_roster():
    assert [c.key for c in charts(fake.figures(), english)] == list(KEYS)
    without = by_key(fake.figures(has_dealers=False), english)
    assert "dealers" not in without and len(without) == len(KEYS) - 1


def test_r80_a_spec_carries_its_rows_values_as_its_table_shows_them():
    f = fake.figures()
    seats = by_key(f, english)["seats"]
    drawn = {(v["step"], v["series"]): v["value"] for v in values(seats)}
    assert drawn[("20:00", "Tables running")] == 3.0 and drawn[("22:00", "Seats occupied")] == 37.5
    assert seats.table.headings == ("When", "Tables running", "Seats occupied", "Occupancy", "Player hours")
    assert seats.table.rows[2] == ("20:00", "3.0", "22.5", "83.3 %", "22.5")
    assert seats.table.values[2] == ("20:00", 3.0, 22.5, 83.3, 22.5)
    for row in seats.table.values:  # every drawn point is its table's cell
        for heading, cell in zip(seats.table.headings[1:3], row[1:3], strict=True):
            assert drawn.get((row[0], heading)) == cell
    # the rest are in the table alone
    assert {v["series"] for v in values(seats)} == {"Tables running", "Seats occupied"}


def test_r80_nothing_measured_is_not_drawn_and_a_dash_in_the_table():
    waits = by_key(fake.figures(), english)["waits"]
    assert not [v for v in values(waits) if v["step"] == "23:00"]
    assert waits.table.rows[-1] == ("23:00", DASH, DASH, DASH, DASH)
    assert waits.table.values[-1] == ("23:00", None, None, None, None)


def test_r80_rates_in_percent():
    rates = by_key(fake.figures(), english)["rates"]
    assert rates.table.rows[0][:3] == ("18:00", "50.0 %", "0.0 %")
    assert {(v["series"], v["value"]) for v in values(rates) if v["step"] == "19:00"} == {
        ("No-show rate", 33.3), ("Left the list unseated", 25.0)}


@pytest.mark.parametrize(("currency", "language", "drawn", "shown"), [
    ("EUR", "en", 42.5, "€42.50"), ("EUR", "de", 42.5, "42,50\xa0€"), ("JPY", "en", 4250, "¥4,250"),
])
def test_r80_money_drawn_in_major_units_shown_in_the_rooms_currency(currency, language, drawn, shown):
    money = by_key(fake.figures(currency=currency), english, language)["money"]
    assert values(money)[0] == {"step": "18:00", "series": "Rake per table-hour", "value": drawn}
    assert money.table.rows[0][1] == shown
    assert money.spec["encoding"]["y"]["title"] == currency


def test_r80_the_heat_map_has_a_cell_an_hour_of_the_week_at_most():
    full = tuple(HeatCell(wd, h, 0.5, 4.0, 1.0) for wd in range(7) for h in range(24))
    heat = by_key(fake.figures(heat=full), english)["heat-occupancy"]
    assert len(values(heat)) == 168 and heat.spec["mark"]["type"] == "rect"
    assert len(heat.table.rows) == 7 and len(heat.table.headings) == 25
    evening = by_key(fake.figures(), english)["heat-occupancy"]
    assert evening.table.headings == ("Day", "18", "19", "20", "21", "22")
    assert evening.spec["encoding"]["x"]["scale"]["domain"] == [18, 19, 20, 21, 22]
    cell = next(v for v in values(evening) if v["wd"] == 6 and v["hour"] == 20)
    assert cell == {"weekday": "Sun", "wd": 6, "hour": 20, "value": 80.0}
    assert evening.table.rows[6] == ("Sun", "80 %", "80 %", "80 %", "80 %", "80 %")


def test_r80_the_heat_maps_hours_run_in_the_gaming_days_order():
    """R2: an evening room's night reads 22, 23, then midnight and 01:00, not midnight first."""
    night = tuple(HeatCell(4, h, 0.5, 4.0, 1.0) for h in (0, 1, 22, 23))
    heat = by_key(fake.figures(heat=night, day_start_hour=6), english)["heat-occupancy"]
    assert heat.spec["encoding"]["x"]["scale"]["domain"] == [22, 23, 0, 1]
    assert heat.table.headings == ("Day", "22", "23", "00", "01")


def test_r80_the_weeks_record_from_the_weeks():
    f = fake.figures()
    trust = by_key(f, english)["trust"]
    assert [r[0] for r in trust.table.rows] == [
        "12 Oct", "19 Oct", "26 Oct", "2 Nov", "9 Nov", "16 Nov", "23 Nov", "30 Nov"]
    assert trust.table.rows[0] == ("12 Oct", DASH, DASH, "0")  # a week nobody was scored in
    assert trust.table.values[-1] == ("30 Nov", 77.5, 4.0, 70)


def test_r80_the_words_are_translated_numbers_in_the_language():
    f = replace(fake.figures(), has_dealers=False)
    german = by_key(f, translator("de"), "de")
    assert german["seats"].title == "Laufende Tische und besetzte Plätze"
    assert german["seats"].table.rows[0][1:4] == ("1,0", "7,5", "83,3 %")
    assert german["heat-waits"].table.rows[0][0] == "Mo."
    assert german["seats"].spec["config"]["usermeta"] == {"language": "de"}
    assert by_key(f, translator("it"), "it")["money"].title == "Rake e quote per ora-tavolo"
