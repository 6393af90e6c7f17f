"""R29 with R27, R28, R30, R32 over HTTP: a playover's chips on the books. The API names the
playover (``playover_id``) on add-ons and cash-outs; the cage finds a playover by the overplayer's
name or the seat ("playing over table 1, seat 3") with its add-on form, then its cash-out once it
ended, tied to the stack counted as it ended. Refusals name the rule; nothing is half-written."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.holds.models import SeatHold
from roomops.ledger.models import LedgerEntry
from roomops.lists import services as lists
from tests.conftest import login
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game
from tests.units import act


@pytest.fixture()
def played(room, session, now, clock):
    """A full table 1; seat 3's owner on a break an hour on; Wes Over waiting, next in order."""
    game, table = full_game(room, session, now, free=0)
    holds = list(session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)
                                 .order_by(SeatHold.seat_no)))
    act(session, room.sup, now, lists.join, player_id=room.player(now, "Wes", "Over").id,
        game_id=game.id)
    clock.advance(hours=1)
    act(session, room.sup, clock.now(), absences.grant_break, holds[2].id, 23450)
    session.commit()
    return holds[2]


def _playover_rows(session) -> list[tuple[str, int, str]]:
    session.expire_all()
    return list(session.execute(select(LedgerEntry.kind, LedgerEntry.amount, LedgerEntry.method)
                                .where(LedgerEntry.playover_id.is_not(None))
                                .order_by(LedgerEntry.id)))


def test_api_a_playover_buy_in_add_on_and_cash_out(client, room, session, played):
    sup, cashier = (Api(client, token_for(room, session, r)) for r in ("supervisor", "cashier"))
    po = sup.post(f"/seats/{played.id}/playover", json={"buy_in": 12000, "buy_in_method": "cash"})
    assert po.status_code == 201, po.text
    pid = po.json["id"]
    added = cashier.post("/ledger/add-ons", json={"hold_id": played.id, "playover_id": pid,
                                                  "amount": 3000, "method": "table"})
    assert added.status_code == 201, added.text
    assert (added.json["playover_id"], added.json["player_id"]) == (pid, po.json["player_id"])
    refused(cashier.post("/ledger/add-ons", json={"hold_id": played.id - 1, "playover_id": pid,
                                                  "amount": 3000}), 422, "R28")
    refused(cashier.post("/ledger/cash-outs", json={"hold_id": played.id, "playover_id": pid,
                                                    "amount": 15000}), 409, "R28")  # still plays
    # the owner comes back; the desk counts the overplayer's stack (R27)
    back = sup.post(f"/seats/{played.id}/back", json={"overplayer_stack": 16500})
    assert back.status_code == 200, back.text
    refused(cashier.post("/ledger/cash-outs", json={"hold_id": played.id, "playover_id": pid,
                                                    "amount": 17000}), 409, "R27")
    paid = cashier.post("/ledger/cash-outs", json={"hold_id": played.id, "playover_id": pid,
                                                   "amount": 16500})
    assert paid.status_code == 201 and paid.json["amount"] == -16500, paid.text
    refused(cashier.post("/ledger/cash-outs", json={"hold_id": played.id, "playover_id": pid,
                                                    "amount": 16500}), 409, "R28")
    assert _playover_rows(session) == [("buy_in", 12000, "cash"), ("add_on", 3000, "table"),
                                       ("cash_out", -16500, "cash")]


def test_api_the_owner_back_refuses_a_bad_overplayer_stack(client, room, session, played):
    sup = Api(client, token_for(room, session, "supervisor"))
    refused(sup.post(f"/seats/{played.id}/back", json={"overplayer_stack": -1}), 422, "R29")
    refused(sup.post(f"/seats/{played.id}/back", json={"overplayer_stack": 100}), 409, "R29")
    assert sup.post(f"/seats/{played.id}/back", json={}).status_code == 200  # none to count


def test_cage_finds_the_playover_records_an_add_on_and_pays_its_cash_out(client, room, session,
                                                                        played):
    Api(client, token_for(room, session, "supervisor")).post(
        f"/seats/{played.id}/playover", json={"buy_in": 12000})
    cashier = login(client, "main-cashier")
    page = cashier.get("/desk/cage", query_string={"q": "wes"}).text
    assert "playing over table 1, seat 3" in page and 'name="playover_id"' in page
    pid = session.scalar(select(LedgerEntry.playover_id).where(LedgerEntry.playover_id.is_not(None)))
    form = {"hold_id": str(played.id), "playover_id": str(pid), "q": "wes", "method": "table"}
    resp = cashier.post("/desk/cage/movements/add_on", data={**form, "amount": "30"})
    assert resp.status_code == 303, resp.text
    assert "Add-on of £30.00 recorded" in cashier.get(resp.location).text
    early = cashier.post("/desk/cage/cash-outs", data={**form, "method": "cash", "amount": "150"})
    assert early.status_code == 409 and "R28" in early.text
    sup = login(client, "main-supervisor")
    assert sup.post(f"/desk/seats/{played.id}/playover/end", data={"stack": "150"}).status_code == 303
    cashier = login(client, "main-cashier")
    waiting = cashier.get("/desk/cage").text
    assert f'data-playover="{pid}"' in waiting and "playing over table 1, seat 3" in waiting
    paid = cashier.post("/desk/cage/cash-outs", data={**form, "method": "cash", "amount": "150"})
    assert paid.status_code == 303
    assert "Cash-out of £150.00 paid" in cashier.get(paid.location).text
    assert _playover_rows(session) == [("buy_in", 12000, "table"), ("add_on", 3000, "table"),
                                       ("cash_out", -15000, "cash")]
    assert f'data-playover="{pid}"' not in cashier.get("/desk/cage").text  # nobody waits


def test_the_openapi_document_says_the_owner_back_body_is_optional(client):
    paths = client.get("/api/openapi.json").json["paths"]
    back = next(v["post"] for k, v in paths.items() if k.endswith("/back"))
    end = next(v["post"] for k, v in paths.items() if k.endswith("/playover/end"))
    assert back["requestBody"]["required"] is False and end["requestBody"]["required"] is True
