"""R51 over HTTP: rake schedules and caps by players in the API's and the desk's game bodies,
the dealer down's rake over the API and on the dealer's screen; refusals are 4xx naming R51 with
nothing written. R53: the schedule and caps shown to players."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.games.models import Game
from roomops.hands.services import record_hand
from roomops.ledger.models import DealerDown, LedgerEntry
from tests.conftest import login
from tests.http.test_api import refused
from tests.http.test_desk import GAME_FORM
from tests.services.ledger_helpers import seated_holds
from tests.units import act

SCHEDULE = [{"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 200}]
CAPS = [{"players": 2, "cap": 200}, {"players": 6, "cap": 300}]
GAME = {"variant": "NL Hold'em", "small_blind": 100, "big_blind": 200, "min_buyin": 10000,
        "max_buyin": 40000, "fee_kind": "rake", "rake_cap": 100, "rake_schedule": SCHEDULE,
        "rake_caps_by_players": CAPS, "rake_recorded": "per_down"}


def _counts(session) -> tuple[int, ...]:
    session.expire_all()
    return tuple(session.scalar(select(func.count()).select_from(m))
                 for m in (LedgerEntry, DealerDown, AuditEvent, Game))


def _per_down(room, session, now, hands: int = 3, **fields) -> int:
    table = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500,
                         rake_recorded="per_down", **fields)[1]
    for no in range(1, hands + 1):
        act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=no,
            high_card_seat=1 if no == 1 else None)
    session.commit()
    return table.id


def test_r51_a_game_with_a_schedule_and_caps_by_players(sup, session):
    resp = sup.post("/games", GAME)
    assert resp.status_code == 201, resp.text
    game = resp.json
    assert (game["rake_schedule"], game["rake_caps_by_players"], game["rake_recorded"]) == (
        SCHEDULE, CAPS, "per_down")
    changed = sup.patch(f"/games/{game['id']}", {"rake_schedule": [], "rake_recorded": "per_hand"})
    assert changed.status_code == 200, changed.text
    assert (changed.json["rake_schedule"], changed.json["rake_recorded"]) == ([], "per_hand")


@pytest.mark.parametrize("field,value", [
    ("rake_schedule", [{"pot": 2000, "rake": 100}, {"pot": 2000, "rake": 200}]),  # one per pot
    ("rake_schedule", [{"pot": 2000, "rake": 300}, {"pot": 4000, "rake": 200}]),  # less for more
    ("rake_schedule", [{"pot": 100, "rake": 200}]),                               # over its pot
    ("rake_schedule", [{"pot": 0, "rake": 100}]),
    ("rake_schedule", [{"pot": 2000}]),
    ("rake_schedule", "5%"),
    ("rake_caps_by_players", [{"players": 1, "cap": 100}]),                      # 2..10 dealt
    ("rake_caps_by_players", [{"players": 11, "cap": 100}]),
    ("rake_caps_by_players", [{"players": 3, "cap": 100}, {"players": 3, "cap": 200}]),
    ("rake_caps_by_players", [{"players": 3, "cap": 0}]),
    ("rake_recorded", "per_shift"),
])
def test_r51_a_bad_schedule_is_422_naming_r51(sup, session, field, value):
    before = _counts(session)
    refused(sup.post("/games", {**GAME, field: value}), 422, "R51")
    assert _counts(session) == before
    game = sup.post("/games", GAME).json
    refused(sup.patch(f"/games/{game['id']}", {field: value}), 422, "R51")


def test_r53_the_rake_in_force_is_shown_with_its_schedule_and_caps(sup, room, session, now):
    game = sup.post("/games", GAME).json
    sup.post("/tables", {"game_id": game["id"], "name": "4"})
    fees = next(g for g in sup.get("/room").json["games"] if g["id"] == game["id"])["fees"]
    assert (fees["rake_schedule"], fees["rake_caps_by_players"]) == (SCHEDULE, CAPS)
    board = sup.client.get("/board").text
    assert ("Rake: £1.00 from a pot of £20.00, £2.00 from a pot of £40.00, max £1.00 a pot, max "
            "£2.00 from 2 players dealt in, max £3.00 from 6 players dealt in, no flop no drop") in board


def test_r51_record_a_down_and_retry(dealer, room, session, now):
    table_id = _per_down(room, session, now)
    body = {"first_hand_no": 1, "last_hand_no": 3, "rake": 1500}
    first = dealer.client.post(f"/api/v1/tables/{table_id}/downs", json=body,
                               headers={**dealer.headers, "Idempotency-Key": "dn1"})
    assert first.status_code == 201, first.text
    assert (first.json["kind"], first.json["amount"], first.json["hand_id"]) == ("rake", -1500, None)
    down = session.get_one(DealerDown, first.json["down_id"])
    assert (down.first_hand_no, down.last_hand_no, down.dealer_id) == (
        1, 3, room.actor("dealer").staff_id)
    before = _counts(session)
    again = dealer.post(f"/tables/{table_id}/downs", {**body, "idempotency_key": "dn1"})
    assert (again.status_code, again.json) == (201, first.json)
    assert _counts(session) == before
    refused(dealer.post(f"/tables/{table_id}/downs", {**body, "rake": 100}), 409, "R51")  # raked


def test_r51_the_tables_downs_are_listed_newest_first(dealer, sup, room, session, now):
    table_id = _per_down(room, session, now)
    first = dealer.post(f"/tables/{table_id}/downs", {"first_hand_no": 1, "last_hand_no": 2,
                                                     "rake": 1000}).json
    assert sup.post(f"/ledger/{first['id']}/reverse",
                    {"reason": "counted the drop box wrong"}).status_code == 201
    dealer.post(f"/tables/{table_id}/downs", {"first_hand_no": 1, "last_hand_no": 3, "rake": 1200})
    resp = dealer.get(f"/tables/{table_id}/rake-downs")
    assert resp.status_code == 200, resp.text
    assert [(d["first_hand_no"], d["last_hand_no"], d["rake"], d["standing"], d["dealer"])
            for d in resp.json["downs"]] == [(1, 3, 1200, True, "main-dealer"),
                                             (1, 2, 1000, False, "main-dealer")]
    assert resp.json["downs"][1]["entry_id"] == first["id"]
    assert dealer.get("/tables/999999/rake-downs").status_code == 404


@pytest.mark.parametrize("body,status,rule", [
    ({"first_hand_no": 1, "last_hand_no": 3, "rake": 1600}, 409, "R51"),   # 3 x the 5.00 cap
    ({"first_hand_no": 1, "last_hand_no": 3, "rake": 150}, 422, "R51"),    # not whole chips
    ({"first_hand_no": 3, "last_hand_no": 1, "rake": 100}, 422, "R51"),
    ({"first_hand_no": 0, "last_hand_no": 1, "rake": 100}, 422, "R51"),
    ({"first_hand_no": 1, "last_hand_no": 3, "rake": 1.5}, 422, "R51"),
    ({"first_hand_no": 1, "last_hand_no": 3}, 422, "R51"),
    ({"first_hand_no": 1, "last_hand_no": 4, "rake": 100}, 404, None),     # hand 4 not dealt
    ({"first_hand_no": 1, "last_hand_no": 3, "rake": 100, "dealer_id": 10**6}, 409, "R61"),
])
def test_r51_down_refusals(dealer, room, session, now, body, status, rule):
    table_id = _per_down(room, session, now)
    before = _counts(session)
    refused(dealer.post(f"/tables/{table_id}/downs", body), status, rule)
    assert _counts(session) == before


def test_r51_per_hand_rake_is_refused_in_a_per_down_game(dealer, room, session, now):
    table_id = _per_down(room, session, now)
    refused(dealer.post(f"/tables/{table_id}/hands/1/rake", {"pot": 10000, "flop": True,
                                                            "rake": 100}), 409, "R51")
    refused(dealer.post(f"/tables/{table_id}/hands/1/rake", {"pot": 10000, "flop": True,
                                                            "rake": 100, "players": 11}), 422, "R51")


def test_r51_the_desk_game_form_takes_a_schedule_and_caps(sup_client, session):
    form = {**GAME_FORM, "fee_kind": "rake", "rake_schedule": "20:1, 40:2.50",
            "rake_caps_by_players": "2:3, 5:5", "rake_recorded": "per_down"}
    assert sup_client.post("/desk/games", data=form).status_code == 303
    game = session.scalar(select(Game).where(Game.variant == "PL Omaha"))
    assert game.rake_schedule == [{"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 250}]
    assert game.rake_caps_by_players == [{"players": 2, "cap": 300}, {"players": 5, "cap": 500}]
    assert game.rake_recorded == "per_down"
    page = sup_client.get("/desk").text
    assert 'value="20:1, 40:2.50"' in page  # shown back as typed
    assert "rake by schedule by players per down" in page  # the game's summary line (R53)
    resp = sup_client.post(f"/desk/games/{game.id}/change", data={"rake_schedule": ""})
    assert resp.status_code == 303
    session.refresh(game)
    assert game.rake_schedule == []  # emptied: the percent applies


@pytest.mark.parametrize("field,value", [("rake_schedule", "20-1"), ("rake_schedule", "20:x"),
                                         ("rake_caps_by_players", "two:3"),
                                         ("rake_schedule", "40:1, 20:2")])
def test_r51_a_bad_schedule_on_the_desk_form_names_r51(sup_client, session, field, value):
    resp = sup_client.post("/desk/games", data={**GAME_FORM, "fee_kind": "rake", field: value})
    assert resp.status_code == 422 and "R51" in resp.text, resp.text
    assert session.scalar(select(Game).where(Game.variant == "PL Omaha")) is None


def test_r51_the_dealer_screen_records_the_downs_rake(app, client, room, session, now):
    table_id = _per_down(room, session, now, hands=4)
    dealer = login(client, "main-dealer")
    page = dealer.get(f"/dealer/tables/{table_id}").text
    assert 'id="down-form"' in page and 'id="rake-form"' not in page
    assert 'name="first_hand_no" required inputmode="numeric" value="1"' in page
    assert 'name="last_hand_no" required inputmode="numeric" value="4"' in page
    form = {"first_hand_no": "1", "last_hand_no": "2", "rake": "10", "idempotency_key": "t1"}
    assert dealer.post(f"/dealer/tables/{table_id}/downs", data=form).status_code == 303
    assert dealer.post(f"/dealer/tables/{table_id}/downs", data=form).status_code == 303  # twice
    page = dealer.get(f"/dealer/tables/{table_id}").text
    assert 'name="first_hand_no" required inputmode="numeric" value="3"' in page
    over = dealer.post(f"/dealer/tables/{table_id}/downs",
                       data={**form, "first_hand_no": "3", "last_hand_no": "4", "rake": "11",
                             "idempotency_key": "t2"})
    assert over.status_code == 409 and "R51" in over.text
    bad = dealer.post(f"/dealer/tables/{table_id}/downs", data={**form, "first_hand_no": "x"})
    assert bad.status_code == 422 and "R51" in bad.text
    session.expire_all()
    assert session.scalar(select(func.count()).select_from(DealerDown)) == 1
    listed = dealer.get(f"/dealer/tables/{table_id}").text
    assert 'id="downs"' in listed and "hands 1\u20132 · " in listed and "rake £10.00 · " in listed
