"""R54 shifts over HTTP: the policy through the API and the desk form, the report of one shift
(``?shift=N``) as JSON, on the cage page and as CSV, counts and closes per shift, the cage page's
current shift; each refusal a 4xx naming R54."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import select

from roomops.ledger.models import LedgerEntry
from roomops.rooms.models import Room
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.conftest import login
from tests.http.test_api import refused
from tests.units import act

DAY = "2026-11-21"  # START, 20:00 UTC, is in shift 2 (14:00-22:00) of three


@pytest.fixture()
def tables(room, session, now):
    """Shifts 06:00, 14:00, 22:00; two tables with a buy-in each (shift 2)."""
    act(session, room.sup, now, update_policy, shifts=["06:00", "14:00", "22:00"])
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    p = room.players(now, 2)
    for t, player, amount in ((t1, p[0], 10000), (t2, p[1], 25000)):
        act(session, room.sup, now, seats.seat_directly, table_id=t.id, seat_no=1, player_id=player.id,
            buy_in=amount)
    session.commit()
    return t1.id, t2.id


def _counts(*amounts: tuple[int | None, int]) -> dict:
    return {"counts": [{"table_id": t, "counted": a} for t, a in amounts]}


def test_the_policy_through_the_api(sup, room):
    assert sup.get("/policy").json["shifts"] == ["06:00"]  # the default: one shift
    resp = sup.patch("/policy", {"shifts": ["22:00", "14:00"]})
    assert resp.status_code == 200, resp.text
    assert resp.json["shifts"] == ["06:00", "14:00", "22:00"]
    for bad in (["14:00", "14:00"], ["25:00"], "14:00", [f"{h:02d}:00" for h in range(13)]):
        refused(sup.patch("/policy", {"shifts": bad}), 422, "R54")
    assert sup.patch("/policy", {"shifts": []}).json["shifts"] == ["06:00"]


def test_the_policy_on_the_desk_form(sup_client, room, session):
    session.commit()
    resp = sup_client.post("/desk/policy", data={"shifts": "14:00, 22:00"})
    assert resp.status_code == 303
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert r.shift_starts == "06:00,14:00,22:00"
    assert 'value="06:00, 14:00, 22:00"' in sup_client.get("/desk/policy").text
    bad = sup_client.post("/desk/policy", data={"shifts": "14:00 14:00"})
    assert bad.status_code == 422 and "R54" in bad.text and "twice" in bad.text
    assert sup_client.post("/desk/policy", data={"shifts": ""}).status_code == 303
    session.refresh(r)
    assert r.shift_starts is None


def test_one_shift_report_and_refusals(cashier, tables):
    _t1, _t2 = tables
    day = cashier.get(f"/ledger/days/{DAY}/report").json
    assert (day["shift"], day["total"]["amount"], day["reconciled"]) == (None, 35000, True)
    assert day["by_shift"] == [{"key": 2, "name": "shift 2", "entries": 2, "amount": 35000}]
    two = cashier.get(f"/ledger/days/{DAY}/report?shift=2").json
    assert (two["shift"], two["total"]["entries"], two["reconciled"]) == (2, 2, True)
    assert cashier.get(f"/ledger/days/{DAY}/report?shift=1").json["total"]["entries"] == 0
    for bad in ("4", "0", "x"):
        refused(cashier.get(f"/ledger/days/{DAY}/report?shift={bad}"), 422, "R54")
    refused(cashier.post(f"/ledger/days/{DAY}/counts", _counts((None, 0))), 422, "R54")  # which?
    refused(cashier.post(f"/ledger/days/{DAY}/counts?shift=3", _counts((None, 0))), 422, "R54")


def test_close_shift_one_then_two_over_the_api(cashier, sup, room, session, now, tables):
    t1, t2 = tables
    staff = room.staff
    refused(sup.post(f"/ledger/days/{DAY}/close?shift=2", {"second_staff_id": staff["cashier"].id}),
            409, "R54")  # shift 1 first
    for who in (sup, cashier):
        assert who.post(f"/ledger/days/{DAY}/counts?shift=1", _counts((None, 0))).status_code == 201
        done = who.post(f"/ledger/days/{DAY}/counts?shift=2",
                        _counts((t1, 10000), (t2, 25000), (None, 35000)))
        assert done.status_code == 201 and {c["shift_no"] for c in done.json["counts"]} == {2}
    one = sup.post(f"/ledger/days/{DAY}/close?shift=1", {"second_staff_id": staff["cashier"].id})
    assert one.status_code == 201 and (one.json["shift_no"], one.json["closes_day"]) == (1, False)
    two = cashier.post(f"/ledger/days/{DAY}/close?shift=2", {"second_staff_id": staff["supervisor"].id})
    assert two.status_code == 201, two.text
    assert (two.json["shift_no"], two.json["entries"], two.json["expected_total"]) == (2, 2, 35000)
    refused(sup.post(f"/ledger/days/{DAY}/close?shift=2", {"second_staff_id": staff["cashier"].id}),
            409, "R54")  # twice
    report = cashier.get(f"/ledger/days/{DAY}/report").json
    assert [c["shift_no"] for c in report["closes"]] == [1, 2] and report["closed"] is False
    assert report["as_closed"] is True
    shift = cashier.get(f"/ledger/days/{DAY}/report?shift=2").json
    assert shift["closed"] is True and shift["close"]["shift_no"] == 2


def test_the_cage_pages_per_shift(client, room, session, now, tables):
    t1, _t2 = tables
    sup = login(client, "main-supervisor")
    cage = sup.get("/desk/cage").text
    assert "shift 2 of 3</strong> (14:00-22:00)" in cage and 'data-shift-state="open"' in cage
    page = sup.get(f"/desk/cage/days/{DAY}/report").text
    assert "Counts and closes are per shift" in page and "Per shift" in page
    assert f'name="count-{t1}"' not in page  # the whole day's page has no count form
    page = sup.get(f"/desk/cage/days/{DAY}/report?shift=2").text
    assert f'name="count-{t1}"' in page and 'name="shift" value="2"' in page
    assert "Close shift 2</button>" in page
    assert sup.get(f"/desk/cage/days/{DAY}/report?shift=7").status_code == 422
    resp = sup.get(f"/desk/cage/days/{DAY}/report.csv?shift=2")
    assert resp.headers["Content-Disposition"].endswith(f'-{DAY}-shift2-report.csv"')
    rows = list(csv.reader(io.StringIO(resp.text)))
    assert rows[2][:2] == [DAY, "2"]  # the shift the file is of
    assert ["shift", "2", "shift 2", "2", "350.00"] in rows
    assert ["total", "", "shift 2", "2", "350.00"] in rows
    form = {"shift": "1", "count-total": "0"}
    assert sup.post(f"/desk/cage/days/{DAY}/counts", data=form).status_code == 303
    client.post("/logout")
    cashier = login(client, "main-cashier")
    assert cashier.post(f"/desk/cage/days/{DAY}/counts", data=form).status_code == 303
    closed = cashier.post(f"/desk/cage/days/{DAY}/close",
                          data={"shift": "1", "second_staff_id": str(room.staff["supervisor"].id),
                                "confirmed_total": "0"})
    assert closed.status_code == 303 and closed.headers["Location"].endswith("?shift=1")
    page = cashier.get(f"/desk/cage/days/{DAY}/report?shift=1").text
    assert "Shift 1 of gaming day 2026-11-21 closed" in page and "data-closed" in page
    bad = cashier.post(f"/desk/cage/days/{DAY}/counts", data={"shift": "x", "count-total": "0"})
    assert bad.status_code == 422 and "R54" in bad.text


def test_a_posting_in_a_shift_closed_early_goes_to_the_next(cashier, sup, room, session, now, tables):
    """The clock is not moved here: shift 2 is closed before it ends, and the seat's add-on in
    the rest of it goes to shift 3 (R54); the close named the tables still running."""
    t1, t2 = tables
    staff = room.staff
    for shift, amounts in ((1, [(None, 0)]), (2, [(t1, 10000), (t2, 25000), (None, 35000)])):
        for who in (sup, cashier):
            who.post(f"/ledger/days/{DAY}/counts?shift={shift}", _counts(*amounts))
        done = sup.post(f"/ledger/days/{DAY}/close?shift={shift}",
                        {"second_staff_id": staff["cashier"].id})
        assert done.status_code == 201 and done.json["running_tables"] == ["1", "2"], done.text
    hold = session.scalars(select(LedgerEntry.hold_id).where(LedgerEntry.table_id == t1)).first()
    resp = cashier.post("/ledger/add-ons", {"hold_id": hold, "amount": 500})
    assert resp.status_code == 201, resp.text
    row = session.get_one(LedgerEntry, resp.json["id"])
    assert (row.shift_no, row.at) == (3, now)
