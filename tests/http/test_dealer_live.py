"""The dealer's screen and the cage as live screens over HTTP (R20, R22, R29, R31, R61): the
dealer's screen lists its table's open slips (names as the room shows them), played-over seats
with the owner's box and called seats with the claim time left; the dealer confirms a delivery
there (never another table's, never a cashier); the screen's and the cage's fragments answer 304
under their ETag until something changes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.holds.models import SeatHold
from roomops.ledger import transit
from roomops.ledger.models import TransitSlip
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from tests.conftest import login
from tests.http.test_api import refused
from tests.services.helpers import full_game
from tests.services.ledger_helpers import seated_holds
from tests.units import act

HOUR = timedelta(hours=1)


@pytest.fixture()
def floor(room, session, now, clock):
    """Table 1 full but seat 9 (called: Cleo Caller), seat 3's owner on a break played over by Ada
    Over; table 2 with seated players; a slip in transit to seat 1 of each table, and one requested
    at table 1. The room shows first names and initials (R61)."""
    room.room.display_name = "first_initial"
    game, table = full_game(room, session, now)
    hold3 = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id,
                                                   SeatHold.seat_no == 3)).one()
    at = now + HOUR
    act(session, room.sup, at, absences.grant_break, hold3.id, 23450)
    for first, last in (("Cleo", "Caller"), ("Ada", "Over")):  # Cleo is called to seat 9 at once
        player = room.player(at, first, last)
        act(session, room.sup, at, lists.join, player_id=player.id, game_id=game.id)
    act(session, room.sup, at, playovers.start_playover, hold3.id, buy_in=10000)
    _game, table2, holds2 = seated_holds(room, session, at, name="2")
    hold1 = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id,
                                                   SeatHold.seat_no == 1)).one()
    cashier = room.actor("cashier")
    slips = [act(session, room.sup, at, transit.dispatch, act(session, cashier, at, transit.request, h.id,
                                                              20000).id)
             for h in (hold1, holds2[0])]
    waiting = act(session, cashier, at, transit.request, hold1.id, 5000)
    session.commit()
    clock.advance(hours=1, minutes=4)
    return table, table2, slips, waiting


def _row(page, number):
    """The slip's row of the dealer's screen."""
    start = page.index(f'data-slip="{number}"')
    return page[start:page.index("</tr>", start)]


def test_r29_r31_r20_the_dealers_screen_shows_slips_playovers_and_called_seats(client, floor):
    table, _table2, (slip, other), waiting = floor
    page = login(client, "main-dealer").get(f"/dealer/tables/{table.id}").text
    row = _row(page, slip.number)
    assert "<td>1</td>" in row and "S1-1 P." in row and "£200.00" in row and "in transit" in row
    assert "Confirm delivery" in row
    row = _row(page, waiting.number)
    assert "requested" in row and "£50.00" in row
    assert "Confirm delivery" not in row  # not on its way yet
    assert f'data-slip="{other.number}"' not in page  # another table's slip
    played = page[page.index('data-played-seat="3"'):]
    assert "Ada O." in played and "£100.00" in played and 'data-box="23450"' in played
    assert "played over by Ada O." in page  # on the seat too
    called = page[page.index('data-called-seat="9"'):]
    assert "Cleo C." in called and "6:00" in called  # 10 minutes to claim, 4 gone (R22)
    assert "Over" not in page and "Caller" not in page  # the room's naming (R61)


def test_r31_r61_the_dealer_confirms_a_delivery_at_their_table_only(client, session, floor):
    table, table2, (slip, other), _waiting = floor
    dealer = login(client, "main-dealer")
    elsewhere = dealer.post(f"/dealer/tables/{table.id}/transits/{other.id}/deliver")
    assert elsewhere.status_code == 403 and "R61" in elsewhere.text
    done = dealer.post(f"/dealer/tables/{table.id}/transits/{slip.id}/deliver")
    assert done.status_code == 303 and done.location.endswith(f"/dealer/tables/{table.id}")
    assert f"Slip {slip.number}: delivered." in dealer.get(done.location).text
    session.expire_all()
    assert [s.state for s in session.scalars(select(TransitSlip).order_by(TransitSlip.number))] == [
        "delivered", "in_transit", "requested"]
    assert table2.id


def test_r61_a_cashier_confirms_at_the_cage_not_on_the_dealers_screen(client, session, floor):
    table, _table2, (slip, _other), _waiting = floor
    cashier = login(client, "main-cashier")
    assert cashier.post(f"/dealer/tables/{table.id}/transits/{slip.id}/deliver").status_code == 403
    assert cashier.post(f"/desk/cage/transits/{slip.id}/deliver").status_code == 303
    session.expire_all()
    assert session.get(TransitSlip, slip.id).state == "delivered"


def test_r31_the_authorisers_screen_offers_no_confirm_button(client, floor):
    table, _table2, (slip, _other), _waiting = floor
    page = login(client, "main-supervisor").get(f"/dealer/tables/{table.id}").text
    assert "Confirm delivery" not in _row(page, slip.number)


@pytest.mark.parametrize("who, path", [("main-dealer", "/dealer/tables/{table}/live"),
                                       ("main-cashier", "/desk/cage/slips")])
def test_the_live_fragments_answer_304_until_something_changes(client, room, session, floor, who, path):
    table, _table2, (slip, _other), _waiting = floor
    url = path.format(table=table.id)
    web = login(client, who)
    first = web.get(url)
    assert first.status_code == 200 and first.headers["X-Server-Now"] and first.headers["ETag"]
    assert f'data-slip="{slip.number}"' in first.text and "<html" not in first.text
    tag = first.headers["ETag"]
    again = web.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["ETag"] == tag
    act(session, room.actor("admin"), slip.authorised_at, transit.deliver, slip.id)
    session.commit()
    changed = web.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    assert f'data-slip="{slip.number}"' not in changed.text


def test_r31_r61_the_api_confirms_a_delivery_at_the_dealers_table(dealer, cashier, session, floor):
    table, _table2, (slip, other), _waiting = floor
    refused(dealer.post(f"/tables/{table.id}/transits/{other.id}/deliver"), 403, "R61")
    refused(cashier.post(f"/tables/{table.id}/transits/{slip.id}/deliver"), 403, "R61")
    refused(dealer.post(f"/transits/{slip.id}/deliver"), 403, "R61")  # the cage's route: cash right
    done = dealer.post(f"/tables/{table.id}/transits/{slip.id}/deliver")
    assert done.status_code == 200 and done.json["state"] == "delivered"
