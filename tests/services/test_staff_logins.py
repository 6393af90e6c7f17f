"""Staff passwords and log-ins in the services (R60, R61): the policy at creation, Argon2 hashes,
log-ins audited, an older hash replaced in the log-in's transaction."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from roomops.actors import Actor, console
from roomops.audit.models import AuditEvent
from roomops.errors import Invalid
from roomops.rooms.models import Staff
from roomops.rooms.passwords import verify_password
from roomops.rooms.staff import create_staff, logged_in, login_failed
from tests.factories import PASSWORD
from tests.units import act


def _audit(session, action):
    session.flush()
    return list(session.scalars(select(AuditEvent).where(AuditEvent.action == action)))


def test_r61_create_staff_refuses_a_weak_password_and_stores_an_argon2_hash(session, now, room):
    with pytest.raises(Invalid, match="at least 12 characters"):
        act(session, console(room.room.id), now, create_staff, username="eve", password="hunter2",
            roles=["dealer"])
    assert session.scalar(select(Staff).where(Staff.username == "eve")) is None
    staff = act(session, console(room.room.id), now, create_staff, username="eve",
                password="lantern cashbox river", roles=["dealer"])
    assert staff.password_hash.startswith("$argon2id$")
    assert verify_password(staff.password_hash, "lantern cashbox river")


def test_r60_a_log_in_is_audited_and_an_older_hash_replaced(session, now, room):
    sup = room.staff["supervisor"]
    sup.password_hash = generate_password_hash(PASSWORD, method="pbkdf2:sha256:1000")
    act(session, room.sup, now, logged_in, PASSWORD, "10.0.0.7")
    assert sup.password_hash.startswith("$argon2id$") and verify_password(sup.password_hash,
                                                                          PASSWORD)
    [row] = _audit(session, "staff.logged_in")
    assert (row.entity_id, row.actor_id, row.detail) == (
        sup.id, sup.id, {"address": "10.0.0.7", "password_rehashed": True})
    kept = sup.password_hash
    act(session, room.sup, now, logged_in, PASSWORD, "10.0.0.7")
    assert sup.password_hash == kept  # current already: not written again
    assert [r.detail["password_rehashed"] for r in _audit(session, "staff.logged_in")] == [
        True, False]


def test_r60_a_failed_log_in_of_a_known_username_is_audited_in_its_room(session, now, room):
    sup = room.staff["supervisor"]
    act(session, Actor(room.room.id, None, "log-in form", frozenset()), now, login_failed, sup.id, "10.0.0.8")
    [row] = _audit(session, "staff.login_failed")
    assert (row.room_id, row.entity_id, row.actor_id, row.actor, row.detail) == (
        room.room.id, sup.id, None, "log-in form", {"address": "10.0.0.8"})
