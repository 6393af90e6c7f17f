"""R32, R18, R52 over HTTP: cash at the table through the API and the cage page, refused (4xx
naming R32) where the cage pays or takes; the day's report per method (JSON, page, CSV); a
transfer is not reversed (409 R52)."""

from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import select

from roomops.holds.models import SeatHold
from roomops.ledger.models import LedgerEntry
from roomops.seating import moves, seats
from tests.conftest import login
from tests.http.test_api import Api, refused, token_for
from tests.services.ledger_helpers import seated_holds
from tests.units import act

DAY = "2026-11-21"


@pytest.fixture()
def holds(room, session, now):
    found = seated_holds(room, session, now)[2]
    session.commit()
    return [h.id for h in found]


def test_r32_api_takes_cash_at_the_table_for_buy_ins_and_add_ons(cashier, holds):
    resp = cashier.post("/ledger/buy-ins", {"hold_id": holds[0], "amount": 10000, "method": "table"})
    assert resp.status_code == 201, resp.text
    assert (resp.json["kind"], resp.json["method"]) == ("buy_in", "table")
    resp = cashier.post("/ledger/add-ons", {"hold_id": holds[0], "amount": 2500, "method": "table"})
    assert resp.status_code == 201 and resp.json["method"] == "table"
    resp = cashier.post("/ledger/rebuys", {"hold_id": holds[1], "method": "table"})
    assert resp.status_code == 201 and resp.json["method"] == "table"
    report = cashier.get(f"/ledger/days/{DAY}/report").json
    assert {x["key"]: (x["name"], x["amount"]) for x in report["by_method"]} == {
        "table": ("cash at the table", 22500)}
    assert report["reconciled"] is True


@pytest.mark.parametrize("path,rule", [("/transits", "R32"), ("/ledger/session-fees", "R50")])
def test_r32_cash_at_the_table_is_refused_where_the_cage_takes_it(cashier, holds, path, rule):
    """A fee's body offers only chips or cash at the cage (R50), which leaves cash at the table out."""
    body = {"hold_id": holds[0], "amount": 10000, "method": "table"}
    if path == "/ledger/session-fees":
        body.pop("amount")
    refused(cashier.post(path, body), 422, rule)


def test_r32_a_cash_out_in_cash_at_the_table_is_refused(cashier, holds, room, session, now):
    cashier.post("/ledger/buy-ins", {"hold_id": holds[0], "amount": 10000})
    act(session, room.sup, now, seats.leave, holds[0], 9000)
    session.commit()
    refused(cashier.post("/ledger/cash-outs", {"hold_id": holds[0], "amount": 9000,
                                               "method": "table"}), 422, "R32")
    assert cashier.post("/ledger/cash-outs", {"hold_id": holds[0], "amount": 9000}).status_code == 201


def test_an_unknown_method_is_422(cashier, holds):
    resp = cashier.post("/ledger/add-ons", {"hold_id": holds[0], "amount": 100, "method": "euros"})
    assert resp.status_code == 422 and resp.json["rule"] == "R28"


def test_r52_a_transfer_is_not_reversed(client, room, session, now):
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    hold = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=1,
               player_id=room.player(now, "Tom").id, buy_in=10000)
    act(session, room.sup, now, moves.move_player, hold.id, table_id=t2.id, seat_no=1, stack=12000)
    session.commit()
    out = session.scalars(select(LedgerEntry.id).where(LedgerEntry.kind == "transfer")).first()
    sup = Api(client, token_for(room, session, "supervisor"))
    refused(sup.post(f"/ledger/{out}/reverse", {"reason": "moved by mistake"}), 409, "R52")
    report = sup.get(f"/ledger/days/{DAY}/report").json
    assert {x["key"]: (x["entries"], x["amount"]) for x in report["by_kind"]}["transfer"] == (2, 0)
    assert {x["name"]: x["amount"] for x in report["by_table"]} == {"1": -2000, "2": 12000}


def test_r32_the_cage_page_records_an_add_on_in_cash_at_the_table(client, holds, session):
    page = login(client, "main-cashier")
    text = page.get("/desk/cage", query_string={"q": "1/1"}).text
    # R32: no method is chosen for the cashier: the list starts at "choose how it was paid"
    assert '<option value="" selected>choose how it was paid</option>' in text
    assert 'value="table" selected' not in text and 'value="cash" selected' not in text
    # the transit form offers the cage's methods only
    transit_form = text[text.index('data-form="transit"'):text.index('data-movement="add_on"')]
    assert "cash at the table" not in transit_form
    form = {"hold_id": str(holds[0]), "amount": "40", "method": "table", "idempotency_key": "a1"}
    resp = page.post("/desk/cage/movements/add_on", data=form)
    assert resp.status_code == 303
    assert page.post("/desk/cage/movements/add_on", data=form).status_code == 303  # one row
    assert "Add-on of £40.00 recorded (cash at the table)" in page.get("/desk/cage").text
    session.expire_all()
    rows = session.scalars(select(LedgerEntry)).all()
    assert [(r.kind, r.amount, r.method) for r in rows] == [("add_on", 4000, "table")]
    bad = page.post("/desk/cage/movements/rake", data=form)
    assert bad.status_code == 404
    resp = page.get(f"/desk/cage/days/{DAY}/report")
    assert "Per method" in resp.text and "cash at the table" in resp.text
    lines = list(csv.reader(io.StringIO(page.get(f"/desk/cage/days/{DAY}/report.csv").text)))
    assert ["method", "table", "cash at the table", "1", "40.00"] in lines


def test_r32_a_claim_says_how_the_buy_in_was_paid(client, room, session, now):
    from roomops.lists import services as lists

    game = room.game(now)
    room.table(now, game, "1")
    player = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)
    session.commit()
    api = Api(client, token_for(room, session, "supervisor"))
    offer = session.scalar(select(SeatHold.id).where(SeatHold.player_id == player.id))
    bad = api.post(f"/offers/{offer}/claim", {"buy_in": 10000, "buy_in_method": "euros"})
    assert bad.status_code == 422 and bad.json["rule"] == "R30"
    resp = api.post(f"/offers/{offer}/claim", {"buy_in": 10000, "buy_in_method": "card"})
    assert resp.status_code == 200, resp.text
    session.expire_all()
    assert session.scalars(select(LedgerEntry.method)).all() == ["card"]


def test_r32_the_desk_form_seats_a_player_paid_at_the_cage(client, room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    player = room.player(now, "Bea")
    session.commit()
    desk = login(client, "main-supervisor")
    assert 'name="buy_in_method"' in desk.get("/desk").text
    resp = desk.post("/desk/seat", data={"table_id": table.id, "seat_no": 1, "player_id": player.id,
                                         "buy_in": "150", "buy_in_method": "cash"})
    assert resp.status_code == 303
    session.expire_all()
    assert [(r.kind, r.amount, r.method) for r in session.scalars(select(LedgerEntry))] == [
        ("buy_in", 15000, "cash")]


@pytest.mark.parametrize("path", ["/desk/cage/movements/add_on", "/desk/cage/movements/buy_in",
                                  "/desk/cage/cash-outs"])
def test_r32_the_cage_form_refuses_a_payment_whose_method_was_not_chosen(client, holds, session,
                                                                          path):
    """R32: "Paid" left unchosen is refused in words, in the form: no method is assumed (the old
    default put cage cash in the wrong column of the day's report), nothing is recorded."""
    page = login(client, "main-cashier")
    form = {"hold_id": str(holds[0]), "amount": "40", "method": "", "q": "1/1"}
    resp = page.post(path, data=form)
    assert resp.status_code == 422
    assert "choose how it was paid (cash, " in resp.text and " or credit)" in resp.text
    if path.endswith("cash-outs"):
        assert "cash at the table" not in resp.text.split("choose how it was paid")[1][:80]
    del form["method"]
    assert page.post(path, data=form).status_code == 422
    session.expire_all()
    assert session.scalars(select(LedgerEntry)).all() == []
