"""R80, R61: the figures screen over HTTP: the page and its charts' tables, each chart's CSV, the
chooser's query handed to the service, bad queries said in words, rights, three languages."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from roomops.actors import console
from roomops.figures.charts import KEYS
from roomops.rooms.staff import create_staff
from tests.conftest import login
from tests.factories import PASSWORD
from tests.figures import fake
from tests.services.figures_helpers import evening
from tests.units import act


@pytest.fixture()
def asked(monkeypatch):
    return fake.answer_with(monkeypatch, fake.figures())


def test_r80_the_page_shows_every_chart_with_its_table(sup_client, asked):
    resp = sup_client.get("/figures?period=day&day=2026-11-30&game=2")
    assert resp.status_code == 200
    html = resp.text
    for key in KEYS:
        assert f'id="chart-{key}"' in html and f'/figures/{key}.csv?' in html
    assert asked == [{"period": "day", "day": date(2026, 11, 30), "game": 2, "language": "en"}]
    assert "€42.50" in html and "Download CSV" in html and 'id="print"' in html
    assert 'href="/figures"' in html  # the navigation's link


def test_r80_a_room_without_dealers_has_no_dealers_chart(sup_client, monkeypatch):
    fake.answer_with(monkeypatch, fake.figures(has_dealers=False))
    html = sup_client.get("/figures").text
    assert 'id="chart-seats"' in html and 'id="chart-dealers"' not in html
    assert sup_client.get("/figures/dealers.csv").status_code == 404


def test_r80_each_chart_as_csv_the_numbers_drawn(sup_client, asked):
    resp = sup_client.get("/figures/money.csv?period=week&day=2026-12-02")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    assert 'filename="main-figures-money-week-2026-11-30.csv"' in resp.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(resp.text)))
    assert rows[0] == ["When", "Rake per table-hour", "Fees per table-hour", "Table-hours", "Rake", "Fees"]
    assert rows[1] == ["18:00", "42.5", "10.0", "1.0", "42.5", "10.0"]
    assert rows[-1][:3] == ["23:00", "", ""]  # nothing to measure: empty, not 0
    assert asked[-1]["period"] == "week" and asked[-1]["day"] == date(2026, 12, 2)
    heat = list(csv.reader(io.StringIO(sup_client.get("/figures/heat-occupancy.csv").text)))
    assert heat[0] == ["Day", "18", "19", "20", "21", "22"] and heat[1][0] == "Mon" and len(heat) == 8


def test_r61_a_cashier_may_not_see_the_figures(client, room, session, asked):
    session.commit()
    login(client, "main-cashier")
    assert client.get("/figures").status_code == 403
    assert client.get("/figures/seats.csv").status_code == 403
    assert 'href="/figures"' not in client.get("/cage").text


@pytest.mark.parametrize(("query", "words"), [
    ("period=year", "The period is one of"),
    ("day=yesterday", "Name the day as year-month-day"),
    ("game=x", "Choose one of the room"),
    ("game=99", "Choose one of the room"),
])
def test_r80_a_bad_query_is_said_in_words_on_the_page(sup_client, asked, query, words):
    resp = sup_client.get(f"/figures?{query}")
    assert resp.status_code == 422 and words in resp.text
    assert 'id="chart-seats"' in resp.text  # the chooser and the figures of what could be read
    assert sup_client.get(f"/figures/seats.csv?{query}").status_code == 422
    assert sup_client.get("/figures/nothing.csv").status_code == 404


@pytest.mark.parametrize(("lang", "words", "money"), [
    ("en", "Tables running and seats occupied", "€42.50"),
    ("de", "Laufende Tische und besetzte Plätze", "42,50\xa0€"),
    ("it", "Tavoli aperti e posti occupati", "42,50\xa0€"),
])
def test_r80_the_page_in_three_languages(sup_client, asked, lang, words, money):
    html = sup_client.get(f"/figures?lang={lang}").text
    assert words in html and money in html and f'data-lang="{lang}"' in html
    assert asked[-1]["language"] == lang


def test_r80_the_page_of_a_real_evening(sup_client, room, session, clock, now):
    """The real service under the page: the evening's raked hour is on it."""
    game, _other = evening(room, session, now)
    session.commit()
    clock.advance(hours=3)
    html = sup_client.get(f"/figures?period=day&day={now.date()}&game={game.id}").text
    assert 'id="chart-money"' in html and "20:00" in html
    rows = list(csv.reader(io.StringIO(
        sup_client.get(f"/figures/waiting.csv?period=day&day={now.date()}&game={game.id}").text)))
    assert [rows[-3][0], rows[-3][2]] == ["20:00", "3"]  # three joined the list at 20:00


def test_r61_a_manager_sees_the_figures_and_the_link(client, room, session, now, asked):
    act(session, console(room.room.id), now, create_staff, username="main-manager", password=PASSWORD,
        roles=("manager",))
    session.commit()
    login(client, "main-manager")
    assert client.get("/").headers["Location"].endswith("/figures")  # where a manager's log-in opens
    html = client.get("/figures").text
    assert 'id="chart-seats"' in html and 'href="/figures" aria-current="page"' in html
    assert client.get("/figures/trust.csv").status_code == 200
