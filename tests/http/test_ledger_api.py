"""R28, R30-R32, R52, R61 over the JSON API: money actions and transit steps, refusals as 4xx
JSON naming the rule, nothing half-written, retries with an Idempotency-Key, every refusal logged."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.ledger.models import LedgerEntry, TransitSlip
from tests.http.test_api import Api, refused, token_for
from tests.services.ledger_helpers import seated_holds


@pytest.fixture()
def hold_ids(room, session, now):
    holds = seated_holds(room, session, now)[2]
    session.commit()
    return [h.id for h in holds]


def _counts(session) -> tuple[int, int, int]:
    session.expire_all()
    return tuple(session.scalar(select(func.count()).select_from(m))
                 for m in (LedgerEntry, TransitSlip, AuditEvent))


def test_buy_in_answers_the_row(cashier, hold_ids):
    resp = cashier.post("/ledger/buy-ins", {"hold_id": hold_ids[0], "amount": 15000, "method": "card"})
    assert resp.status_code == 201, resp.text
    assert (resp.json["kind"], resp.json["amount"], resp.json["method"]) == ("buy_in", 15000, "card")


@pytest.mark.parametrize("path,amount,rule", [
    ("/ledger/buy-ins", -100, "R30"), ("/ledger/buy-ins", 150.5, "R30"),
    ("/ledger/buy-ins", 15000.0, "R30"), ("/ledger/buy-ins", "15000", "R30"),
    ("/ledger/buy-ins", 40001, "R30"),  # over the table maximum
    ("/ledger/add-ons", -100, "R28"), ("/ledger/add-ons", 0.5, "R28"),
    ("/transits", -1, "R31"), ("/transits", 10.25, "R31"),
])
def test_bad_amounts_are_422_naming_the_rule(api, session, hold_ids, path, amount, rule):
    before = _counts(session)
    refused(api.post(path, {"hold_id": hold_ids[0], "amount": amount}), 422, rule)
    assert _counts(session) == before


def test_foreign_currency_is_422_r32(api, session, hold_ids):
    refused(api.post("/ledger/buy-ins", {"hold_id": hold_ids[0], "amount": 10000, "currency": "USD"}),
            422, "R32")
    assert _counts(session)[0] == 0


def test_cash_out_while_seated_is_409_r28(api, hold_ids):
    refused(api.post("/ledger/cash-outs", {"hold_id": hold_ids[0], "amount": 100}), 409, "R28")


def _keyed(caller: Api, path, body, key):
    return caller.client.post("/api/v1" + path, json=body,
                              headers={**caller.headers, "Idempotency-Key": key})


def test_idempotency_key_header_or_body(api, session, hold_ids):
    body = {"hold_id": hold_ids[0], "amount": 12000}
    first = _keyed(api, "/ledger/buy-ins", body, "abc")
    again = api.post("/ledger/buy-ins", {**body, "idempotency_key": "abc"})
    assert first.status_code == again.status_code == 201 and first.json == again.json
    assert _counts(session)[0] == 1
    refused(api.post("/ledger/buy-ins", {**body, "amount": 13000, "idempotency_key": "abc"}), 409, "R52")
    refused(_keyed(api, "/ledger/buy-ins", {**body, "idempotency_key": "x"}, "y"), 422, "R52")
    assert _counts(session)[0] == 1


def test_reversal_and_reversal_of_a_reversal(api, cashier, session, hold_ids):
    row = cashier.post("/ledger/buy-ins", {"hold_id": hold_ids[0], "amount": 12000}).json
    refused(cashier.post(f"/ledger/{row['id']}/reverse", {"reason": "typo"}), 403, "R61")
    refused(api.post(f"/ledger/{row['id']}/reverse", {}), 422, "R52")
    rev = api.post(f"/ledger/{row['id']}/reverse", {"reason": "typo"})
    assert rev.status_code == 201 and rev.json["amount"] == -12000, rev.text
    before = _counts(session)
    refused(api.post(f"/ledger/{rev.json['id']}/reverse", {"reason": "undo"}), 409, "R52")
    refused(api.post(f"/ledger/{row['id']}/reverse", {"reason": "again"}), 409, "R52")
    assert _counts(session) == before


def test_transit_round_trip_and_four_eyes(api, cashier, session, hold_ids, security_log):
    slip = cashier.post("/transits", {"hold_id": hold_ids[0], "amount": 20000, "method": "credit"}).json
    assert (slip["number"], slip["state"]) == (1, "requested")
    refused(api.post(f"/transits/{slip['id']}/dispatch"), 409, "R31")  # credit: funds first
    assert api.post(f"/transits/{slip['id']}/confirm-funds").json["state"] == "funds_confirmed"
    assert api.post(f"/transits/{slip['id']}/dispatch").json["state"] == "in_transit"
    before = _counts(session)
    body = refused(api.post(f"/transits/{slip['id']}/deliver"), 409, "R31")
    assert "R61" in body["error"]
    assert any(e["method"] == "POST" and e["rule"] == "R31" and e["status"] == 409
               for e in security_log.named("request.refused"))
    assert _counts(session) == before  # nothing half-written
    done = cashier.post(f"/transits/{slip['id']}/deliver")
    assert done.status_code == 200 and done.json["state"] == "delivered", done.text
    session.expire_all()
    assert session.scalar(select(LedgerEntry.amount).where(LedgerEntry.kind == "transit")) == 20000


def test_open_slips_and_number_report(api, cashier, clock, hold_ids):
    a = cashier.post("/transits", {"hold_id": hold_ids[0], "amount": 1000}).json
    clock.advance(minutes=2)
    b = cashier.post("/transits", {"hold_id": hold_ids[1], "amount": 2000}).json
    refused(api.post(f"/transits/{b['id']}/cancel", {"reason": ""}), 422, "R31")
    api.post(f"/transits/{b['id']}/cancel", {"reason": "player left"})
    cashier.post("/transits", {"hold_id": hold_ids[2], "amount": 3000})
    clock.advance(minutes=1)
    open_ = api.get("/transits/open").json["slips"]
    assert [(s["slip"]["number"], s["age_seconds"]) for s in open_] == [(1, 180), (3, 60)]
    assert open_[0]["slip"]["id"] == a["id"]
    report = api.get("/transits/numbers").json
    assert [s["number"] for s in report["slips"]] == [1, 2, 3] and report["missing"] == []
    assert report["by_state"] == {"requested": 2, "cancelled": 1}


def test_api_rebuy_short_once_after_an_all_in_loss(client, room, session, now):
    _game, _table, holds = seated_holds(room, session, now)
    session.commit()
    api = Api(client, token_for(room, session, "cashier"))
    first = api.post("/ledger/rebuys", json={"hold_id": holds[0].id})
    assert first.status_code == 201, first.text
    assert (first.json["amount"], first.json["short_buy_in"]) == (10000, False)
    refused(api.post("/ledger/rebuys", json={"hold_id": holds[0].id, "amount": 3000}), 409, "R30")
    short = api.post("/ledger/rebuys", json={"hold_id": holds[0].id, "amount": 3000,
                                             "after_all_in": True}).json
    assert short["short_buy_in"] is True
    refused(api.post("/ledger/rebuys", json={"hold_id": holds[0].id, "amount": 3000,
                                             "after_all_in": True}), 409, "R30")
    refused(api.post("/ledger/rebuys", json={"hold_id": holds[0].id, "amount": 30.5}), 422, "R30")
