"""R31 at the cage page: open slips oldest first with their age, the transit steps as forms for
cashiers and supervisors, refusals naming the rule with nothing changed."""

from __future__ import annotations

from sqlalchemy import select

from roomops.games.models import Table
from roomops.ledger.models import LedgerEntry, TransitSlip
from tests.conftest import login
from tests.services.ledger_helpers import seated_holds


def _slips(session):
    session.expire_all()
    return list(session.scalars(select(TransitSlip).order_by(TransitSlip.number)))


def test_cage_round_trip(app, client, room, session, now, clock):
    holds = seated_holds(room, session, now)[2]
    session.commit()
    cashier = login(client, "main-cashier")
    form = {"hold_id": str(holds[0].id), "amount": "200.50", "method": "cash", "idempotency_key": "f1"}
    assert cashier.post("/desk/cage/transits", data=form).status_code == 303
    assert cashier.post("/desk/cage/transits", data=form).status_code == 303  # sent twice: one slip
    clock.advance(minutes=3)
    cashier.post("/desk/cage/transits", data={**form, "hold_id": str(holds[1].id), "idempotency_key": "f2"})
    [first, second] = _slips(session)
    assert (first.amount, first.number, second.number) == (20050, 1, 2)
    clock.advance(minutes=1)
    page = cashier.get("/desk/cage").text
    assert page.index('data-slip="1"') < page.index('data-slip="2"') and "4 min" in page
    refused = cashier.post(f"/desk/cage/transits/{first.id}/dispatch")
    assert refused.status_code == 403 and "R61" in refused.text
    cashier.post("/logout")
    sup = login(client, "main-supervisor")
    assert sup.post(f"/desk/cage/transits/{first.id}/dispatch").status_code == 303
    own = sup.post(f"/desk/cage/transits/{first.id}/deliver")
    assert own.status_code == 409 and "R31" in own.text and "Nothing was changed" in own.text
    cancel = sup.post(f"/desk/cage/transits/{second.id}/cancel", data={"reason": "wrong seat"})
    assert cancel.status_code == 303
    sup.post("/logout")
    login(client, "main-cashier").post(f"/desk/cage/transits/{first.id}/deliver")
    assert [s.state for s in _slips(session)] == ["delivered", "cancelled"]
    assert session.scalar(select(LedgerEntry.amount)) == 20050
    assert "Nothing in transit" in client.get("/desk/cage").text


def test_r31_a_cashier_sees_what_a_slip_waits_for_not_a_supervisors_buttons(client, room, session, now):
    """Authorising a transit and cancelling a slip are a supervisor's (R31): the cashier's list
    says the slip waits for one; the supervisor's has the buttons; both may confirm a delivery."""
    holds = seated_holds(room, session, now)[2]
    session.commit()
    cashier = login(client, "main-cashier")
    form = {"hold_id": str(holds[0].id), "amount": "100", "method": "cash", "idempotency_key": "w1"}
    assert cashier.post("/desk/cage/transits", data=form).status_code == 303
    slips = cashier.get("/desk/cage/slips").text
    assert "waits for a supervisor to authorise (R31)" in slips
    assert ">Authorise</button>" not in slips and "why cancel" not in slips
    cashier.post("/logout")
    supervisor = login(client, "main-supervisor").get("/desk/cage/slips").text
    assert ">Authorise</button>" in supervisor and "why cancel" in supervisor
    assert "waits for a supervisor" not in supervisor


def test_r31_the_authoriser_is_offered_no_delivery_to_confirm_at_the_cage(client, room, session, now):
    holds = seated_holds(room, session, now)[2]
    session.commit()
    sup = login(client, "main-supervisor")
    form = {"hold_id": str(holds[0].id), "amount": "100", "method": "cash", "idempotency_key": "a1"}
    assert sup.post("/desk/cage/transits", data=form).status_code == 303
    [slip] = _slips(session)
    assert sup.post(f"/desk/cage/transits/{slip.id}/dispatch").status_code == 303
    assert "Confirm delivery" not in sup.get("/desk/cage/slips").text
    sup.post("/logout")
    assert "Confirm delivery" in login(client, "main-cashier").get("/desk/cage/slips").text


def test_r31_a_transit_asked_for_at_the_cage_says_how_it_was_paid(client, room, session, now):
    """The cage's transit form assumes no method (issue 40): a slip on credit must not play
    behind as cash would (R31); unchosen, it is refused in words and no slip is written."""
    holds = seated_holds(room, session, now)[2]
    session.commit()
    cashier = login(client, "main-cashier")
    table = session.get_one(Table, holds[0].table_id).name
    page = cashier.get(f"/desk/cage?q={table}/{holds[0].seat_no}").text
    transit_form = page[page.index('data-form="transit"'):]
    assert transit_form.index('<option value="" selected>choose how it was paid') < transit_form.index(
        "Request transit")
    form = {"hold_id": str(holds[0].id), "amount": "100", "method": "", "idempotency_key": "m1"}
    resp = cashier.post("/desk/cage/transits", data=form, headers={"Accept": "application/json"})
    assert resp.status_code == 422 and resp.json["rule"] == "R31", resp.text
    assert "choose how it was paid" in resp.json["error"] and _slips(session) == []
    assert cashier.post("/desk/cage/transits", data={**form, "method": "cash"}).status_code == 303
    assert [s.method for s in _slips(session)] == ["cash"]
