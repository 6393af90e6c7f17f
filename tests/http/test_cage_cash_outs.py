"""R27, R28, R52, R61 over HTTP: the cage finds a player by name, table or seat, pays a cash-out
tied to the seat and the amount recorded as they left (approved by a supervisor typing their own
password when it differs), and a supervisor reverses a row from the page; the API does the same.
Refusals name the rule and the amount in the room's money; nothing is half-written."""

from __future__ import annotations

from sqlalchemy import func, select

from roomops.ledger.models import LedgerEntry
from tests.conftest import login
from tests.factories import PASSWORD, POLICY_TICKED
from tests.http.test_api import refused


def _rows(session) -> list[tuple[str, int, int | None]]:
    session.expire_all()
    return list(session.execute(select(LedgerEntry.kind, LedgerEntry.amount,
                                       LedgerEntry.approved_by_id).order_by(LedgerEntry.id)))


def _pay(client, hold_id: int, amount: str, **more: str):
    return client.post("/desk/cage/cash-outs", data={"hold_id": str(hold_id), "amount": amount,
                                                     "method": "cash", "q": "1/1", **more})


def test_r27_the_cage_finds_the_player_and_pays_the_recorded_amount(client, room, session, left):
    cashier = login(client, "main-cashier")
    page = cashier.get("/desk/cage").text
    assert f'data-awaiting="{left[0].id}"' in page and "left" in page and "£230.00" in page
    found = cashier.get("/desk/cage", query_string={"q": "1/1"}).text
    assert found.count("data-hold=") == 1 and 'value="230"' in found
    assert cashier.get("/desk/cage", query_string={"q": "1/2"}).text.count('data-movement="add_on"') == 1
    assert 'data-found="none"' in cashier.get("/desk/cage", query_string={"q": "zzz"}).text
    resp = _pay(cashier, left[0].id, "230.00")
    assert resp.status_code == 303 and resp.location.endswith("/desk/cage?q=1/1")
    assert "Cash-out of £230.00 paid" in cashier.get(resp.location).text
    twice = _pay(cashier, left[0].id, "230.00")
    assert twice.status_code == 409 and "R28" in twice.text and "£230.00" in twice.text
    assert _rows(session) == [("cash_out", -23000, None)]
    assert "Nobody is waiting to cash out" in cashier.get("/desk/cage").text


def test_r27_a_different_amount_needs_a_supervisors_password(client, room, session, left):
    cashier = login(client, "main-cashier")
    alone = _pay(cashier, left[0].id, "250")
    assert alone.status_code == 409 and "R27" in alone.text
    assert "£250.00 differs from the £230.00 recorded" in alone.text
    wrong = _pay(cashier, left[0].id, "250", approver="main-supervisor", approver_password="nope")
    assert wrong.status_code == 403 and "R28" in wrong.text
    dealer = _pay(cashier, left[0].id, "250", approver="main-dealer", approver_password=PASSWORD)
    assert dealer.status_code == 403 and "R61" in dealer.text
    assert _rows(session) == []  # nothing half-written
    ok = _pay(cashier, left[0].id, "250", approver="main-supervisor", approver_password=PASSWORD)
    assert ok.status_code == 303
    assert "approved by" in cashier.get(ok.location).text
    assert _rows(session) == [("cash_out", -25000, room.staff["supervisor"].id)]


def test_r52_a_supervisor_reverses_a_row_from_the_page_never_their_own(client, room, session,
                                                                        left):
    sup = login(client, "main-supervisor")
    assert _pay(sup, left[0].id, "230").status_code == 303
    row = session.scalar(select(LedgerEntry.id))
    page = sup.get("/desk/cage", query_string={"q": "1/1"}).text
    assert f'data-row="{row}"' in page and "who did not post it reverses" in page
    own = sup.post(f"/desk/cage/rows/{row}/reverse", data={"reason": "wrong window"})
    assert own.status_code == 409 and "R52" in own.text
    sup.post("/logout")
    admin = login(client, "main-admin")
    assert 'aria-label="reason to reverse row' in admin.get("/desk/cage", query_string={"q": "1/1"}).text
    assert admin.post(f"/desk/cage/rows/{row}/reverse", data={"reason": " "}).status_code == 422
    done = admin.post(f"/desk/cage/rows/{row}/reverse", data={"reason": "wrong window", "q": "1/1"})
    assert done.status_code == 303 and "reversed" in admin.get(done.location).text
    assert [k for k, _a, _b in _rows(session)] == ["cash_out", "reversal"]
    # reversed, the seat waits for its cash-out again
    assert f'data-awaiting="{left[0].id}"' in admin.get("/desk/cage").text


def test_r28_the_api_takes_an_approval_with_the_cash_out(cashier, room, session, left):
    body = {"hold_id": left[0].id, "amount": 25000}
    why = refused(cashier.post("/ledger/cash-outs", body), 409, "R27")
    assert why["amounts"] == {"amount": 25000, "recorded": 23000}
    refused(cashier.post("/ledger/cash-outs", {**body, "approval": {
        "username": "main-supervisor", "password": "wrong"}}), 403, "R28")
    resp = cashier.post("/ledger/cash-outs", {**body, "approval": {
        "username": "main-supervisor", "password": PASSWORD}})
    assert resp.status_code == 201, resp.text
    assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 1


def test_the_cage_policy_is_on_the_policy_page(client, room, session):
    session.commit()
    sup = login(client, "main-supervisor")
    page = sup.get("/desk/policy").text
    assert 'name="cash_out_approval_over"' in page and 'name="close_while_running"' in page
    form = {"cash_out_approval_over": "500", "close_while_running": "refuse",
            "reversal_two_person": "on", **POLICY_TICKED}
    assert sup.post("/desk/policy", data=form).status_code == 303
    session.expire_all()
    assert (room.room.cash_out_approval_over, room.room.close_while_running) == (50000, "refuse")
    sup.post("/desk/policy", data={**form, "cash_out_approval_over": ""})
    session.expire_all()
    assert room.room.cash_out_approval_over is None and room.room.reversal_two_person
