"""R66, R61 over HTTP: the tips page of a shift, its count confirmed by a second person's
password, a wrong count replaced, the CSV and the printable page, the room that does not pool,
and who may open it."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest

from roomops.actors import console
from roomops.dealers.models import DealerShift, DealerSpell
from roomops.rooms.staff import create_staff
from tests.conftest import login
from tests.factories import PASSWORD
from tests.units import act

MIN = timedelta(minutes=1)
DAY = "2026-11-21"
PAGE = f"/desk/tokes/days/{DAY}"


@pytest.fixture()
def dealt(room, session, now):
    """Ann ended two downs in the shift and Bob one; the coordinator "coord" counts with a
    supervisor."""
    table = room.table(now, room.game(now), "1")
    ids = {}
    for name, downs in (("Ann", 2), ("Bob", 1)):
        dealer = act(session, console(room.room.id), now, create_staff, username=name.lower(),
                     password=PASSWORD, roles=("dealer",), display_name=name)
        shift = DealerShift(room_id=room.room.id, dealer_id=dealer.id, checked_in_at=now - 90 * MIN)
        session.add(shift)
        session.flush()
        session.add_all(DealerSpell(room_id=room.room.id, shift_id=shift.id, dealer_id=dealer.id,
                                    kind="down", table_id=table.id, started_at=now - (30 * i + 60) * MIN,
                                    ends_at=now - 30 * i * MIN - 30 * MIN, ended_at=now - (30 * i + 30) * MIN,
                                    end_reason="pushed") for i in range(downs))
        session.flush()
        shift.checked_out_at = now - 30 * MIN
        ids[name] = dealer.id
    act(session, console(room.room.id), now, create_staff, username="coord", password=PASSWORD,
        roles=("coordinator",), display_name="Coordinator")
    session.commit()
    return ids


def _count(client, amount, confirmer="main-supervisor", password=PASSWORD, **more):
    return client.post(f"{PAGE}/count", data={"amount": amount, "confirmer": confirmer,
                                              "confirmer_password": password, **more})


def test_r66_the_page_shows_the_downs_then_the_counted_shares(client, dealt):
    coord = login(client, "coord")
    assert coord.get("/desk/tokes").headers["Location"].endswith(PAGE)
    before = coord.get(PAGE)
    assert before.status_code == 200 and "not counted yet" in before.text and "Ann" in before.text
    done = _count(coord, "100.01")
    assert done.status_code == 303, done.text
    page = coord.get(PAGE)
    assert "counted by Coordinator and confirmed by" in page.text
    # 10001 by 2:1 -> 6667.33 and 3333.67: the unit left over goes to the larger remainder, Bob's
    assert "£66.67" in page.text and "£33.34" in page.text and "£100.01" in page.text
    assert "data-print" in page.text and "report.css" in page.text  # the printable page


def test_r66_the_csv_adds_up_to_the_pool(client, dealt):
    coord = login(client, "coord")
    assert _count(coord, "90").status_code == 303
    resp = coord.get(f"{PAGE}/tokes.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    assert 'filename="main-2026-11-21-tokes.csv"' in resp.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(resp.text)))
    assert rows[5:] == [[str(dealt["Ann"]), "Ann", "2", "60.00"], [str(dealt["Bob"]), "Bob", "1", "30.00"],
                        ["total", "", "3", "90.00"]]


def test_r66_the_count_needs_a_second_persons_password(client, dealt):
    coord = login(client, "coord")
    wrong = _count(coord, "10", password="not it")
    assert wrong.status_code == 403 and "R66" in wrong.text
    alone = _count(coord, "10", confirmer="coord")
    assert alone.status_code == 409 and "second person" in alone.text
    cashier = _count(coord, "10", confirmer="main-cashier")
    assert cashier.status_code == 403 and "R61" in cashier.text
    nobody = _count(coord, "10", confirmer="")
    assert nobody.status_code == 422 and "R66" in nobody.text


def test_r66_a_wrong_count_is_replaced_from_the_page(client, dealt):
    coord = login(client, "coord")
    assert _count(coord, "30").status_code == 303
    again = _count(coord, "31")
    assert again.status_code == 409 and "already counted" in again.text
    page = coord.get(PAGE)
    count_id = page.text.split('name="replaces_id" value="')[1].split('"')[0]
    no_reason = _count(coord, "33", replaces_id=count_id)
    assert no_reason.status_code == 422
    assert _count(coord, "33", replaces_id=count_id, reason="miscounted").status_code == 303
    page = coord.get(PAGE)
    assert "£33.00" in page.text and "Counts replaced" in page.text and "miscounted" in page.text


def test_r66_a_room_that_does_not_pool_refuses_the_count(client, room, session, dealt):
    room.room.toke_pool = "individual"
    session.commit()
    coord = login(client, "coord")
    assert "does not pool tips" in coord.get(PAGE).text
    refused = _count(coord, "10")
    assert refused.status_code == 409 and "R66" in refused.text


@pytest.mark.parametrize("who", ["main-dealer", "main-cashier"])
def test_r61_only_the_dealers_right_opens_the_tips(client, dealt, who):
    other = login(client, who)
    for resp in (other.get(PAGE), other.get(f"{PAGE}/tokes.csv"), _count(other, "10")):
        assert resp.status_code == 403 and "dealers right" in resp.text


def test_a_bad_day_or_shift_is_refused(client, dealt):
    sup = login(client, "main-supervisor")
    assert sup.get("/desk/tokes/days/2026-13-01").status_code == 404
    assert sup.get(f"{PAGE}?shift=x").status_code == 422
    assert sup.get(f"{PAGE}?shift=2").status_code == 422


# ---- the JSON API ------------------------------------------------------------------------------


def test_r66_the_api_counts_the_pool_with_a_second_persons_password_and_shares_it(api, cashier, dealt):
    before = api.get(f"/tokes/days/{DAY}")
    assert before.status_code == 200 and before.json["count"] is None
    assert {line["name"]: line["downs"] for line in before.json["lines"]} == {"Ann": 2, "Bob": 1}
    wrong = api.post(f"/tokes/days/{DAY}/count", {"amount": 9000, "confirmation": {
        "username": "main-cashier", "password": "not it"}})
    assert wrong.status_code == 403 and wrong.json["rule"] == "R66"
    done = api.post(f"/tokes/days/{DAY}/count", {"amount": 9000, "confirmation": {
        "username": "main-admin", "password": PASSWORD}})
    assert done.status_code == 201, done.text
    assert {line["name"]: line["share"] for line in done.json["lines"]} == {"Ann": 6000, "Bob": 3000}
    again = api.post(f"/tokes/days/{DAY}/count", {"amount": 9000, "confirmation": {
        "username": "main-admin", "password": PASSWORD}})
    assert again.status_code == 409 and again.json["rule"] == "R66"
    assert cashier.get(f"/tokes/days/{DAY}").status_code == 403  # R61: not the cage's


def test_r66_the_api_says_which_field_is_wrong(api, dealt):
    resp = api.post(f"/tokes/days/{DAY}/count", {"amount": -1, "confirmation": {"username": "x",
                                                                                 "password": "y"}})
    assert resp.status_code == 422 and resp.json["rule"] == "R66"


def test_r66_the_page_says_why_a_shift_still_dealt_cannot_be_counted_yet(client, room, session, now, dealt):
    table = room.table(now, room.game(now, small_blind=200, big_blind=500), "9")
    shift = DealerShift(room_id=room.room.id, dealer_id=dealt["Ann"], checked_in_at=now)
    session.add(shift)
    session.flush()
    session.add(DealerSpell(room_id=room.room.id, shift_id=shift.id, dealer_id=dealt["Ann"], kind="down",
                            table_id=table.id, started_at=now, ends_at=now + 30 * MIN))
    session.commit()
    page = login(client, "coord").get(PAGE).text
    assert "Not yet: downs are still being dealt" in page and 'data-form="tokes"' not in page
    assert "the whole day, from 06:00" in page
