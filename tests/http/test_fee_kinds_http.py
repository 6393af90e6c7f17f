"""R50/R53 over HTTP: games with half-hourly fees or a drop (the API and the desk's game form),
collecting from a whole table (the API and /desk/fees), the drop per hand (the API and the dealer's
screen), only the methods a fee is taken in, refusals naming the rule with nothing written."""

from __future__ import annotations

import html

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.games.models import Game
from roomops.hands.services import record_hand
from roomops.ledger import fees
from roomops.ledger.models import LedgerEntry
from tests.conftest import login
from tests.http.test_api import refused
from tests.http.test_desk import GAME_FORM
from tests.services.ledger_helpers import seated_holds
from tests.units import act

GAME = {"variant": "NLH", "small_blind": 100, "big_blind": 200, "min_buyin": 10000,
        "max_buyin": 40000}


def _counts(session) -> tuple[int, int]:
    session.expire_all()
    return tuple(session.scalar(select(func.count()).select_from(m)) for m in (LedgerEntry, AuditEvent))


def _rows(session, kind):
    session.expire_all()
    return list(session.scalars(select(LedgerEntry).where(LedgerEntry.kind == kind)))


@pytest.fixture()
def halfhour_table(room, session, now):
    table = seated_holds(room, session, now, fee_kind="halfhour", time_fee=300)[1]
    session.commit()
    return table.id


@pytest.fixture()
def drop_table(room, session, now):
    table = seated_holds(room, session, now, fee_kind="drop", drop_fee=300,
                         drop_by_players=[{"players": 7, "fee": 500}])[1]
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    return table.id


# ---- games ---------------------------------------------------------------------------------------


def test_r50_the_api_opens_half_hourly_and_drop_games(sup):
    half = sup.post("/games", {**GAME, "fee_kind": "halfhour", "time_fee": 300,
                               "time_fee_by_players": [{"players": 7, "fee": 400}]})
    assert half.status_code == 201, half.text
    assert {k: half.json[k] for k in ("fee_kind", "time_fee", "hourly_fee")} == {
        "fee_kind": "halfhour", "time_fee": 300, "hourly_fee": 300}
    drop = sup.post("/games", {**GAME, "fee_kind": "drop", "drop_fee": 300,
                               "drop_by_players": [{"players": 7, "fee": 500}]})
    assert drop.status_code == 201, drop.text
    assert (drop.json["drop_fee"], drop.json["drop_by_players"]) == (300, [{"players": 7, "fee": 500}])
    refused(sup.post("/games", {**GAME, "drop_by_players": [{"players": 7, "fee": 1},
                                                            {"players": 7, "fee": 2}]}), 422, "R50")


def test_r50_the_api_still_takes_the_hourly_fee_by_its_old_name(sup):
    resp = sup.post("/games", {**GAME, "fee_kind": "hourly", "hourly_fee": 500,
                               "hourly_fee_by_players": [{"players": 7, "fee": 600}]})
    assert resp.status_code == 201, resp.text
    assert (resp.json["time_fee"], resp.json["time_fee_by_players"]) == (500, [{"players": 7, "fee": 600}])


def test_r50_the_desk_game_form_offers_the_new_kinds(sup_client, session):
    page = sup_client.get("/desk").text
    assert 'value="halfhour"' in page and 'value="drop"' in page and 'name="drop_fee"' in page
    form = {**GAME_FORM, "fee_kind": "drop", "drop_fee": "3", "drop_by_players": "7:5"}
    assert sup_client.post("/desk/games", data=form).status_code == 303
    game = session.scalars(select(Game).where(Game.variant == "PL Omaha")).one()
    assert (game.fee_kind, game.drop_fee, game.drop_by_players) == (
        "drop", 300, [{"players": 7, "fee": 500}])
    page = sup_client.get("/desk").text
    assert "drop £3.00/hand by players" in page and "Drop: £3.00 per hand, £5.00 from 7 players" in page


# ---- the OpenAPI document offers only the methods a fee is taken in ----------------------------


def test_r50_the_api_offers_only_the_methods_a_fee_is_taken_in(client):
    schemas = client.get("/api/openapi.json").json["components"]["schemas"]

    def methods(name: str) -> list[str]:
        prop = schemas[name]["properties"]["method"]
        return prop["enum"] if "enum" in prop else [prop["const"]]  # one value is a const

    assert methods("SessionFee") == methods("TableFees") == ["chips", "cash"]
    assert methods("Drop") == ["chips"]


# ---- the whole table ------------------------------------------------------------------------------


def test_r50_collect_from_the_whole_table_and_retry(cashier, halfhour_table, session):
    path = f"/tables/{halfhour_table}/session-fees"
    first = cashier.post(path, {"idempotency_key": "t1"})
    assert first.status_code == 201, first.text
    assert (first.json["table_id"], len(first.json["rows"]), first.json["skipped"]) == (
        halfhour_table, 8, 0)
    row = first.json["rows"][0]
    assert (row["kind"], row["amount"], row["method"]) == ("session_fee", -300, "chips")
    before = _counts(session)
    assert cashier.post(path, {"idempotency_key": "t1"}).json == first.json
    assert _counts(session) == before
    refused(cashier.post(path, {}), 409, "R50")  # everyone is covered now


@pytest.mark.parametrize("payload,status,rule", [
    ({"method": "card"}, 422, "R50"),
    ({"method": "table"}, 422, "R50"),
    ({"currency": "EUR"}, 422, "R32"),
    ({"amount": 300}, 422, "R50"),
])
def test_r50_whole_table_refusals(cashier, halfhour_table, session, payload, status, rule):
    before = _counts(session)
    refused(cashier.post(f"/tables/{halfhour_table}/session-fees", payload), status, rule)
    assert _counts(session) == before


def test_r50_a_dealer_does_not_collect_from_the_table(dealer, halfhour_table):
    refused(dealer.post(f"/tables/{halfhour_table}/session-fees", {}), 403, "R61")
    refused(dealer.post("/tables/999999/session-fees", {}), 403, "R61")


def test_r50_fees_due_says_the_period(cashier, halfhour_table):
    rows = cashier.get("/ledger/fees-due").json["fees"]
    assert {r["fee_kind"] for r in rows} == {"halfhour"} and len(rows) == 8


def test_r50_the_fees_page_collects_from_the_whole_table_once(client, room, session, now,
                                                              halfhour_table):
    seat = fees.fees_due(session, room.room.id, now)[0].hold_id
    act(session, room.sup, now, fees.collect, seat, "cash")
    session.commit()
    cashier = login(client, "main-cashier")
    page = cashier.get("/desk/fees").text
    assert "Collect from the whole table (7 due)" in page and "£3.00 per half hour" in page
    assert '<option value="card">' not in page and '<option value="table">' not in page
    form = {"method": "chips", "idempotency_key": "page-t1"}
    resp = cashier.post(f"/desk/fees/tables/{halfhour_table}", data=form)
    assert resp.status_code == 303
    assert cashier.post(f"/desk/fees/tables/{halfhour_table}", data=form).status_code == 303
    assert len(_rows(session, "session_fee")) == 8  # sent twice: collected once
    page = cashier.get("/desk/fees").text
    assert "7 fees of £3.00 collected from the whole table (chips)" in page
    assert "1 covered, not charged" in page
    again = cashier.post(f"/desk/fees/tables/{halfhour_table}", data={"method": "chips"})
    assert again.status_code == 409 and "R50" in again.text


# ---- the drop -----------------------------------------------------------------------------------


def test_r50_record_the_drop_of_a_hand_and_retry(dealer, drop_table, session):
    path = f"/tables/{drop_table}/hands/1/drop"
    first = dealer.post(path, {"amount": 500, "idempotency_key": "d1"})
    assert first.status_code == 201, first.text
    assert (first.json["kind"], first.json["amount"], first.json["method"]) == ("drop", -500, "chips")
    assert first.json["hand_id"]
    before = _counts(session)
    assert dealer.post(path, {"amount": 500, "idempotency_key": "d1"}).json == first.json
    assert _counts(session) == before
    refused(dealer.post(path, {}), 409, "R50")  # one standing drop a hand


@pytest.mark.parametrize("body,status,rule", [
    ({"method": "cash"}, 422, "R50"),
    ({"amount": 300}, 409, "R50"),  # 8 dealt in: the drop is 5.00
    ({"players": 7}, 409, "R50"),   # the hand was dealt to 8
    ({"players": 11}, 422, "R50"),
    ({"amount": 1.5}, 422, "R50"),
])
def test_r50_drop_refusals(dealer, drop_table, session, body, status, rule):
    before = _counts(session)
    refused(dealer.post(f"/tables/{drop_table}/hands/1/drop", body), status, rule)
    assert _counts(session) == before


def test_r50_a_cashier_does_not_record_a_drop(cashier, drop_table):
    refused(cashier.post(f"/tables/{drop_table}/hands/1/drop", {}), 403, "R61")


def test_r50_the_dealer_takes_the_drop_in_one_tap(client, room, session, drop_table):
    dealer = login(client, "main-dealer")
    page = dealer.get(f"/dealer/tables/{drop_table}").text
    assert 'id="drop-form"' in page and "Take the drop: £5.00 (8 players dealt in)" in page
    assert "Drop: £3.00 per hand, £5.00 from 7 players" in page
    form = {"hand_no": "1", "amount": "5.00", "idempotency_key": "dd1"}
    assert dealer.post(f"/dealer/tables/{drop_table}/drop", data=form).status_code == 303
    assert dealer.post(f"/dealer/tables/{drop_table}/drop", data=form).status_code == 303
    [row] = _rows(session, "drop")
    assert row.amount == -500
    page = dealer.get(f"/dealer/tables/{drop_table}").text
    assert 'id="drop-done"' in page and "Take the drop" not in page
    stale = dealer.post(f"/dealer/tables/{drop_table}/drop",
                        data={"hand_no": "1", "amount": "3.00"})
    assert stale.status_code == 409 and "R50" in stale.text


def test_r50_r53_the_board_shows_half_hourly_fees_and_the_drop(client, room, session, now):
    room.game(now, variant="PL Omaha", fee_kind="halfhour", time_fee=300,
              time_fee_by_players=[{"players": 7, "fee": 400}])
    room.game(now, variant="Stud", fee_kind="drop", drop_fee=300,
              drop_by_players=[{"players": 7, "fee": 500}])
    session.commit()
    page = html.unescape(client.get("/board").text)
    assert "Time: £3.00 per half hour, £4.00 from 7 players, paid in advance" in page
    assert "Drop: £3.00 per hand, £5.00 from 7 players" in page
