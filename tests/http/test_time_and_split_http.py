"""R50 time collection and R51 split pots over HTTP: the policy screen and the API carry the
settings, the fees page and its JSON say when each due player pays, and the dealer's screen and the
API rake a split pot once, showing each winner's share, or refuse it where the room does not."""

from __future__ import annotations

from datetime import timedelta

from roomops.hands.services import record_hand
from roomops.lists import services as lists
from roomops.rooms.models import Room
from tests.conftest import login
from tests.http.test_api import Api, refused, token_for
from tests.services.ledger_helpers import seated_holds
from tests.units import act

MIN = timedelta(minutes=1)
BOXES = {"auto_offer": "on", "reversal_two_person": "on", "call_ins": "on"}


def test_r50_r51_the_policy_screen_saves_the_time_and_split_pot_settings(sup_client, room, session):
    page = sup_client.get("/desk/policy").text
    assert '<option value="clock" selected>' in page and 'name="time_new_player_minutes" ' \
        'inputmode="numeric" value="10"' in page
    form = {**BOXES, "time_collection": "own", "time_new_player_minutes": "5",
            "time_all_pay_waiting": "3"}  # the two boxes unticked
    assert sup_client.post("/desk/policy", data=form).status_code == 303
    r = session.get_one(Room, room.room.id)
    session.refresh(r)
    assert (r.time_collection, r.time_new_player_minutes, r.time_all_pay_waiting,
            r.time_decline_until_bb, r.rake_split_pots) == ("own", 5, 3, False, False)
    again = sup_client.post("/desk/policy", data={**BOXES, "time_new_player_minutes": "31"})
    assert again.status_code == 422 and "time_new_player_minutes" in again.text


def test_r50_r51_the_api_reads_and_changes_the_settings(client, room, session):
    api = Api(client, token_for(room, session, "supervisor"))
    got = api.get("/policy").json
    assert (got["time_collection"], got["time_new_player_minutes"], got["time_all_pay_waiting"],
            got["time_decline_until_bb"], got["rake_split_pots"]) == ("clock", 10, 2, True, True)
    changed = api.patch("/policy", json={"time_collection": "own", "rake_split_pots": False})
    assert changed.status_code == 200, changed.text
    assert (changed.json["time_collection"], changed.json["rake_split_pots"]) == ("own", False)
    refused(api.patch("/policy", json={"time_all_pay_waiting": 0}), 422, "R3")
    refused(api.patch("/policy", json={"time_collection": "sometimes"}), 422, "R3")


def test_r50_the_fees_page_and_its_json_say_when_a_due_player_pays(client, room, session, now):
    game, _table, _holds = seated_holds(room, session, now, free=0, fee_kind="hourly", time_fee=500)
    session.commit()
    cashier = login(client, "main-cashier")
    assert "may play on until the big blind" in cashier.get("/desk/fees").text
    for player in room.players(now, 2, "W"):
        act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)
    session.commit()
    page = cashier.get("/desk/fees").text
    assert "everyone due pays before the next hand" in page and "<td>2 · " in page
    api = Api(client, token_for(room, session, "cashier"))
    rows = api.get("/ledger/fees-due").json["fees"]
    assert {(r["waiting"], r["pay_when"]) for r in rows} == {(2, "before_next_hand")}


def _raked(room, session, now):
    table = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500)[1]
    hand = act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    session.commit()
    return table, hand


def test_r51_the_dealer_splits_a_pot_and_is_shown_each_winners_share(client, room, session, now):
    table, hand = _raked(room, session, now)
    a, b = sorted(hand.dealt_in)[:2]
    dealer = login(client, "main-dealer")
    assert 'name="split_seats" value="1"' in dealer.get(f"/dealer/tables/{table.id}").text
    form = {"hand_no": "1", "pot": "100", "flop": "on", "rake": "5", "split_seats": [str(a), str(b)],
            "idempotency_key": "s1"}
    done = dealer.post(f"/dealer/tables/{table.id}/rake", data=form, follow_redirects=True)
    assert done.status_code == 200  # 95.00 left in 1.00 chips: the odd one clockwise from the button
    first = next(s for s in sorted(hand.dealt_in, key=lambda s: (s <= hand.button, s)) if s in (a, b))
    shares = {a: "£47.00", b: "£47.00", first: "£48.00"}
    assert f"Split pot: seat {a} {shares[a]}, seat {b} {shares[b]}." in done.text


def test_r51_a_room_that_does_not_rake_split_pots_says_so_on_the_tablet(client, room, session, now):
    table, hand = _raked(room, session, now)
    room.room.rake_split_pots = False
    session.commit()
    dealer = login(client, "main-dealer")
    assert "A split pot is not raked in this room" in dealer.get(f"/dealer/tables/{table.id}").text
    form = {"hand_no": "1", "pot": "100", "flop": "on", "rake": "5",
            "split_seats": [str(s) for s in sorted(hand.dealt_in)[:2]]}
    resp = dealer.post(f"/dealer/tables/{table.id}/rake", data=form)
    assert resp.status_code == 409 and "split pot is not raked" in resp.text


def test_r51_the_api_takes_the_split_seats_and_refuses_a_seat_not_dealt_in(client, room, session, now):
    table, hand = _raked(room, session, now)
    dealer = Api(client, token_for(room, session, "dealer"))
    body = {"pot": 10_000, "flop": True, "rake": 500, "split_seats": [10, sorted(hand.dealt_in)[0]]}
    refused(dealer.post(f"/tables/{table.id}/hands/1/rake", body), 422, "R51")
    refused(dealer.post(f"/tables/{table.id}/hands/1/rake", {**body, "split_seats": ["1", "2"]}),
            422, "R51")
    ok = dealer.post(f"/tables/{table.id}/hands/1/rake", {**body, "split_seats": sorted(hand.dealt_in)[:2]})
    assert ok.status_code == 201, ok.text
