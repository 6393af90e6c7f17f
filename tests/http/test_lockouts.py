"""Wrong passwords never lock the right person out (R61 for log-ins, R28 for approvals, R60;
issue 40): counted per (username, address) and per address on the app's clock, a growing delay
for everyone, a lockout only from an address the account never used; an admin sees the lockouts
on the staff screen and clears one, audited."""

from __future__ import annotations

from sqlalchemy import select

from roomops.audit.models import AuditEvent
from tests.conftest import login
from tests.factories import PASSWORD
from tests.units import act

ATTACKER, DESK, ELSEWHERE = "203.0.113.7", "10.1.1.10", "10.1.1.20"


def _log_in(client, username, password=PASSWORD, address=DESK, **headers):
    return client.post("/login", data={"username": username, "password": password},
                       environ_base={"REMOTE_ADDR": address}, headers=headers)


def _fail(client, clock, username, address, times):
    """``times`` wrong passwords, each after the wait the one before asked for (the waits)."""
    waits = []
    for _ in range(times):
        resp = _log_in(client, username, "wrong", address)
        if resp.status_code == 429:
            waits.append(int(resp.headers["Retry-After"]))
            clock.advance(seconds=waits[-1])
            resp = _log_in(client, username, "wrong", address)
        assert resp.status_code == 401, resp.text
    return waits


def test_r61_wrong_passwords_from_one_address_lock_only_that_address(client, room, session,
                                                                     clock):
    session.commit()
    _fail(client, clock, "main-supervisor", ATTACKER, 10)
    locked = _log_in(client, "main-supervisor", address=ATTACKER)
    assert locked.status_code == 429 and "try again in 15 minutes" in locked.text
    # the supervisor, from another address, logs in at once
    assert _log_in(client, "main-supervisor", address=ELSEWHERE).status_code == 302


def test_r61_a_growing_delay_then_no_lockout_from_a_known_address(client, room, session, clock):
    """The supervisor logged in from the desk before; someone typing wrong passwords from that
    same address (the room's network) slows the right one down, never locks it out."""
    session.commit()
    assert _log_in(client, "main-supervisor").status_code == 302
    client.post("/logout")
    # from the third failure in a row a wait, doubling, at most a minute; past the 10 that lock
    # an unknown address out, still a minute
    assert _fail(client, clock, "main-supervisor", DESK, 12) == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    early = _log_in(client, "main-supervisor")
    assert early.status_code == 429 and int(early.headers["Retry-After"]) == 60  # the most
    assert "wait 60 seconds before trying again" in early.text
    clock.advance(seconds=60)
    assert _log_in(client, "main-supervisor").status_code == 302
    client.post("/logout")
    # the right password cleared the count: the next mistype costs no wait
    assert _log_in(client, "main-supervisor", "wrong").status_code == 401
    assert _log_in(client, "main-supervisor").status_code == 302


def test_r61_r60_an_admin_sees_and_clears_a_lockout(app, client, room, session, clock):
    session.commit()
    _fail(client, clock, "main-cashier", ATTACKER, 10)
    assert _log_in(client, "main-cashier", address=ATTACKER).status_code == 429
    admin = login(app.test_client(), "main-admin")
    page = admin.get("/staff").text
    assert 'data-address="203.0.113.7" data-username="main-cashier"' in page
    assert "approval at the cage" not in page and "No one is locked out" not in page
    cleared = admin.post("/staff/lockouts/clear", data={
        "kind": "login", "address": ATTACKER, "username": "main-cashier"}, follow_redirects=True)
    assert "Lockout cleared: main-cashier from 203.0.113.7" in cleared.text
    assert "No one is locked out" in cleared.text
    [row] = session.scalars(select(AuditEvent).where(AuditEvent.action == "staff.lockout_cleared"))
    assert (row.entity_type, row.entity_id, row.actor_id) == (
        "staff", room.staff["cashier"].id, room.staff["admin"].id)
    assert row.detail["address"] == ATTACKER and row.detail["failures"] == 10
    assert _log_in(client, "main-cashier", address=ATTACKER).status_code == 302
    # cleared already: said so, as a 404 naming R61
    again = admin.post("/staff/lockouts/clear", data={
        "kind": "login", "address": ATTACKER, "username": "main-cashier"})
    assert again.status_code == 404


def test_r61_an_admin_clears_a_whole_address(app, client, room, session, clock):
    session.commit()
    for name in ("ann", "bob", "cyd"):
        _fail(client, clock, name, ATTACKER, 10)
    assert "from this address" in _log_in(client, "main-dealer", address=ATTACKER).text
    admin = login(app.test_client(), "main-admin")
    page = admin.get("/staff").text
    assert 'data-address="203.0.113.7" data-username=""' in page
    assert "ann" not in page  # usernames of no one in this room are not shown
    admin.post("/staff/lockouts/clear", data={"kind": "login", "address": ATTACKER})
    assert _log_in(client, "main-dealer", address=ATTACKER).status_code == 302


def _approve(cashier, hold_id, password, address):
    return cashier.post("/api/v1/ledger/cash-outs", environ_base={"REMOTE_ADDR": address}, json={
        "hold_id": hold_id, "amount": 25000, "method": "cash", "currency": "GBP",
        "approval": {"username": "main-supervisor", "password": password}})


def test_r28_wrong_approvals_elsewhere_do_not_stop_the_cage(app, client, room, session, clock,
                                                             left):
    """Someone at another screen typing the supervisor's password wrong until it is locked
    there: the cage's own approvals, from its own address, go on."""
    session.commit()
    cashier = login(client, "main-cashier")
    other = login(app.test_client(), "main-cashier")
    for _ in range(10):
        resp = _approve(other, left[0].id, "wrong", ATTACKER)
        if resp.status_code == 429:
            clock.advance(seconds=int(resp.headers["Retry-After"]))
            resp = _approve(other, left[0].id, "wrong", ATTACKER)
        assert resp.status_code == 403
    locked = _approve(other, left[0].id, PASSWORD, ATTACKER)
    assert locked.status_code == 429 and locked.json["rule"] == "R28"
    assert locked.json["error"].startswith("Too many wrong approvals for this supervisor from")
    assert _approve(cashier, left[0].id, PASSWORD, DESK).status_code == 201


def test_r28_at_a_cage_the_supervisor_approved_from_only_a_delay(client, room, session, clock,
                                                                  now, left):
    """The supervisor approved at the cage once: wrong approvals typed there afterwards, past
    the 10 that lock an unknown address out, only delay the right one."""
    from roomops.seating import seats

    act(session, room.sup, now, seats.leave, left[1].id, 23000)
    session.commit()
    cashier = login(client, "main-cashier")
    assert _approve(cashier, left[0].id, PASSWORD, DESK).status_code == 201
    for _ in range(12):
        resp = _approve(cashier, left[1].id, "wrong", DESK)
        if resp.status_code == 429:
            assert "wait" in resp.json["error"]  # a delay, not a lockout
            clock.advance(seconds=int(resp.headers["Retry-After"]))
            resp = _approve(cashier, left[1].id, "wrong", DESK)
        assert resp.status_code == 403
    early = _approve(cashier, left[1].id, PASSWORD, DESK)
    assert early.status_code == 429 and early.json["error"] == (
        "Several wrong approvals for this supervisor: wait 60 seconds before trying again.")
    clock.advance(seconds=60)
    assert _approve(cashier, left[1].id, PASSWORD, DESK).status_code == 201
