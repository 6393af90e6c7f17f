"""Security logging (ASVS V7; docs/security.md, "Security logging"): log-ins, failed log-ins,
log-outs, refusals, CSRF failures and bad API tokens as JSON lines, each with who and from where;
nothing secret ever in them."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import select

from roomops.config import Settings
from roomops.factory import create_app
from roomops.rooms.models import Staff
from roomops.rooms.staff import hash_token
from roomops.security_log import configure
from tests.conftest import login
from tests.factories import PASSWORD
from tests.http.test_api import Api, token_for

WRONG = "Wrong-horse-battery-77"
BAD_TOKEN = "not-a-token-but-logged-nowhere-either"


def test_v7_no_password_token_cookie_or_hash_is_ever_logged(client, room, session, security_log):
    token = token_for(room, session, "supervisor")
    client.post("/login", data={"username": "main-supervisor", "password": WRONG})
    login(client, "main-supervisor")
    cookie = client.get_cookie("roomops").value
    assert Api(client, token).get("/room").status_code == 200
    assert Api(client.application.test_client(), BAD_TOKEN).get("/room").status_code == 401
    client.post("/logout")
    secrets = [PASSWORD, WRONG, token, BAD_TOKEN, cookie, hash_token(token), hash_token(BAD_TOKEN),
               *session.scalars(select(Staff.password_hash))]
    text = security_log.text
    assert [s for s in secrets if s in text] == []
    assert {"login.failed", "login.ok", "logout", "api_token.refused", "access.refused"} <= {
        e["event"] for e in security_log.events}


def test_v7_every_line_is_one_json_object_with_time_level_and_event(client, room, session,
                                                                    security_log):
    session.commit()
    login(client, "main-supervisor")
    client.post("/logout")
    for line in security_log.text.splitlines():
        event = json.loads(line)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00", event["at"])
        assert event["level"] in ("INFO", "WARNING") and event["event"]
    assert [e["event"] for e in security_log.events] == ["login.ok", "logout"]
    [out] = security_log.named("logout")
    assert out["staff_id"] == room.staff["supervisor"].id and out["room_id"] == room.room.id


def test_v7_a_refusal_names_the_staff_member_room_route_method_and_address(client, room, session,
                                                                           security_log):
    session.commit()
    dealer = login(client, "main-dealer")
    assert dealer.get("/audit", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 403
    [refused] = security_log.named("access.refused")
    assert {k: refused[k] for k in ("level", "status", "rule", "staff_id", "room_id", "endpoint",
                                    "path", "method", "address")} == {
        "level": "WARNING", "status": 403, "rule": "R61", "staff_id": room.staff["dealer"].id,
        "room_id": room.room.id, "endpoint": "audit.index", "path": "/audit", "method": "GET",
        "address": "10.1.2.3"}


def test_v7_a_request_without_a_log_in_is_logged_as_refused(client, security_log):
    assert client.get("/desk").status_code == 302
    assert Api(client, None).get("/room").status_code == 401
    refused = security_log.named("access.refused")
    assert [(e["status"], e["path"]) for e in refused] == [(401, "/desk"), (401, "/api/v1/room")]
    assert all("staff_id" not in e for e in refused)


def test_v7_a_csrf_failure_is_logged(db_url, engine, sessions, clock, room, session, security_log):
    session.commit()
    app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="csrf",
                              testing=True), clock=clock, engine=engine)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    client = app.test_client()
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/login").text)[1]
    client.post("/login", data={"username": "main-supervisor", "password": PASSWORD,
                                "csrf_token": token})
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/desk").text)[1]
    assert client.post("/desk/players", data={"first_name": "Eve",
                                              "csrf_token": "forged"}).status_code == 400
    [failed] = security_log.named("csrf.failed")
    assert (failed["level"], failed["staff_id"], failed["endpoint"]) == (
        "WARNING", room.staff["supervisor"].id, "desk.add_player")
    assert token not in security_log.text


@pytest.fixture()
def log_file(tmp_path):
    yield tmp_path / "security.log"
    configure("stderr")  # as every app the other tests make


def test_v7_the_lines_can_go_to_a_file(db_url, engine, sessions, clock, room, session, log_file):
    """ROOMOPS_SECURITY_LOG: a file's path instead of stderr."""
    session.commit()
    app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                              testing=True, security_log=str(log_file)),
                     clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    app.test_client().post("/login", data={"username": "nobody", "password": WRONG})
    [line] = log_file.read_text().splitlines()
    assert json.loads(line)["event"] == "login.failed" and WRONG not in line


def test_v7_role_and_password_changes_are_security_events(client, room, session, security_log):
    """ASVS V7: who changed whose roles or password, once committed; never the password."""
    session.commit()
    admin = login(client, "main-admin")
    dealer = room.staff["dealer"]
    admin.post("/staff/roles", data={"username": "main-dealer", "role": ["dealer", "cashier"]})
    admin.post(f"/staff/{dealer.id}/password", data={"password": "a much longer secret"})
    admin.post(f"/staff/{dealer.id}/active", data={"active": "0", "reason": "left"})
    admin.post("/staff", data={"username": "x", "password": "short", "role": "dealer"})  # refused
    changes = [e for e in security_log.events if str(e["event"]).startswith("staff.")]
    assert [(e["event"], e["staff_id"], e["by"], e["room_id"]) for e in changes] == [
        (action, dealer.id, "main-admin", room.room.id)
        for action in ("staff.roles_changed", "staff.password_reset", "staff.deactivated")]
    assert changes[0]["after"] == ["cashier", "dealer"]
    assert "a much longer secret" not in security_log.text


def test_v7_3_1_a_typed_line_break_stays_inside_one_json_line(client, security_log):
    """ASVS V7.3.1: what an attacker types cannot forge a log line."""
    client.post("/login", data={"username": 'x\n{"event": "login.ok"}', "password": "wrong"})
    [line] = security_log.text.splitlines()
    assert json.loads(line)["event"] == "login.failed"
