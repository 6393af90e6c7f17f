"""Log-in, log-out and CSRF (R61: only staff run the room; every failed log-in is logged)."""

from __future__ import annotations

import re

import pytest

from roomops.config import Settings
from roomops.factory import create_app
from tests.conftest import login
from tests.factories import PASSWORD


def test_login_ok_goes_to_the_desk(client, room, session, security_log):
    session.commit()
    resp = client.post("/login", data={"username": "main-supervisor", "password": PASSWORD})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/desk")
    [ok] = security_log.named("login.ok")
    assert ok["staff_id"] == room.staff["supervisor"].id and ok["level"] == "INFO"
    assert client.get("/desk").status_code == 200


@pytest.mark.parametrize("username,password", [("main-supervisor", "wrong"), ("nobody", PASSWORD)])
def test_failed_login_is_refused_and_logged_as_warning(client, room, session, security_log,
                                                       username, password):
    session.commit()
    resp = client.post("/login", data={"username": username, "password": password})
    assert resp.status_code == 401 and "Wrong username or password" in resp.text
    [failed] = security_log.named("login.failed")
    assert failed["level"] == "WARNING" and failed["username"] == username
    assert client.get("/desk").status_code == 302  # still not logged in


def test_inactive_staff_cannot_log_in(client, room, session):
    room.staff["supervisor"].active = False
    session.commit()
    resp = client.post("/login", data={"username": "main-supervisor", "password": PASSWORD})
    assert resp.status_code == 401


def test_logout(client, room, session):
    session.commit()
    login(client, "main-supervisor")
    resp = client.post("/logout")
    assert resp.status_code == 302 and "/login" in resp.headers["Location"]
    resp = client.get("/desk")
    assert resp.status_code == 302 and "/login" in resp.headers["Location"]


@pytest.mark.parametrize("key,screen", [("supervisor", "/desk"), ("cashier", "/desk/cage"),
                                        ("dealer", "/dealer")])
def test_r61_the_address_alone_opens_each_persons_screen(client, room, session, key, screen):
    """R61: "/" takes a logged-in person to the screen their roles open on."""
    session.commit()
    login(client, f"main-{key}")
    resp = client.get("/")
    assert resp.status_code == 302 and resp.headers["Location"] == screen


def test_r61_the_address_alone_without_a_log_in_is_the_log_in_page(client):
    resp = client.get("/", follow_redirects=True)
    assert resp.request.path == "/login" and 'name="username"' in resp.text


def test_login_page_renders(client):
    html = client.get("/login").text
    assert 'name="username"' in html and 'name="csrf_token"' in html


@pytest.fixture()
def csrf_client(db_url, engine, sessions, clock, room, session):
    """The app as deployed: CSRF protection on (no WTF_CSRF_ENABLED=False)."""
    session.commit()
    settings = Settings(database_url=db_url, scheduler="off", secret_key="test-csrf", testing=True)
    app = create_app(settings, clock=clock, engine=engine)
    ext = app.extensions["roomops"]
    ext.sessions = ext.read_sessions = sessions
    return app.test_client()


def _token(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no csrf_token in the page"
    return match.group(1)


def test_csrf_login_without_token_is_400(csrf_client):
    resp = csrf_client.post("/login", data={"username": "main-supervisor", "password": PASSWORD})
    assert resp.status_code == 400


def test_csrf_desk_post_without_token_is_400_and_with_token_works(csrf_client, session):
    token = _token(csrf_client.get("/login").text)
    resp = csrf_client.post("/login", data={"username": "main-supervisor", "password": PASSWORD,
                                            "csrf_token": token})
    assert resp.status_code == 302
    refused = csrf_client.post("/desk/players", data={"first_name": "Eve"})
    assert refused.status_code == 400
    assert "Eve" not in csrf_client.get("/desk").text
    token = _token(csrf_client.get("/desk").text)
    done = csrf_client.post("/desk/players", data={"first_name": "Eve", "csrf_token": token})
    assert done.status_code == 303
    bad = csrf_client.post("/desk/players", data={"first_name": "Ian", "csrf_token": "forged"})
    assert bad.status_code == 400


def test_the_log_in_is_read_back_from_the_signed_session_cookie(client, room, session):
    """The board needs no cookie; the log-in is read back from the signed cookie, and a cookie
    with a bad signature is no log-in."""
    session.commit()
    assert client.get("/board").status_code == 200
    login(client, "main-supervisor")
    assert client.get("/desk").status_code == 200
    client.set_cookie("roomops", "forged")  # a cookie with a bad signature is no log-in
    assert client.get("/desk").status_code == 302
