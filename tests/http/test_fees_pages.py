"""R50 at the desk's fees page and R51 on the dealer's screen: who is due longest first, collect
once per form, the rake form, refusals naming the rule with nothing changed."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from roomops.hands.services import record_hand
from roomops.holds.models import SeatHold
from roomops.ledger import fees, transit
from roomops.ledger.models import LedgerEntry
from tests.conftest import login
from tests.services.ledger_helpers import seated_holds
from tests.units import act


def _rows(session, kind):
    session.expire_all()
    return list(session.scalars(select(LedgerEntry).where(LedgerEntry.kind == kind)))


def test_fees_page_lists_who_is_due_and_collects_once(app, client, room, session, now, clock):
    room.room.time_collection = "own"  # each player's own hour (the clock's: test_time_collection)
    holds = seated_holds(room, session, now, fee_kind="hourly", time_fee=500)[2]
    act(session, room.sup, now - timedelta(minutes=90), fees.collect, holds[1].id)  # due 30 min
    session.commit()
    cashier = login(client, "main-cashier")
    page = cashier.get("/desk/fees").text
    assert page.index(f'data-hold="{holds[1].id}"') < page.index(f'data-hold="{holds[0].id}"')
    assert "due 30 min" in page
    form = {"hold_id": str(holds[0].id), "method": "cash", "idempotency_key": "p1"}
    assert cashier.post("/desk/fees", data=form).status_code == 303
    assert cashier.post("/desk/fees", data=form).status_code == 303  # sent twice: one fee
    assert len([r for r in _rows(session, "session_fee") if r.hold_id == holds[0].id]) == 1
    page = cashier.get("/desk/fees").text
    assert page.index(f'data-hold="{holds[1].id}"') < page.index(f'data-hold="{holds[0].id}"')


def test_fees_page_refusal_names_the_rule(app, client, room, session, now):
    holds = seated_holds(room, session, now)[2]  # no hourly fee
    session.commit()
    sup = login(client, "main-supervisor")
    resp = sup.post("/desk/fees", data={"hold_id": str(holds[0].id), "method": "cash"})
    assert resp.status_code == 409 and "R50" in resp.text
    assert _rows(session, "session_fee") == []


def test_dealer_records_the_rake_of_the_last_hand(app, client, room, session, now):
    table = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500)[1]
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    dealer = login(client, "main-dealer")
    page = dealer.get(f"/dealer/tables/{table.id}").text
    assert 'id="rake-form"' in page
    form = {"hand_no": "1", "pot": "100", "flop": "on", "rake": "6", "idempotency_key": "d1"}
    over = dealer.post(f"/dealer/tables/{table.id}/rake", data=form)
    assert over.status_code == 409 and "R51" in over.text
    ok = dealer.post(f"/dealer/tables/{table.id}/rake", data={**form, "rake": "5", "idempotency_key": "d2"})
    assert ok.status_code == 303
    [row] = _rows(session, "rake")
    assert row.amount == -500


def test_r31_playing_behind_on_the_desk_board_and_dealer_screen(app, client, room, session, now):
    table = seated_holds(room, session, now)[1]
    seat = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)
                           .order_by(SeatHold.seat_no)).all()
    cash = act(session, room.sup, now, transit.request, seat[0].id, 20000, "cash")
    cheque = act(session, room.sup, now, transit.request, seat[1].id, 30000, "cheque")
    act(session, room.sup, now, transit.request, seat[2].id, 5000, "cash")
    wrong = act(session, room.sup, now, transit.request, seat[2].id, 7000)
    act(session, room.sup, now, transit.cancel, wrong.id, "wrong amount")
    session.commit()

    def shown(page: str) -> list[str]:
        return [line for line in page.splitlines() if "playing behind" in line]

    sup = login(client, "main-supervisor")
    desk = shown(sup.get("/desk/fragment").text)
    dealer = shown(sup.get(f"/dealer/tables/{table.id}").text)
    board = shown(client.get("/board").text)
    for lines in (desk, dealer, board):
        text = " ".join(lines)
        assert "playing behind £200.00" in text and "playing behind £50.00" in text  # the slips still open
        assert "£300" not in text and "£70" not in text  # the unconfirmed cheque, the cancelled slip
    assert "Seat 1: playing behind £200.00" in " ".join(board)
    act(session, room.sup, now, transit.confirm_funds, cheque.id)
    act(session, room.sup, now, transit.dispatch, cash.id)
    act(session, room.actor("cashier"), now, transit.deliver, cash.id)
    session.commit()
    board = " ".join(shown(client.get("/board").text))
    assert "Seat 2: playing behind £300.00" in board and "£200" not in board  # delivered: in play now
