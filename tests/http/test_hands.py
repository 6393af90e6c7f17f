"""Hands over HTTP (R33-R36, R40, R61): the dealer's screen and the JSON API, with refusals that
name the rule and change nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.hands.models import Hand
from roomops.hands.services import record_hand
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.conftest import login
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game
from tests.units import act


def _counts(session) -> tuple[int, int]:
    session.expire_all()
    return (session.scalar(select(func.count()).select_from(AuditEvent)),
            session.scalar(select(func.count()).select_from(Hand)))


def _table(room, session, now, **fields):
    _game, table = full_game(room, session, now, free=0, **fields)
    session.commit()
    return table


def test_api_first_hand_then_the_next_positions(client, room, session, now):
    table = _table(room, session, now, straddle_allowed=True, max_straddles=1)
    api = Api(client, token_for(room, session, "dealer"))
    view = api.get(f"/tables/{table.id}/dealer").json
    assert view["last"] is None and view["next"] is None and len(view["seats"]) == 9
    refused(api.post(f"/tables/{table.id}/hands", json={"hand_no": 1}), 409, "R33")
    first = api.post(f"/tables/{table.id}/hands", json={"hand_no": 1, "high_card_seat": 3})
    assert first.status_code == 201, first.text
    assert (first.json["button"], first.json["small_blind_seat"], first.json["big_blind_seat"]) == (3, 4, 5)
    nxt = api.get(f"/tables/{table.id}/dealer").json["next"]
    assert (nxt["hand_no"], nxt["button"], nxt["big_blind_seat"], nxt["straddle_order"][0]) == (2, 4, 6, 7)
    second = api.post(f"/tables/{table.id}/hands", json={
        "hand_no": 2, "straddles": [{"seat_no": 7, "amount": 400}]}).json
    assert second["straddles"] == [{"seat_no": 7, "amount": 400}]


def test_api_refusals_name_the_rule_and_change_nothing(client, room, session, now):
    table = _table(room, session, now)
    api = Api(client, token_for(room, session, "dealer"))
    api.post(f"/tables/{table.id}/hands", json={"hand_no": 1, "high_card_seat": 1})
    before = _counts(session)
    refused(api.post(f"/tables/{table.id}/hands", json={"hand_no": 1}), 409, "R33")  # a second tap
    refused(api.post(f"/tables/{table.id}/hands", json={
        "hand_no": 2, "straddles": [{"seat_no": 4, "amount": 400}]}), 409, "R40")  # not allowed here
    refused(api.post(f"/tables/{table.id}/hands", json={"hand_no": 2, "posting": [10]}), 422, "R4")
    refused(api.post(f"/tables/{table.id}/hands", json={"hand_no": 0}), 422, "R33")
    refused(api.post("/tables/999999/hands", json={"hand_no": 2}), 404, None)
    cashier = Api(client, token_for(room, session, "cashier"))
    refused(cashier.post(f"/tables/{table.id}/hands", json={"hand_no": 2}), 403, "R61")
    assert _counts(session) == before


def test_dealer_screen_deals_hands_with_one_tap(client, room, session, now):
    table = _table(room, session, now)
    dealer = login(client, "main-dealer")
    page = dealer.get(f"/dealer/tables/{table.id}").text
    assert "Deal the first hand" in page and 'name="high_card_seat"' in page
    resp = dealer.post(f"/dealer/tables/{table.id}/hands", data={"hand_no": "1", "high_card_seat": "2"},
                       follow_redirects=True)
    assert "Hand 1: button 2, small blind 3, big blind 4." in resp.text
    assert "Deal hand 2" in resp.text and 'data-pos="button">Button <b>3</b>' in resp.text
    again = dealer.post(f"/dealer/tables/{table.id}/hands", data={"hand_no": "1"})
    assert again.status_code == 409 and "R33" in again.text
    assert "Dealer" in dealer.get("/dealer").text


def test_dealer_screen_refuses_a_cashier(client, room, session, now):
    table = _table(room, session, now)
    cashier = login(client, "main-cashier")
    # R61: the dealer's tables are not the cashier's (separation of duties)
    assert cashier.get(f"/dealer/tables/{table.id}").status_code == 403
    resp = cashier.post(f"/dealer/tables/{table.id}/hands", data={"hand_no": "1", "high_card_seat": "1"})
    assert resp.status_code == 403 and "R61" in resp.text


def test_desk_shows_the_missed_blind_buttons(client, room, session, now):
    from roomops.absences import services as absences
    from roomops.hands.services import record_hand
    from roomops.holds.models import SeatHold

    table = _table(room, session, now)
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id, SeatHold.seat_no == 5))
    dealer = room.actor("dealer")
    act(session, dealer, now, record_hand, table.id, hand_no=1, high_card_seat=1)  # BB 3
    act(session, room.sup, now, absences.mark_away, hold.id)
    for n in (2, 3, 4):  # BB 4, then past seat 5 to 6: a missed big blind, then the small blind
        act(session, dealer, now, record_hand, table.id, hand_no=n)
    session.commit()
    desk = login(client, "main-supervisor").get("/desk").text
    assert '<span class="tag blind">missed BB</span>' in desk
    assert '<span class="tag blind">owes SB dead + BB live</span>' in desk  # R35


def test_api_and_desk_seat_change(client, room, session, now):
    from roomops.holds.models import SeatHold

    _game, table = full_game(room, session, now, free=2)
    session.commit()
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id, SeatHold.seat_no == 1))
    api = Api(client, token_for(room, session, "supervisor"))
    # R36/R18: the seat change asks for the counted stack, which the new seat carries
    refused(api.post(f"/seats/{hold.id}/seat-change", json={"seat_no": 8}), 422, "R36")
    refused(api.post(f"/seats/{hold.id}/seat-change", json={"seat_no": 8, "stack": 0}), 422, "R36")
    resp = api.post(f"/seats/{hold.id}/seat-change", json={"seat_no": 8, "stack": 15000})
    assert resp.status_code == 201, resp.text
    assert (resp.json["seat_no"], resp.json["table_id"], resp.json["buy_in"]) == (8, table.id, 15000)
    refused(api.post(f"/seats/{resp.json['id']}/seat-change", json={"seat_no": 0, "stack": 1}),
            422, "R4")
    desk = login(client, "main-supervisor")
    assert desk.post(f"/desk/seats/{resp.json['id']}/seat-change",
                     data={"seat_no": "9"}).status_code == 422  # the desk asks for the stack too
    page = desk.post(f"/desk/seats/{resp.json['id']}/seat-change",
                     data={"seat_no": "9", "stack": "160.00"}, follow_redirects=True)
    assert "S1-1 Player changed to seat 9 at table 1" in page.text
    assert session.scalar(select(SeatHold.buy_in).where(SeatHold.table_id == table.id,
                                                        SeatHold.seat_no == 9)) == 16000


def _behind_the_button(room, session, now, allowed):
    """Issue 40, R35: seats 1-8 taken, hand 1 from the high card in 7 (button 7, SB 8, BB 1), a
    new player in seat 9: behind the next hand's button (8)."""
    act(session, room.sup, now, update_policy, post_behind_button=allowed)
    game, table = full_game(room, session, now, free=1)
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=7)
    act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9,
        player_id=room.player(now, "Nev").id, buy_in=game.min_buyin)
    session.commit()
    return table


POST_BOX = '<input type="checkbox" name="posting" value="9"> posts live big blind to play now'


def test_r35_the_dealer_screen_offers_the_post_behind_the_button_where_the_room_allows_it(
        client, room, session, now):
    table = _behind_the_button(room, session, now, True)
    dealer = login(client, "main-dealer")
    page = dealer.get(f"/dealer/tables/{table.id}").text
    assert POST_BOX in page and "behind the button: posts live big blind to play now" in page
    api = Api(client, token_for(room, session, "dealer"))
    (why,) = [w for w in api.get(f"/tables/{table.id}/dealer").json["next"]["waiting"]
              if w["seat_no"] == 9]
    assert (why["rule"], why["posts"]) == ("R35", ["live_big_blind"])
    resp = dealer.post(f"/dealer/tables/{table.id}/hands", data={"hand_no": "2", "posting": "9"})
    assert resp.status_code == 303, resp.text
    assert session.scalar(select(Hand).where(Hand.hand_no == 2)).dealt_in[0] == 9


def test_r35_by_default_the_dealer_screen_has_no_post_behind_the_button(client, room, session, now):
    table = _behind_the_button(room, session, now, False)
    page = login(client, "main-dealer").get(f"/dealer/tables/{table.id}").text
    assert POST_BOX not in page and "between the big blind and the button" in page
