"""R61 staff management over HTTP: the Staff screen (admins), one's own account, rooms switched by
a person who works in several, and every change ending the person's log-ins at once."""

from __future__ import annotations

from flask import Flask
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.rooms.models import Staff
from roomops.rooms.roles import roles_in
from roomops.rooms.staff import issue_api_token, set_roles
from tests.conftest import login
from tests.factories import PASSWORD, Room_
from tests.units import act

NEW = "a much longer secret"


def _copy(app: Flask, client) -> object:
    """A second browser holding a copy of ``client``'s cookies."""
    other = app.test_client()
    for cookie in client._cookies.values():
        other.set_cookie(cookie.key, cookie.value)
    return other


def test_r61_an_admin_creates_staff_on_the_screen(client, room, session):
    session.commit()
    admin = login(client, "main-admin")
    assert 'tr class="" data-username="main-cashier"' in admin.get("/staff").text
    resp = admin.post("/staff", data={"username": "ann", "display_name": "Ann Lee",
                                      "password": NEW, "role": ["cashier", "dealer"]})
    assert resp.status_code == 303
    assert "Ann Lee can log in as ann" in admin.get(resp.location).text
    ann = session.scalar(select(Staff).where(Staff.username == "ann"))
    assert roles_in(session, ann.id, room.room.id) == {"cashier", "dealer"}


def test_r61_a_bad_new_log_in_is_a_message_on_the_page(client, room, session):
    session.commit()
    admin = login(client, "main-admin")
    resp = admin.post("/staff", data={"username": "ann", "password": "short", "role": "cashier"})
    assert resp.status_code == 422 and "12 characters" in resp.text and "R61" in resp.text
    resp = admin.post("/staff", data={"username": "ann", "password": NEW, "role": "boss"})
    assert resp.status_code == 422 and "no role called boss" in resp.text
    assert session.scalar(select(Staff.id).where(Staff.username == "ann")) is None


def test_r61_the_staff_screen_is_the_admins(client, room, session):
    session.commit()
    for key in ("supervisor", "cashier", "dealer"):
        user = login(app_client := client, f"main-{key}")
        resp = user.get("/staff")
        assert resp.status_code == 403 and "needs the staff right" in resp.text
        assert user.post(f"/staff/{room.staff['dealer'].id}/active",
                         data={"active": "0", "reason": "x"}).status_code == 403
        app_client.post("/logout")
    session.expire_all()
    assert room.staff["dealer"].active


def test_r61_roles_changed_end_the_persons_log_in_at_once(app, client, room, session):
    session.commit()
    dealer = login(app.test_client(), "main-dealer")
    assert dealer.get("/dealer").status_code == 200
    admin = login(client, "main-admin")
    resp = admin.post("/staff/roles", data={"username": "main-dealer", "role": ["dealer", "cashier"]})
    assert resp.status_code == 303
    assert dealer.get("/dealer").status_code == 302  # logged out: to the log-in page
    login(dealer, "main-dealer")
    assert dealer.get("/desk/cage").status_code == 200  # the new role holds
    row = session.scalar(select(AuditEvent).where(AuditEvent.action == "staff.roles_changed"))
    assert row.actor == "main-admin" and row.detail["after"] == ["cashier", "dealer"]


def test_r61_a_reset_password_and_a_deactivation_end_log_ins(app, client, room, session):
    session.commit()
    cashier = login(app.test_client(), "main-cashier")
    admin = login(client, "main-admin")
    staff_id = room.staff["cashier"].id
    assert admin.post(f"/staff/{staff_id}/password", data={"password": NEW}).status_code == 303
    assert cashier.get("/desk/cage").status_code == 302
    old = cashier.post("/login", data={"username": "main-cashier", "password": PASSWORD})
    assert old.status_code == 401
    assert cashier.post("/login", data={"username": "main-cashier", "password": NEW}).status_code == 302
    refused = admin.post(f"/staff/{staff_id}/active", data={"active": "0", "reason": " "})
    assert refused.status_code == 422 and "needs a reason" in refused.text
    assert admin.post(f"/staff/{staff_id}/active",
                      data={"active": "0", "reason": "left"}).status_code == 303
    assert cashier.get("/desk/cage").status_code == 302
    assert cashier.post("/login", data={"username": "main-cashier",
                                        "password": NEW}).status_code == 401


def test_r61_an_admin_of_another_room_cannot_touch_this_rooms_staff(client, room, session, now):
    Room_(session, now, "other")
    session.commit()
    other_admin = login(client, "other-admin")
    resp = other_admin.post(f"/staff/{room.staff['cashier'].id}/password", data={"password": NEW})
    assert resp.status_code == 404
    assert "main-cashier" not in other_admin.get("/staff").text


def test_r61_own_password_keeps_this_log_in_and_ends_the_others(app, client, room, session):
    session.commit()
    me = login(client, "main-cashier")
    copy = _copy(app, me)
    assert copy.get("/account").status_code == 200
    differ = me.post("/account/password", data={"current": PASSWORD, "new": NEW, "repeat": "x"})
    assert "differ" in me.get(differ.location).text
    wrong = me.post("/account/password", data={"current": "not it at all", "new": NEW,
                                               "repeat": NEW})
    assert wrong.status_code == 403 and "current password is wrong" in wrong.text
    done = me.post("/account/password", data={"current": PASSWORD, "new": NEW, "repeat": NEW})
    assert done.status_code == 303 and "Password changed" in me.get(done.location).text
    assert me.get("/desk/cage").status_code == 200
    assert copy.get("/account").status_code == 302


def test_r1_r61_one_person_in_two_rooms_switches_between_them(client, room, session, now):
    other = Room_(session, now, "other")
    act(session, other.actor("admin"), now, set_roles, "main-cashier", ["supervisor"])
    session.commit()
    me = login(client, "main-cashier")
    page = me.get("/desk/cage").text
    assert 'name="room"' in page and "Room other" in page
    assert me.get("/desk").status_code == 403  # a cashier in this room
    resp = me.post("/rooms", data={"room": str(other.room.id)})
    assert resp.status_code == 302 and resp.location == "/desk"
    assert "Room other" in me.get("/desk").text  # a supervisor there
    assert me.post("/rooms", data={"room": "99999"}).status_code == 404


def test_r61_an_api_token_acts_in_its_room(client, room, session, now):
    other = Room_(session, now, "other")
    act(session, other.actor("admin"), now, set_roles, "main-cashier", ["supervisor"])
    token = issue_api_token(session, room.staff["cashier"], other.room.id)
    session.commit()
    resp = client.get("/api/v1/room", headers={"Authorization": f"Bearer {token}"})
    assert resp.status_code == 200 and resp.json["slug"] == "other"


def test_r61_a_person_with_no_room_cannot_log_in(client, room, session, now):
    act(session, room.actor("admin"), now, set_roles, "main-dealer", [])
    session.commit()
    resp = client.post("/login", data={"username": "main-dealer", "password": PASSWORD})
    assert resp.status_code == 401 and "no room to work in" in resp.text
