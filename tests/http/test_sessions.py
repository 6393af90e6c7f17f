"""Sessions end on the server (R61; docs/security.md, "Sessions"): log-out makes every copy of the
cookie useless, as does deactivation; idle timeout and lifetime by the app's clock; the cookie is
`__Host-` and Secure over HTTPS; a log-in starts a new session (no fixation)."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from roomops.audit.models import AuditEvent
from roomops.config import Settings
from roomops.factory import create_app
from roomops.rooms.models import Staff
from tests.conftest import login
from tests.factories import PASSWORD
from tests.http.test_api import Api, token_for


def _copy(app, client):
    """A second browser holding a copy of the client's cookie."""
    other = app.test_client()
    other.set_cookie("roomops", client.get_cookie("roomops").value)
    return other


def _out(resp):
    return resp.status_code == 302 and "/login" in resp.headers["Location"]


def test_log_out_kills_every_copy_of_the_cookie_and_is_audited(app, client, room, session):
    session.commit()
    login(client, "main-supervisor")
    copy = _copy(app, client)
    assert copy.get("/desk").status_code == 200
    client.post("/logout")
    assert _out(copy.get("/desk")) and _out(client.get("/desk"))
    staff = room.staff["supervisor"]
    session.refresh(staff)
    assert staff.session_version == 2
    actions = session.scalars(select(AuditEvent.action).where(AuditEvent.entity_id == staff.id))
    assert "staff.sessions_ended" in list(actions)


def test_log_out_ends_the_api_token_too(client, room, session):
    api = Api(client, token_for(room, session, "supervisor"))
    assert api.get("/room").status_code == 200
    login(client, "main-supervisor")
    client.post("/logout")
    assert api.get("/room").status_code == 401


def test_log_out_ends_only_that_staff_members_sessions(app, client, room, session):
    session.commit()
    cashier = login(app.test_client(), "main-cashier")
    login(client, "main-supervisor").post("/logout")
    assert cashier.get("/desk/cage").status_code == 200


def test_deactivation_ends_the_session(app, client, room, session):
    session.commit()
    login(client, "main-supervisor")
    room.staff["supervisor"].active = False
    session.commit()
    assert _out(client.get("/desk"))


def test_idle_timeout_by_the_apps_clock(client, room, session, clock):
    session.commit()
    login(client, "main-supervisor")
    for _ in range(3):  # each request starts the idle time again
        clock.advance(minutes=240)
        assert client.get("/desk").status_code == 200
    clock.advance(minutes=240, seconds=1)
    assert _out(client.get("/desk"))
    with client.session_transaction() as left:  # the dead log-in is dropped from the cookie
        assert "_user_id" not in left and "version" not in left


def test_a_read_within_a_minute_leaves_the_cookie_alone(client, room, session, clock):
    """The last use is kept to the minute (SEEN_STEP): a staff screen's read beside a page that
    takes the session's flash must not send back the cookie it came with, flash and all."""
    session.commit()
    login(client, "main-supervisor")
    client.get("/desk")  # takes the log-in's own messages, if any
    clock.advance(seconds=59)
    assert "Set-Cookie" not in client.get("/desk/fragment").headers
    clock.advance(seconds=1)
    assert "Set-Cookie" in client.get("/desk/fragment").headers  # a minute on: marked seen


def test_a_flash_taken_by_a_page_is_not_set_again_by_a_read_beside_it(app, client, room, session):
    """The desk's part read while the page after an action loads carries the cookie from before
    the page took its message: its answer must not set that message again (it showed twice)."""
    session.commit()
    login(client, "main-supervisor")
    client.get("/desk")
    with client.session_transaction() as cookie:
        cookie["_flashes"] = [("ok", "Put Ann Lee on 1 list.")]
    beside = _copy(app, client)  # the part's read, sent with the cookie before the page's answer
    assert "Put Ann Lee on 1 list." in client.get("/desk").get_data(as_text=True)
    read = beside.get("/desk/fragment")
    assert "Set-Cookie" not in read.headers
    assert "Put Ann Lee on 1 list." not in client.get("/desk").get_data(as_text=True)


def test_lifetime_ends_a_busy_session(client, room, session, clock):
    session.commit()
    login(client, "main-supervisor")
    for _ in range(7):
        clock.advance(hours=2)
        assert client.get("/desk").status_code == 200
    clock.advance(seconds=1)  # 14 hours and a second after the log-in
    assert _out(client.get("/desk"))
    assert login(client, "main-supervisor").get("/desk").status_code == 200


def test_limits_are_settings(db_url, engine, sessions, clock, room, session):
    session.commit()
    settings = Settings(database_url=db_url, scheduler="off", secret_key="t", testing=True,
                        session_idle_minutes=5, session_max_hours=1)
    app = create_app(settings, clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    client = login(app.test_client(), "main-supervisor")
    clock.advance(minutes=5)
    assert client.get("/desk").status_code == 200
    clock.advance(minutes=5, seconds=1)
    assert _out(client.get("/desk"))


def test_a_log_in_starts_a_new_session(client, room, session):
    session.commit()
    with client.session_transaction() as planted:
        planted.update(sid="fixed", planted="by someone else")
    login(client, "main-supervisor")
    with client.session_transaction() as fresh:
        assert "planted" not in fresh and fresh["sid"] != "fixed"


def _https_app(db_url, engine, sessions, clock):
    settings = Settings(database_url=db_url, scheduler="off", secret_key="t", testing=True,
                        public_url="https://room.example")
    app = create_app(settings, clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    return app


def _set_cookie(client, **kw):
    resp = client.post("/login", data={"username": "main-supervisor", "password": PASSWORD}, **kw)
    assert resp.status_code == 302
    return resp.headers.getlist("Set-Cookie")


def test_over_https_the_cookie_is_host_prefixed_and_secure(db_url, engine, sessions, clock, room,
                                                           session):
    session.commit()
    app = _https_app(db_url, engine, sessions, clock)
    client = app.test_client()
    (cookie,) = _set_cookie(client, base_url="https://room.example")
    attrs = [a.strip() for a in cookie.split(";")]
    assert attrs[0].startswith("__Host-roomops=")
    assert {"Secure", "HttpOnly", "Path=/", "SameSite=Lax"} <= set(attrs)
    assert not any(a.lower().startswith("domain") for a in attrs)
    assert client.get("/desk", base_url="https://room.example").status_code == 200


def test_over_http_the_plain_name_without_secure(client, room, session):
    session.commit()
    (cookie,) = _set_cookie(client)
    attrs = [a.strip() for a in cookie.split(";")]
    assert attrs[0].startswith("roomops=") and "Secure" not in attrs
    assert {"HttpOnly", "Path=/", "SameSite=Lax"} <= set(attrs)


def test_the_database_refuses_a_version_below_one(room, session):
    session.commit()
    with pytest.raises(IntegrityError):
        session.execute(update(Staff).values(session_version=0))
    session.rollback()
