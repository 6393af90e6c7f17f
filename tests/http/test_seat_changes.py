"""Seat changes over HTTP (R14, R36, R61): the seat-change list on the API and the desk, claims
at once or during a hand, swaps, the list on the dealer's screen, and refusals naming the rule."""

from __future__ import annotations

from sqlalchemy import select

from roomops.holds.models import SeatChangeRequest, SeatHold
from tests.conftest import login
from tests.factories import POLICY_TICKED
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game


def _table(room, session, now):
    """A full 9-seat table; its holds by seat number."""
    _game, table = full_game(room, session, now, free=0)
    session.commit()
    holds = {h.seat_no: h.id for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.ended_at.is_(None)))}
    return table, holds


def _offer_of(session, hold_id):
    session.expire_all()
    return session.scalar(select(SeatHold).where(SeatHold.from_hold_id == hold_id,
                                                 SeatHold.kind == "offer",
                                                 SeatHold.ended_at.is_(None)))


def test_api_ask_offer_claim_and_withdraw(client, room, session, now):
    """R36: asking puts the player on the list; an opened seat is called to the oldest request
    with the seat-change timer; the claim carries the counted stack; a request is taken back."""
    table, holds = _table(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    first = api.post(f"/seats/{holds[7]}/seat-change-request")
    assert first.status_code == 201, first.text
    assert (first.json["table_id"], first.json["hold_id"], first.json["outcome"]) == (
        table.id, holds[7], None)
    refused(api.post(f"/seats/{holds[7]}/seat-change-request"), 409, "R36")
    second = api.post(f"/seats/{holds[2]}/seat-change-request").json
    assert api.post(f"/seats/{holds[4]}/leave", json={"leave_amount": 5000}).status_code == 200
    offer = _offer_of(session, holds[7])
    assert (offer.seat_no, offer.seat_change_id) == (4, first.json["id"])
    refused(api.post(f"/offers/{offer.id}/claim-seat-change", json={}), 422, "R18")
    refused(api.post(f"/offers/{offer.id}/claim-move", json={"stack": 100}), 409, "R36")
    moved = api.post(f"/offers/{offer.id}/claim-seat-change", json={"stack": 17500})
    assert moved.status_code == 201, moved.text
    assert (moved.json["seat_no"], moved.json["buy_in"]) == (4, 17500)
    assert _offer_of(session, holds[2]).seat_no == 7  # the old seat, to the next request
    back = api.post(f"/seat-change-requests/{second['id']}/withdraw")
    assert back.status_code == 200 and back.json["outcome"] == "withdrawn"
    refused(api.post(f"/seat-change-requests/{second['id']}/withdraw"), 409, "R36")
    refused(api.post("/seat-change-requests/99999/withdraw"), 404, None)


def test_api_swap_and_a_claim_during_a_hand(client, room, session, now):
    """R36: a swap answers both new seats; a claim during a hand holds the seat until the dealer
    records the hand, and the move is made then."""
    table, holds = _table(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    swapped = api.post(f"/seats/{holds[1]}/swap", json={"other_hold_id": holds[9], "stack": 12000,
                                                         "other_stack": 8000})
    assert swapped.status_code == 201, swapped.text
    assert [(h["seat_no"], h["buy_in"]) for h in swapped.json["holds"]] == [(9, 12000), (1, 8000)]
    refused(api.post(f"/seats/{holds[2]}/swap", json={"other_hold_id": holds[2], "stack": 1,
                                                      "other_stack": 1}), 422, "R36")
    dealer = Api(client, token_for(room, session, "dealer"))
    assert dealer.post(f"/tables/{table.id}/hands",
                       json={"hand_no": 1, "high_card_seat": 3}).status_code == 201
    api.post(f"/seats/{holds[6]}/seat-change-request")
    api.post(f"/seats/{holds[5]}/leave", json={"leave_amount": 5000})
    offer = _offer_of(session, holds[6])
    held = api.post(f"/offers/{offer.id}/claim-seat-change",
                    json={"during_hand": True})
    assert held.status_code == 201 and held.json["kind"] == "offer" and held.json["reserved_at"]
    assert dealer.post(f"/tables/{table.id}/hands", json={"hand_no": 2}).status_code == 201
    session.expire_all()
    assert session.scalar(select(SeatChangeRequest.outcome)) == "moved"
    assert session.scalar(select(SeatHold.seat_no).where(
        SeatHold.from_hold_id == holds[6], SeatHold.kind == "seated")) == 5


def test_desk_and_dealer_show_the_list_and_the_desk_forms_work(client, room, session, now):
    """R36: the desk puts a player on the list, shows it on the table card with a button to take
    it back, and claims a seat change; the dealer's screen shows the list."""
    table, holds = _table(room, session, now)
    desk = login(client, "main-supervisor")
    page = desk.post(f"/desk/seats/{holds[3]}/seat-change-request", follow_redirects=True)
    assert "is on the seat-change list of the table (R36)" in page.text
    assert 'data-list="seat-change"' in page.text and "Take back" in page.text
    assert desk.post(f"/desk/seats/{holds[3]}/seat-change-request").status_code == 409
    dealer = login(client, "main-dealer")
    screen = dealer.get(f"/dealer/tables/{table.id}").text
    assert "Seat changes" in screen and "seat 3 · S1-3 P" in screen
    desk = login(client, "main-supervisor")
    desk.post(f"/desk/seats/{holds[8]}/leave", data={"leave_amount": "50.00"})
    offer = _offer_of(session, holds[3])
    page = desk.post(f"/desk/offers/{offer.id}/claim-seat-change", data={"stack": "120.00"},
                     follow_redirects=True)
    assert "changed to seat 8 at table 1" in page.text
    page = desk.post(f"/desk/seats/{holds[1]}/swap", data={
        "other_hold_id": str(holds[2]), "stack": "100.00", "other_stack": "100.00"},
        follow_redirects=True)
    assert "Swapped S1-1 Player to seat 2 at table 1" in page.text


def test_policy_screen_and_api_carry_the_seat_change_claim_time(client, room, session, now):
    """R36: the seat-change claim time is a room policy (1-30 minutes, default 2), on the policy
    screen and the API."""
    api = Api(client, token_for(room, session, "supervisor"))
    assert api.get("/policy").json["seat_change_claim_minutes"] == 2
    refused(api.patch("/policy", json={"seat_change_claim_minutes": 31}), 422, "R3")
    desk = login(client, "main-supervisor")
    assert 'name="seat_change_claim_minutes" inputmode="numeric" value="2"' in desk.get(
        "/desk/policy").text
    page = desk.post("/desk/policy", data={"seat_change_claim_minutes": "4", **POLICY_TICKED},
                     follow_redirects=True)
    assert "seat change claim minutes (R3, audited)" in page.text
    assert api.get("/policy").json["seat_change_claim_minutes"] == 4


def test_a_seat_held_for_the_hands_end_reads_as_held_not_expired(client, room, session, now):
    """R36: a seat change claimed during a hand has no claim timer: the desk, the API and the
    public board show the seat as held for the player, long after the call's time, until the
    dealer records the hand; a stack typed during the hand is refused (the chips are in play)."""
    table, holds = _table(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    api.post(f"/seats/{holds[6]}/seat-change-request")
    api.post(f"/seats/{holds[5]}/leave", json={"leave_amount": 5000})
    offer = _offer_of(session, holds[6])
    assert "in play" in refused(api.post(f"/offers/{offer.id}/claim-seat-change",
                                         json={"stack": 9000, "during_hand": True}), 422, "R36")["error"]
    api.post(f"/offers/{offer.id}/claim-seat-change", json={"during_hand": True})
    client.application.extensions["roomops"].clock.advance(seconds=600)
    seat = next(s for g in api.get("/room").json["games"] for t in g["tables"] for s in t["seats"]
                if t["id"] == table.id and s["seat_no"] == 5)
    assert (seat["state"], seat["hold_id"]) == ("held", offer.id)
    assert "seat change after the hand" in login(client, "main-supervisor").get("/desk").text
    board = client.get("/board/main").text
    assert "Seat 5 held" in board and "seat change after this hand" in board
    assert "re-calling" not in board and 'data-seat="5"' in board
