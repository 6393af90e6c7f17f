"""R13, R14, R17, R36 over HTTP: the desk's offer by hand goes to whoever is next for the seat (a
must-move player included), its refusals name people, the offered seat tells the dialog how
the player claims it, and switching automatic offers on offers the seats already open; on every
configured database."""

from __future__ import annotations

from datetime import timedelta

from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from tests.services.helpers import audits, live_offer, must_move_floor
from tests.units import act

MIN = timedelta(minutes=1)
JSON = {"Accept": "application/json"}


def _floor(room, session, now):
    main, _mains, fed, reserve = must_move_floor(room, session, now)
    session.commit()
    return main, fed, reserve


def test_r14_r17_the_desk_offers_the_seat_to_the_must_move_player(sup_client, room, session, now):
    main, fed, reserve = _floor(room, session, now)
    mover = "F2-1 Player"
    assert sup_client.get(f"/desk/tables/{main.id}/seats/1/next").json == {
        "name": f"{mover} (must move from table 2)"}
    form = {"table_id": str(main.id), "seat_no": "1", "entry_id": str(reserve.id), "reason": ""}
    resp = sup_client.post("/desk/offers", data=form, headers=JSON)
    assert resp.status_code == 409 and resp.json["rule"] == "R13"
    assert resp.json["error"] == (f"{mover} (must move from table 2) is next for this seat; out "
                                  "of list order needs a reason")
    resp = sup_client.post("/desk/offers", data={**form, "entry_id": ""}, headers=JSON)
    assert resp.status_code == 200, resp.text
    assert resp.json["done"].startswith(f"Offered seat 1 at table 1 to {mover}")
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.seat_no, offer.from_hold_id) == (main.id, 1, fed[0].id)
    # R17/R18: the dialog claims it as a move, with the seat's last known stack filled in
    page = sup_client.get("/desk").text
    assert f'data-hold-id="{offer.id}"' in page
    assert 'data-offer="move" data-stack="100"' in page


def test_r14_nobody_next_is_said_and_the_lists_entry_is_refused_by_name(sup_client, room, session,
                                                                         now):
    game = room.game(now)
    table = room.table(now, game, "1")
    other = room.game(now, small_blind=200, big_blind=500, min_buyin=20000, max_buyin=100000)
    ann = room.player(now, "Ann", "Other")
    entry = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=other.id)
    act(session, room.sup, now, update_policy, auto_offer=False)
    session.commit()
    assert sup_client.get(f"/desk/tables/{table.id}/seats/1/next").json == {}
    resp = sup_client.post("/desk/offers", data={"table_id": str(table.id), "seat_no": "1",
                                                 "entry_id": str(entry.id)}, headers=JSON)
    assert resp.status_code == 409 and resp.json["rule"] == "R14"
    assert resp.json["error"].startswith("Ann Other is not on the reserve list of table 1")


def test_r14_switching_automatic_offers_on_at_the_desk_offers_the_open_seats(sup_client, room,
                                                                            session, now):
    main, fed, _reserve = _floor(room, session, now)
    resp = sup_client.post("/desk/policy", data={"auto_offer": "on"})
    assert resp.status_code == 303
    offer = live_offer(session, fed[0].player_id)
    assert (offer.table_id, offer.seat_no) == (main.id, 1)
    assert [r.detail["seat_no"] for r in audits(session, "offer.made")] == [1]


def test_r20_a_called_seat_is_refused_naming_whom_it_is_held_for(sup_client, room, session, now):
    main, _fed, _reserve = _floor(room, session, now)
    sup_client.post("/desk/offers", data={"table_id": str(main.id), "seat_no": "1"})
    bob = room.player(now, "Bob", "Cox")
    session.commit()
    resp = sup_client.post("/desk/seat", headers=JSON, data={
        "table_id": str(main.id), "seat_no": "1", "player_id": f"Bob Cox #{bob.id}",
        "buy_in": "100", "reason": "walk-in"})
    assert resp.status_code == 409 and resp.json["rule"] == "R20"
    # offered at 20:00 by the desk's clock, UTC the room's zone, for the room's 10 minutes
    assert resp.json["error"] == "seat 1 at table 1 is taken: held for F2-1 Player until 20:10"


def test_r14_r17_the_api_offers_to_the_next_without_an_entry(api, room, session, now):
    main, fed, _reserve = _floor(room, session, now)
    resp = api.post("/offers", json={"table_id": main.id, "seat_no": 1})
    assert resp.status_code == 201, resp.text
    assert resp.json["player_id"] == fed[0].player_id and resp.json["entry_id"] is None
    again = api.post("/offers", json={"table_id": main.id, "seat_no": 1})
    assert again.status_code == 409 and again.json["rule"] == "R20"
    assert again.json["error"] == "seat 1 at table 1 is taken: held for F2-1 Player until 20:10"
