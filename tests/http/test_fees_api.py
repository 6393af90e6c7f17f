"""R50/R51 over the JSON API: session fees, who is due, rake per hand; refusals as 4xx JSON naming
the rule with nothing written, and retries with an Idempotency-Key."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.hands.services import record_hand
from roomops.ledger.models import LedgerEntry
from tests.http.test_api import refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def hourly(room, session, now):
    holds = seated_holds(room, session, now, fee_kind="hourly", time_fee=500)[2]
    session.commit()
    return [h.id for h in holds]


@pytest.fixture()
def raked_table(room, session, now):
    table = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500)[1]
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    return table.id


def _counts(session) -> tuple[int, int]:
    session.expire_all()
    return tuple(session.scalar(select(func.count()).select_from(m)) for m in (LedgerEntry, AuditEvent))


def test_collect_a_session_fee_and_retry_with_the_key(cashier, hourly, session):
    first = cashier.client.post("/api/v1/ledger/session-fees", json={"hold_id": hourly[0]},
                                headers={**cashier.headers, "Idempotency-Key": "a"})
    assert first.status_code == 201, first.text
    row = first.json
    assert (row["kind"], row["amount"], row["hold_id"]) == ("session_fee", -500, hourly[0])
    assert first.json["period_start"] and first.json["period_end"]
    before = _counts(session)
    again = cashier.post("/ledger/session-fees", {"hold_id": hourly[0], "idempotency_key": "a"})
    assert (again.status_code, again.json) == (201, first.json)
    assert _counts(session) == before
    refused(cashier.post("/ledger/session-fees", {"hold_id": hourly[1], "idempotency_key": "a"}), 409, "R52")


def test_fees_due_lists_the_seated_players_longest_due_first(cashier, hourly):
    cashier.post("/ledger/session-fees", {"hold_id": hourly[0]})
    resp = cashier.get("/ledger/fees-due")
    assert resp.status_code == 200, resp.text
    rows = resp.json["fees"]
    assert len(rows) == 8 and rows[-1]["hold_id"] == hourly[0] and not rows[-1]["is_due"]
    assert all(r["is_due"] and r["fee"] == 500 for r in rows[:-1])


@pytest.mark.parametrize("payload,status,rule", [
    ({"hold_id": 10**6}, 404, None),
    ({"method": "iou"}, 422, "R50"),
    ({"currency": "EUR"}, 422, "R32"),
    ({"amount": 500}, 422, "R50"),  # the amount is the game's, never sent
])
def test_session_fee_refusals(cashier, hourly, session, payload, status, rule):
    before = _counts(session)
    refused(cashier.post("/ledger/session-fees", {"hold_id": hourly[0], **payload}), status, rule)
    assert _counts(session) == before


def test_a_dealer_may_not_collect_fees(dealer, hourly):
    refused(dealer.post("/ledger/session-fees", {"hold_id": hourly[0]}), 403, "R61")


def test_record_rake_and_retry(dealer, raked_table, session):
    path = f"/tables/{raked_table}/hands/1/rake"
    body = {"pot": 10000, "flop": True, "rake": 500, "idempotency_key": "r1"}
    first = dealer.post(path, body)
    assert first.status_code == 201, first.text
    assert (first.json["kind"], first.json["amount"]) == ("rake", -500) and first.json["hand_id"]
    before = _counts(session)
    assert dealer.post(path, body).json == first.json
    assert _counts(session) == before
    refused(dealer.post(path, {**body, "idempotency_key": "r2"}), 409, "R51")  # one per hand


@pytest.mark.parametrize("body,status,rule", [
    ({"pot": 10000, "flop": True, "rake": 600}, 409, "R51"),
    ({"pot": 10000, "flop": False, "rake": 100}, 409, "R51"),
    ({"pot": 10000, "flop": True, "rake": 1.5}, 422, "R51"),
    ({"pot": -1, "flop": True, "rake": 100}, 422, "R51"),
])
def test_rake_refusals(dealer, raked_table, session, body, status, rule):
    before = _counts(session)
    refused(dealer.post(f"/tables/{raked_table}/hands/1/rake", body), status, rule)
    assert _counts(session) == before


def test_rake_for_a_hand_not_dealt_is_404(dealer, raked_table):
    body = {"pot": 1, "flop": True, "rake": 1}
    refused(dealer.post(f"/tables/{raked_table}/hands/9/rake", body), 404, None)
    refused(dealer.post("/tables/999999/hands/1/rake", body), 404, None)


def test_a_cashier_may_not_record_rake(cashier, raked_table):
    refused(cashier.post(f"/tables/{raked_table}/hands/1/rake", {"pot": 10000, "flop": True, "rake": 100}),
            403, "R61")
