"""R54 over HTTP: the day's report as JSON, on the cage page, as a CSV file and a printable page;
counts and the close through the API, each refusal a 4xx naming the rule; the day closed once it
has ended (R2), or before once every table is closed, later play then in the next day's books;
tables still running named or refused, as the room's policy says."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.seating import seats
from tests.conftest import login
from tests.http.test_api import Api, refused, token_for
from tests.units import act

DAY = "2026-11-21"
END = datetime(2026, 11, 22, 6, tzinfo=UTC)  # the gaming day's end (a UTC room, 06:00 start)


@pytest.fixture()
def tables(room, session, now):
    """Two tables, two players seated by the desk: the buy-ins are the day's ledger rows."""
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    p = room.players(now, 2)
    act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1, player_id=p[0].id,
        buy_in=10000)
    act(session, room.sup, now, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=p[1].id,
        buy_in=25000)
    session.commit()
    return t1.id, t2.id


def _counts(t1: int, t2: int, short: int = 0, why: str | None = None) -> dict:
    return {"counts": [{"table_id": t1, "counted": 10000},
                       {"table_id": t2, "counted": 25000 - short, "explanation": why},
                       {"counted": 35000 - short, "explanation": why}]}


def test_report_json_adds_up(cashier, tables):
    resp = cashier.get(f"/ledger/days/{DAY}/report")
    assert resp.status_code == 200, resp.text
    body = resp.json
    assert (body["total"]["entries"], body["total"]["amount"], body["reconciled"]) == (2, 35000, True)
    assert sorted(x["amount"] for x in body["by_table"]) == [10000, 25000]
    assert body["by_kind"] == [{"key": "buy_in", "name": "buy in", "entries": 2, "amount": 35000}]
    assert body["closed"] is False and body["close"] is None


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday!", "2026-02-30"])
def test_a_bad_day_is_404(cashier, day):
    assert cashier.get(f"/ledger/days/{day}/report").status_code == 404
    assert cashier.post(f"/ledger/days/{day}/close", {"second_staff_id": 1}).status_code == 404


def test_close_refusals_name_r54_and_a_close_goes_through_once(cashier, sup, room, clock, tables):
    t1, t2 = tables
    refused(sup.post(f"/ledger/days/{DAY}/counts", _counts(t1, t2, 500)), 422, "R54")
    assert sup.post(f"/ledger/days/{DAY}/counts", _counts(t1, t2, 500, "a chip short")).status_code == 201
    # one person
    refused(sup.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["supervisor"].id}),
            409, "R54")
    # the second person has not counted
    refused(sup.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["cashier"].id}),
            409, "R54")
    resp = cashier.post(f"/ledger/days/{DAY}/counts", _counts(t1, t2))
    assert resp.status_code == 201 and [c["variance"] for c in resp.json["counts"]] == [0, 0, 0]
    early = refused(cashier.post(f"/ledger/days/{DAY}/close",
                                 {"second_staff_id": room.staff["supervisor"].id}), 409, "R54")
    assert "still running (tables open: 1, 2): close every table to close the day now, or close " \
           "it after it ends at 06:00 on 2026-11-22 (UTC)" in early["error"]
    clock.set(END)
    done = cashier.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["supervisor"].id})
    assert done.status_code == 201, done.text
    assert (done.json["expected_total"], done.json["counted_total"]) == (35000, 34500)
    assert done.json["running_tables"] == ["1", "2"]  # the policy 'warn' (the default) names them
    refused(sup.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["cashier"].id}),
            409, "R54")  # closing twice
    after = cashier.get(f"/ledger/days/{DAY}/report").json
    assert (after["closed"], after["as_closed"], after["close"]["entries"]) == (True, True, 2)


def test_a_close_with_tables_running_is_refused_by_the_policy(cashier, sup, room, clock, tables):
    t1, t2 = tables
    assert sup.patch("/policy", {"close_while_running": "refuse"}).status_code == 200
    for who in (sup, cashier):
        assert who.post(f"/ledger/days/{DAY}/counts", _counts(t1, t2)).status_code == 201
    clock.set(END)
    body = refused(sup.post(f"/ledger/days/{DAY}/close",
                            {"second_staff_id": room.staff["cashier"].id}), 409, "R54")
    assert "tables still running (a player seated): 1, 2" in body["error"]
    assert cashier.get(f"/ledger/days/{DAY}/report").json["closed"] is False


def test_a_non_supervisor_pair_is_refused(client, room, session, tables):
    from roomops.actors import console
    from roomops.rooms.staff import create_staff
    from tests.factories import PASSWORD

    other = act(session, console(room.room.id), room.room.created_at, create_staff, username="main-cashier2",
                password=PASSWORD, roles=("cashier",))
    session.commit()
    cashier = Api(client, token_for(room, session, "cashier"))
    refused(cashier.post(f"/ledger/days/{DAY}/close", {"second_staff_id": other.id}), 409, "R54")


def test_the_cage_page_csv_and_print(client, room, session, tables):
    cashier = login(client, "main-cashier")
    page = cashier.get(f"/desk/cage/days/{DAY}/report")
    assert page.status_code == 200 and "Per kind (fee type)" in page.text
    # print CSS and the Print button's script are static files (the CSP refuses inline ones)
    assert "/static/report.css" in page.text and "/static/report.js" in page.text
    assert "data-print" in page.text and "onclick" not in page.text
    assert cashier.get("/desk/cage/report").headers["Location"].endswith(f"/desk/cage/days/{DAY}/report")
    resp = cashier.get(f"/desk/cage/days/{DAY}/report.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    assert resp.headers["Content-Disposition"].startswith("attachment;")
    rows = list(csv.reader(io.StringIO(resp.text)))
    # R54: what the file is, then the ledger, then the counts, each under its title and header
    assert rows[:4] == [["day report"], ["gaming_day", "shift", "currency", "amounts"],
                        [DAY, "whole day", "GBP", "British Pound, major units with 2 decimals"], []]
    assert rows[4:6] == [["ledger"], ["section", "id", "name", "entries", "amount (GBP)"]]
    assert rows.index(["counts"]) == rows.index([], 4) + 1
    kinds = [r for r in rows if r and r[0] == "kind"]
    assert kinds == [["kind", "buy_in", "buy in", "2", "350.00"]]
    assert ["total", "", "total", "2", "350.00"] in rows
    for section in ("table", "game", "kind", "staff"):
        assert sum(Decimal(r[4]) for r in rows if r and r[0] == section) == Decimal("350.00")


def test_counts_and_close_from_the_cage_page(client, room, session, clock, tables):
    t1, t2 = tables
    sup = login(client, "main-supervisor")
    form = {f"count-{t1}": "100", f"count-{t2}": "250", "count-total": "350"}
    assert sup.post(f"/desk/cage/days/{DAY}/counts", data=form).status_code == 303
    short = sup.post(f"/desk/cage/days/{DAY}/counts", data={**form, "count-total": "349"})
    assert short.status_code == 422 and "R54" in short.text
    client.post("/logout")
    cashier = login(client, "main-cashier")
    assert cashier.post(f"/desk/cage/days/{DAY}/counts", data=form).status_code == 303
    page = cashier.get(f"/desk/cage/days/{DAY}/report").text
    # R54: before the close button, the tables still running and when the day ends
    assert "tables still running (a player seated): 1, 2; the room's policy lets" in page
    assert "The gaming day ends at 06:00 on 2026-11-22 (UTC); it can be closed from then on, or now " \
           "once every table is closed (open: 1, 2)" in page
    # R54: the close asks first, stating the totals; the form sends the expected total it showed
    assert ('data-confirm="Close the day with these totals? Expected (the ledger): £350.00. '
            "Counted: main-cashier £350.00, variance £0.00; main-supervisor £350.00, variance "
            '£0.00. Once closed, its figures never change."') in page
    assert 'name="confirmed_total" value="35000"' in page
    assert "Expected is what the ledger says each table should hold for the day" in page
    close = {"second_staff_id": str(room.staff["supervisor"].id), "confirmed_total": "35000"}
    unconfirmed = cashier.post(f"/desk/cage/days/{DAY}/close",
                               data={"second_staff_id": close["second_staff_id"]})
    assert unconfirmed.status_code == 422 and "the close was not confirmed" in unconfirmed.text
    early = cashier.post(f"/desk/cage/days/{DAY}/close", data=close)
    assert early.status_code == 409 and "still running" in early.text and "R54" in early.text
    clock.set(END)
    cashier = login(client, "main-cashier")  # the morning's log-in: the night's has expired (R61)
    assert "data-day-running" not in cashier.get(f"/desk/cage/days/{DAY}/report").text
    stale = cashier.post(f"/desk/cage/days/{DAY}/close", data={**close, "confirmed_total": "34000"})
    assert stale.status_code == 409 and "the ledger changed after the totals were shown" in stale.text
    assert "£340.00 then, £350.00 now" in stale.text
    closed = cashier.post(f"/desk/cage/days/{DAY}/close", data=close)
    assert closed.status_code == 303
    page = cashier.get(f"/desk/cage/days/{DAY}/report").text
    assert "data-closed" in page and 'class="flash warn"' in page
    assert "Closed with tables still running (a player seated): 1, 2 (R54)" in page


def test_a_room_closed_for_the_night_closes_its_day_before_the_days_end(client, sup, cashier, room,
                                                                         session, clock, tables):
    """R2, R54: every table closed at 04:00, the day closes then (two hours before it ends); a
    table opened again later posts to the next gaming day, and the closed day stays as closed."""
    t1, t2 = tables
    clock.set(datetime(2026, 11, 22, 4, tzinfo=UTC))
    for hold in session.scalars(select(SeatHold.id).where(SeatHold.ended_at.is_(None))).all():
        assert sup.post(f"/seats/{hold}/leave", {"leave_amount": 0}).status_code == 200
    for table in (t1, t2):
        assert sup.post(f"/tables/{table}/close").status_code == 200
    desk = login(client.application.test_client(), "main-cashier")  # the API's client keeps its token
    page = desk.get(f"/desk/cage/days/{DAY}/report").text
    assert "Every table is closed: the day can be closed now, before it ends at 06:00 on " \
           "2026-11-22 (UTC)" in page
    for who in (sup, cashier):
        assert who.post(f"/ledger/days/{DAY}/counts", _counts(t1, t2)).status_code == 201
    done = cashier.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["supervisor"].id})
    assert done.status_code == 201, done.text
    assert (done.json["expected_total"], done.json["running_tables"]) == (35000, [])
    table = sup.post("/tables", {"game_id": session.get(Table, t1).game_id, "name": "1"})
    assert table.status_code == 201, table.text
    seat = sup.post("/seats", {"table_id": table.json["id"], "seat_no": 1,
                               "player_id": room.player(clock.now(), "Eli").id, "buy_in": 10000})
    assert seat.status_code == 201, seat.text
    closed = cashier.get(f"/ledger/days/{DAY}/report").json
    assert (closed["total"]["amount"], closed["closed"], closed["as_closed"]) == (35000, True, True)
    assert cashier.get("/ledger/days/2026-11-22/report").json["total"]["amount"] == 10000
    # the cage page says where the night's postings go now
    assert "the day was closed early: new postings go to gaming day 2026-11-22" in desk.get(
        "/desk/cage").text


def test_a_dealer_sees_no_report(client, room, session, tables):
    dealer = Api(client, token_for(room, session, "dealer"))
    refused(dealer.get(f"/ledger/days/{DAY}/report"), 403, "R61")
