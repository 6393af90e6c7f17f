"""Logins resist guessing (R61; docs/security.md, "Logins"): failed log-ins and wrong approvals
are throttled per (username, address) and per address (roomops.lockouts, counting only
failures; tests/http/test_lockouts.py for the delays, known addresses and clearing), the refusal
of an unknown username costs one password check as a known one does, and an older hash is
replaced at the next log-in in its transaction, audited."""

from __future__ import annotations

import os
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
import redis
import waitress
from argon2 import PasswordHasher
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from roomops.actors import console
from roomops.audit.models import AuditEvent
from roomops.auth.throttle import limiter
from roomops.cli.running import server_options
from roomops.config import Settings
from roomops.factory import create_app
from roomops.rooms.passwords import verify_password
from roomops.rooms.staff import create_staff
from tests.conftest import login
from tests.factories import PASSWORD
from tests.units import act

REDIS = os.environ.get("ROOMOPS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture()
def make_client(db_url, engine, sessions, clock, room, session):
    """A client of an app with the given settings (small limits), the room committed."""
    session.commit()

    def make(**settings: object) -> FlaskClient:
        app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                                  testing=True, **settings),  # type: ignore[arg-type]
                         clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
        app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
        return app.test_client()

    return make


def _log_in(client, username, password=PASSWORD, address="10.0.0.1", **headers):
    return client.post("/login", data={"username": username, "password": password},
                       environ_base={"REMOTE_ADDR": address}, headers=headers)


def test_r61_failed_log_ins_of_a_username_from_an_address_lock_that_address_out(
        make_client, security_log):
    client = make_client(login_limit_per_account="3 per 15 minutes")
    # spread over addresses, failures lock nothing out
    assert [_log_in(client, "main-supervisor", "wrong", f"10.0.1.{i}").status_code
            for i in range(3)] == [401, 401, 401]
    assert [_log_in(client, "main-supervisor", "wrong", "10.0.0.9").status_code
            for _ in range(2)] == [401, 401]
    # the third from one address: its next try, the right password even, is not checked
    assert _log_in(client, "main-supervisor", "wrong", "10.0.0.9").status_code == 401
    throttled = _log_in(client, "Main-Supervisor ", address="10.0.0.9")
    assert throttled.status_code == 429
    assert ("Too many failed log-ins for this username from this address: try again in 15 "
            "minutes") in throttled.text
    assert 'name="username"' in throttled.text and int(throttled.headers["Retry-After"]) == 900
    [event] = security_log.named("throttled")
    assert (event["level"], event["username"], event["address"]) == (
        "WARNING", "main-supervisor", "10.0.0.9")
    # another username from the same address is not affected, nor this one from elsewhere
    assert _log_in(client, "main-cashier", address="10.0.0.9").status_code == 302
    assert _log_in(client, "main-supervisor", address="10.0.2.1").status_code == 302


def test_r61_only_failures_count(make_client):
    client = make_client(login_limit_per_account="2 per 15 minutes",
                         login_limit_per_address="2 per 15 minutes")
    for _ in range(4):
        assert _log_in(client, "main-supervisor").status_code == 302
        client.post("/logout")
    assert _log_in(client, "main-supervisor", "wrong").status_code == 401
    assert _log_in(client, "main-supervisor").status_code == 302


def test_r61_failed_log_ins_from_an_address_are_throttled_whatever_the_username(make_client):
    client = make_client(login_limit_per_address="3 per 15 minutes")
    for name in ("ann", "bob", "main-dealer"):
        assert _log_in(client, name, "wrong").status_code == 401
    assert _log_in(client, "main-supervisor").status_code == 429
    assert "Too many failed log-ins from this address" in _log_in(client, "x").text
    assert _log_in(client, "main-supervisor", address="10.0.0.2").status_code == 302


def test_r61_a_throttled_json_caller_gets_json(make_client):
    client = make_client(login_limit_per_account="1 per 15 minutes")
    _log_in(client, "main-supervisor", "wrong")
    resp = _log_in(client, "main-supervisor", Accept="application/json")
    assert resp.status_code == 429 and resp.json["rule"] == "R61"
    assert resp.json["error"].startswith("Too many failed log-ins for this username from this")


def test_behind_a_proxy_the_clients_address_is_counted(make_client, security_log):
    """ROOMOPS_TRUSTED_PROXIES: X-Forwarded-For names the client; without it it is ignored (a
    client could name any address it likes)."""
    direct = make_client(login_limit_per_address="1 per 15 minutes")
    _log_in(direct, "ann", "wrong", **{"X-Forwarded-For": "192.0.2.1"})
    assert _log_in(direct, "bob", "wrong", **{"X-Forwarded-For": "192.0.2.2"}).status_code == 429
    proxied = make_client(login_limit_per_address="1 per 15 minutes", trusted_proxies=1)
    _log_in(proxied, "ann", "wrong", **{"X-Forwarded-For": "192.0.2.1"})
    assert _log_in(proxied, "bob", "wrong", **{"X-Forwarded-For": "192.0.2.2"}).status_code == 401
    assert security_log.named("login.failed")[-1]["address"] == "192.0.2.2"


@pytest.fixture()
def redis_client(make_client):
    """Counts kept in Redis (several workers); reset before and after, no test waits."""
    try:
        redis.Redis.from_url(REDIS).ping()
    except redis.exceptions.ConnectionError:
        pytest.skip(f"no Redis at {REDIS}")
    client = make_client(ratelimit_storage_uri=REDIS, login_limit_per_account="2 per 15 minutes")
    limiter.reset()
    yield client
    limiter.reset()


def test_r61_flask_limiters_counts_can_be_kept_in_redis(redis_client):
    """Wrong current passwords of a log-in (Flask-Limiter's) are counted in Redis; failed
    log-ins are counted in the database (roomops.lockouts), which every worker shares anyway."""
    me = login(redis_client, "main-cashier")
    tries = [me.post("/account/password", data={"current": f"not it {i}", "new": "x" * 20,
                                                "repeat": "x" * 20}).status_code
             for i in range(2)]
    assert tries == [403, 403]
    assert me.post("/account/password", data={"current": PASSWORD, "new": "y" * 20,
                                               "repeat": "y" * 20}).status_code == 429
    keys = redis.Redis.from_url(REDIS).keys("*roomops*")
    assert keys  # the counts are in Redis, where every worker reads them


def test_r28_wrong_approvals_are_throttled_at_the_cage_and_through_the_api(
        make_client, room, session, left, security_log):
    cashier = login(make_client(login_limit_per_account="2 per 15 minutes"), "main-cashier")

    def pay(password, **more):
        return cashier.post("/desk/cage/cash-outs", data={
            "hold_id": str(left[0].id), "amount": "250", "method": "cash", "q": "1/1",
            "approver": "main-supervisor", "approver_password": password, **more})

    assert pay("wrong one").status_code == 403
    api = cashier.post("/api/v1/ledger/cash-outs", json={
        "hold_id": left[0].id, "amount": 25000, "method": "cash", "currency": "GBP",
        "approval": {"username": "main-supervisor", "password": "wrong two"}})
    assert api.status_code == 403
    # the page and the API count together; now even the right password is not checked
    throttled = pay(PASSWORD)
    assert throttled.status_code == 429 and "Too many wrong approvals for this supervisor" in (
        throttled.text)
    api = cashier.post("/api/v1/ledger/cash-outs", json={
        "hold_id": left[0].id, "amount": 25000, "method": "cash", "currency": "GBP",
        "approval": {"username": "main-supervisor", "password": PASSWORD}})
    assert api.status_code == 429 and api.json["rule"] == "R28"
    assert [e["username"] for e in security_log.named("throttled")] == ["main-supervisor"] * 2
    # a cash-out needing no approval goes on; the cashier's own log-in is not affected
    assert cashier.post("/desk/cage/cash-outs", data={
        "hold_id": str(left[0].id), "amount": "230", "method": "cash"}).status_code == 303


class _Counted(PasswordHasher):
    calls = 0

    def verify(self, hash, password):  # argon2's own parameter name
        _Counted.calls += 1
        return super().verify(hash, password)


@pytest.fixture()
def checks(monkeypatch):
    """How many times an Argon2 hash is checked (what a refusal costs)."""
    from roomops.rooms import passwords

    counted = _Counted.from_parameters(passwords._hasher._parameters)
    monkeypatch.setattr(passwords, "_hasher", counted)
    _Counted.calls = 0
    return _Counted


@pytest.mark.parametrize("username", ["main-supervisor", "nobody", "main-dealer"])
def test_r61_every_refusal_costs_one_password_check(client, room, session, checks, username):
    """A known username with a wrong password, an unknown one, an inactive staff member's: one
    Argon2 check each (against a dummy hash when no one can log in), so the time taken does not
    tell which usernames exist."""
    room.staff["dealer"].active = False
    session.commit()
    password = "wrong" if username == "main-supervisor" else PASSWORD
    assert _log_in(client, username, password).status_code == 401
    assert checks.calls == 1


@pytest.mark.parametrize("approver", ["main-supervisor", "nobody", "other-supervisor"])
def test_r28_every_refused_approval_costs_one_password_check(client, room, session, now, left,
                                                             checks, approver):
    from tests.factories import Room_

    Room_(session, now, slug="other")
    session.commit()
    cashier = login(client, "main-cashier")
    checks.calls = 0
    resp = cashier.post("/desk/cage/cash-outs", data={
        "hold_id": str(left[0].id), "amount": "250", "method": "cash",
        "approver": approver, "approver_password": "wrong" if approver == "main-supervisor"
        else PASSWORD})
    assert resp.status_code == 403 and checks.calls == 1


def test_r61_an_older_hash_is_replaced_at_log_in_and_audited(client, room, session,
                                                             security_log):
    sup = room.staff["supervisor"]
    sup.password_hash = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000")
    session.commit()
    assert _log_in(client, "main-supervisor", "wrong").status_code == 401
    session.refresh(sup)
    assert sup.password_hash.startswith("pbkdf2:")  # a wrong password changes nothing
    assert _log_in(client, "main-supervisor").status_code == 302
    session.refresh(sup)
    assert sup.password_hash.startswith("$argon2id$") and verify_password(sup.password_hash,
                                                                          PASSWORD)
    [row] = session.scalars(select(AuditEvent).where(AuditEvent.action == "staff.logged_in"))
    assert row.detail == {"address": "10.0.0.1", "password_rehashed": True}
    [event] = security_log.named("password.rehashed")
    assert event["staff_id"] == sup.id
    assert _log_in(client.application.test_client(), "main-supervisor").status_code == 302


def test_r60_log_ins_and_failed_log_ins_are_in_the_audit_trail(client, room, session):
    session.commit()
    _log_in(client, "main-supervisor", "wrong")
    _log_in(client, "nobody", "wrong")  # names no room: in the security log only
    _log_in(client, "main-supervisor")
    rows = session.scalars(select(AuditEvent).where(AuditEvent.action.startswith("staff.log"))
                           .order_by(AuditEvent.id)).all()
    sup = room.staff["supervisor"].id
    assert [(r.action, r.entity_id, r.actor_id, r.actor) for r in rows] == [
        ("staff.login_failed", sup, None, "log-in form"),
        ("staff.logged_in", sup, sup, "main-supervisor")]


def test_v2_2_1_wrong_current_passwords_on_a_desk_left_logged_in_are_throttled(make_client):
    """Whoever sits at a desk left logged in cannot try current passwords without end."""
    me = login(make_client(login_limit_per_account="2 per 15 minutes"), "main-cashier")
    tries = [me.post("/account/password", data={"current": f"not it {i}", "new": "x" * 20,
                                                 "repeat": "x" * 20}).status_code
             for i in range(3)]
    assert tries == [403, 403, 429]
    right = me.post("/account/password", data={"current": PASSWORD, "new": "a much longer secret",
                                               "repeat": "a much longer secret"})
    assert right.status_code == 429 and "Too many wrong current passwords" in right.text


@pytest.mark.parametrize("proxies, seen", [(1, "192.0.2.7"), (0, "127.0.0.1")])
def test_behind_a_proxy_waitress_passes_the_clients_address_on(db_url, engine, sessions, clock,
                                                               room, session, security_log,
                                                               proxies, seen):
    """Through waitress as `flask serve` runs it: with a trusted proxy the client's address in
    X-Forwarded-For reaches the app (waitress drops it by default); without one it is ignored."""
    session.commit()
    app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                              testing=True, trusted_proxies=proxies),
                     clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    app.extensions["roomops"].sessions = app.extensions["roomops"].read_sessions = sessions
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=1,
                                    **server_options(app.extensions["roomops"].settings))
    stop = threading.Event()

    def serve() -> None:  # waitress's loop a turn at a time, so that it ends before the close
        while not stop.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, count=1)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        body = urllib.parse.urlencode({"username": "main-cashier", "password": "wrong"}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{server.effective_port}/login", data=body,
                                     headers={"X-Forwarded-For": "192.0.2.7"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=10)
        assert refused.value.code == 401
    finally:
        stop.set()
        thread.join(timeout=10)
        server.task_dispatcher.shutdown()
        server.close()
    assert security_log.named("login.failed")[-1]["address"] == seen


def test_a_username_is_found_as_typed_in_either_form_of_its_accents(client, room, session, now,
                                                                     left):
    """Usernames are kept in NFC (roomops.text.check_shown): "zoë" typed with a combining
    diaeresis (as some keyboards and paste buffers give it) logs in and approves as zoë (R61,
    R28)."""
    act(session, console(room.room.id), now, create_staff, username="zo\u00eb", password=PASSWORD,
        roles=("supervisor",))
    session.commit()
    decomposed = "zo\u0065\u0308"
    assert _log_in(client, decomposed).status_code == 302
    cashier = login(client.application.test_client(), "main-cashier")
    resp = cashier.post("/desk/cage/cash-outs", data={
        "hold_id": str(left[0].id), "amount": "250", "method": "cash",
        "approver": decomposed, "approver_password": PASSWORD}, headers={"Accept": "application/json"})
    assert resp.status_code < 400, resp.text
