"""The dealers' screens over HTTP (R62-R64, R60, R61): the coordinator's roster at /dealers (each
dealer's state in words and on the room's clock, tables with no dealer, the next pushes, the plan
as a timeline, check in / check out and naming a table's next dealer, with the refusals in plain
words) and the dealer's own tablet (their state and next steps, checking themselves in and out,
whose down a table is, and a table with no dealer saying so where the hand is dealt)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.actors import console
from roomops.audit.models import AuditEvent
from roomops.dealers import roster
from roomops.rooms.staff import create_staff
from tests.conftest import login
from tests.factories import PASSWORD
from tests.services.helpers import full_game
from tests.units import act

MIN = timedelta(minutes=1)


@pytest.fixture()
def floor(room, session, now):
    """The room (New York time: 20:00 UTC is 15:00) running its rotation with tables 1 and 2 open,
    dealers Amy, Bo and Cy, and a coordinator; nobody checked in."""
    room.room.timezone = "America/New_York"
    room.room.dealer_rotation = True
    game, t1 = full_game(room, session, now)
    t2 = room.table(now, game, "2")
    dealers = [act(session, console(room.room.id), now, create_staff, username=name.lower(),
                   password=PASSWORD, roles=("dealer",), display_name=name) for name in ("Amy", "Bo", "Cy")]
    act(session, console(room.room.id), now, create_staff, username="coord", password=PASSWORD,
        roles=("coordinator",), display_name="Cora")
    session.commit()
    return t1, t2, dealers


def _row(page, dealer_id):
    start = page.index(f'data-dealer="{dealer_id}"')
    return page[start:page.index("</tr>", start)]


def _post(client, path, **form):
    return client.post(path, data=form, follow_redirects=True)


def test_r62_the_roster_shows_every_dealer_and_the_tables_with_none(client, floor, room):
    _t1, _t2, (amy, bo, cy) = floor
    page = login(client, "coord").get("/dealers").text
    for dealer in (amy, bo, cy, room.staff["dealer"]):
        assert "Checked out" in _row(page, dealer.id) and "Check in" in _row(page, dealer.id)
    assert "Table 1: no dealer" in page and "Table 2: no dealer" in page
    assert "Roster" in page and "No push planned in the next two hours: no dealer is checked in" in page
    assert "R6" not in page  # words for people: no rule ids on this screen


def test_r62_r64_check_in_sends_dealers_to_the_tables_and_the_plan_shows(client, floor):
    _t1, _t2, (amy, bo, cy) = floor
    login(client, "coord")
    resp = _post(client, f"/dealers/{amy.id}/check-in")
    assert resp.status_code == 200 and "Amy checked in and deals at table 1 now" in resp.text
    _post(client, f"/dealers/{bo.id}/check-in")
    page = _post(client, f"/dealers/{cy.id}/check-in").text
    assert "Cy checked in." in page
    assert "Dealing at table 1 since 15:00, push at 15:30" in _row(page, amy.id)
    assert "Dealing at table 2 since 15:00, push at 15:30" in _row(page, bo.id)
    assert "Waiting since 15:00" in _row(page, cy.id) and "Table 1 at 15:30 until 16:00" in _row(page, cy.id)
    assert "Table 2 at 15:30 until 16:00" in _row(page, amy.id)  # R64: the next step after the down
    assert "Cy deals on at table 2 until 17:00: nobody else is free" in page  # not "Cy pushes Cy"
    assert "no dealer" not in page.split('id="plan"')[0]
    assert "<b>15:30</b>\n      Cy pushes Amy at table 1" in page
    assert 'class="down" title="Amy, 15:00\u201315:30">Amy</td>' in page  # the timeline's blocks
    assert '<th colspan="6">15:00</th><th colspan="6">15:30</th>' in page


def test_r62_check_out_ends_the_down_and_a_second_click_is_refused(client, floor, session):
    _t1, _t2, (amy, bo, _cy) = floor
    login(client, "coord")
    _post(client, f"/dealers/{amy.id}/check-in")
    resp = _post(client, f"/dealers/{amy.id}/check-out")
    assert "Amy checked out." in resp.text and "Table 1: no dealer" in resp.text
    again = client.post(f"/dealers/{amy.id}/check-out")
    assert again.status_code == 409 and "Amy is not checked in here" in again.text
    twice = (client.post(f"/dealers/{bo.id}/check-in"), client.post(f"/dealers/{bo.id}/check-in"))
    assert twice[1].status_code == 409 and "Bo is already checked in" in twice[1].text


def test_r62_only_dealers_of_the_room_are_checked_in(client, floor, room):
    login(client, "coord")
    assert client.post("/dealers/999999/check-in").status_code == 404
    resp = client.post(f"/dealers/{room.staff['cashier'].id}/check-in")
    assert resp.status_code == 404 and "no such dealer works in this room" in resp.text


def test_r64_r60_the_coordinator_names_a_tables_next_dealer_with_a_reason(client, floor, session):
    _t1, t2, (amy, bo, cy) = floor
    login(client, "coord")
    for dealer in (amy, bo, cy):
        client.post(f"/dealers/{dealer.id}/check-in")
    path = f"/dealers/tables/{t2.id}/next"
    blank = client.post(path, data={"dealer_id": str(cy.id), "reason": "  "})
    assert blank.status_code == 422 and "say why in a few words" in blank.text
    unpicked = client.post(path, data={"dealer_id": "", "reason": "swap"})
    assert unpicked.status_code == 422 and "pick the dealer who takes the table next" in unpicked.text
    resp = _post(client, path, dealer_id=str(cy.id), reason="Cy asked for the big game")
    assert "Cy takes table 2 at its next push." in resp.text
    assert "Named: Cy (Cy asked for the big game)" in resp.text
    assert "<b>15:30</b>\n      Cy pushes Bo at table 2" in resp.text
    session.expire_all()
    assert session.scalar(select(AuditEvent.id).where(AuditEvent.action == "dealer.override")) is not None


def test_r64_an_override_names_a_checked_in_dealer_at_an_open_table(client, floor, room):
    t1, _t2, (amy, _bo, _cy) = floor
    login(client, "coord")
    resp = client.post(f"/dealers/tables/{t1.id}/next", data={"dealer_id": str(amy.id), "reason": "x"})
    assert resp.status_code == 409 and "Amy is not checked in" in resp.text
    assert client.post("/dealers/tables/999999/next", data={"dealer_id": str(amy.id),
                                                            "reason": "x"}).status_code == 404


def test_r61_a_cashier_and_a_dealer_are_refused_the_roster(client, floor):
    t1, _t2, (_amy, bo, _cy) = floor
    for username in ("main-cashier", "amy"):
        login(client, username)
        assert client.get("/dealers").status_code == 403
        assert client.post(f"/dealers/{bo.id}/check-in").status_code == 403
        assert client.post(f"/dealers/tables/{t1.id}/next", data={"dealer_id": str(bo.id),
                                                                  "reason": "x"}).status_code == 403
        assert "Roster" not in client.get("/account").text
        client.post("/logout")


def test_the_roster_says_when_the_rotation_is_kept_on_paper(client, floor, room, session):
    room.room.dealer_rotation = False
    session.commit()
    page = login(client, "coord").get("/dealers").text
    assert "keeps its dealers' rotation on paper" in page and "A supervisor turns it on" in page
    assert 'id="plan"' not in page
    client.post("/logout")
    page = login(client, "main-supervisor").get("/dealers").text
    assert 'href="/desk/policy"' in page.split('id="rotation-off"')[1]


def test_r61_the_coordinator_logs_in_to_the_roster(client, floor):
    resp = client.post("/login", data={"username": "coord", "password": PASSWORD})
    assert resp.headers["Location"].endswith("/dealers")


def test_r62_r64_a_dealer_checks_in_and_out_on_their_tablet_and_sees_their_next_steps(
        client, floor, room, session, now):
    _t1, _t2, (_amy, bo, _cy) = floor
    act(session, room.sup, now, roster.check_in, bo.id)
    session.commit()
    login(client, "amy")
    page = client.get("/dealer").text
    assert "Checked out" in page.split('id="my-shift"')[1] and ">Check in</button>" in page
    page = _post(client, "/dealer/check-in").text
    assert "You are checked in." in page and "Your down at table 2 until 15:30" in page
    assert "Next: Table 1 at 15:30 until 16:00" in page  # R64: not two downs in a row at table 2
    page = _post(client, "/dealer/check-out").text
    assert "You are checked out." in page and "Checked out" in page.split('id="my-shift"')[1]
    assert client.post("/dealer/check-out").status_code == 409


def test_r62_a_supervisor_who_is_no_dealer_has_no_shift_on_the_tablet(client, floor):
    page = login(client, "main-supervisor").get("/dealer").text
    assert 'id="my-shift"' not in page
    assert client.post("/dealer/check-in").status_code == 404


def test_r63_a_table_with_no_dealer_says_so_where_the_hand_is_dealt(client, floor, room, session, now):
    t1, _t2, (amy, _bo, _cy) = floor
    login(client, "main-dealer")
    page = client.get(f"/dealer/tables/{t1.id}").text
    assert "No dealer is assigned to this table: hands cannot be recorded" in page
    assert 'id="deal" disabled' in page
    resp = client.post(f"/dealer/tables/{t1.id}/hands", data={"hand_no": "1", "high_card_seat": "1"})
    assert resp.status_code == 409 and "table 1 has no dealer assigned" in resp.text
    act(session, room.sup, now + 3 * MIN, roster.check_in, amy.id)
    session.commit()
    page = client.get(f"/dealer/tables/{t1.id}").text
    assert "Amy's down until 15:33 · " in page and ">33:00</span> left" in page
    assert 'id="deal" disabled' not in page


def test_r63_the_timeline_flags_where_a_table_will_have_no_dealer(client, floor):
    t1, t2, (amy, _bo, _cy) = floor
    page = _post(login(client, "coord"), f"/dealers/{amy.id}/check-in").text
    assert f'<li data-table="{t2.id}">Table 2: no dealer</li>' in page
    lane = page[page.index(f'<tr data-table="{t2.id}">'):]
    assert lane[:lane.index("</tr>")].count('class="gap"') >= 1
    assert f'<li data-table="{t1.id}">' not in page.split('id="uncovered"')[1].split("</ul>")[0]


def test_r64_the_rosters_live_part_answers_304_until_a_push_or_the_minute(client, floor, clock):
    _t1, _t2, (amy, _bo, _cy) = floor
    login(client, "coord")
    first = client.get("/dealers/live")
    assert first.status_code == 200 and "Checked out" in first.text and "<html" not in first.text
    etag = first.headers["ETag"]
    assert client.get("/dealers/live", headers={"If-None-Match": etag}).status_code == 304
    client.post(f"/dealers/{amy.id}/check-in")
    moved = client.get("/dealers/live", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and "Dealing at table 1" in moved.text
    clock.advance(minutes=1)
    again = client.get("/dealers/live", headers={"If-None-Match": moved.headers["ETag"]})
    assert again.status_code == 200  # the plan starts from now
