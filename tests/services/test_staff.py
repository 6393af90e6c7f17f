"""R61 staff accounts on every configured database: admins create staff, give and take roles in
their room (one person may work in several rooms), reset passwords and deactivate leavers; staff
change their own password. Every change is audited (R60) and ends the person's log-ins and API
token where it changes what they may do."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from roomops.audit.models import AuditEvent
from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.rooms.passwords import verify_password
from roomops.rooms.roles import roles_in, room_staff
from roomops.rooms.staff import (
    change_password,
    create_staff,
    issue_api_token,
    reset_password,
    set_active,
    set_roles,
)
from tests.factories import PASSWORD, Room_
from tests.services.helpers import refused
from tests.units import act

NEW = "a much longer secret"


@pytest.fixture()
def admin(room):
    return room.actor("admin")


def _audit(session, action, staff):
    session.flush()
    return session.scalars(select(AuditEvent).where(AuditEvent.action == action,
                                                    AuditEvent.entity_id == staff.id)).all()


def test_r61_an_admin_creates_a_log_in_with_several_roles(session, room, admin, now):
    ann = act(session, admin, now, create_staff, username="ann", password=NEW,
              roles=["cashier", "dealer"], display_name="Ann Lee")
    assert roles_in(session, ann.id, room.room.id) == {"cashier", "dealer"}
    assert verify_password(ann.password_hash, NEW) and NEW not in ann.password_hash
    [row] = _audit(session, "staff.created", ann)
    assert row.actor == "main-admin" and row.detail == {"username": "ann",
                                                        "roles": ["cashier", "dealer"]}
    assert "ann" in [p.username for p, _ in room_staff(session, room.room.id)]


@pytest.mark.parametrize("fields, error, said", [
    (dict(roles=[]), Invalid, "at least one role"),
    (dict(roles=["boss"]), Invalid, "no role called boss"),
    (dict(username="main-cashier"), Conflict, "taken"),
    (dict(username="two words"), Invalid, "no spaces"),
    (dict(username=" "), Invalid, "username is required"),
    (dict(password="short"), Invalid, "12 characters"),
    (dict(display_name="Ann\u202e"), Invalid, "U+202E"),
])
def test_r61_a_bad_new_log_in_is_refused(session, admin, now, fields, error, said):
    args = dict(username="ann", password=NEW, roles=["cashier"]) | fields
    err = refused(lambda: act(session, admin, now, create_staff, **args), "R61", error=error)
    assert said in str(err)


@pytest.mark.parametrize("key", ["supervisor", "cashier", "dealer"])
def test_r61_only_an_admin_manages_staff(session, room, now, key):
    actor = room.actor(key)
    cashier = room.staff["cashier"]
    for call in (lambda: act(session, actor, now, create_staff, username="x", password=NEW,
                             roles=["dealer"]),
                 lambda: act(session, actor, now, set_roles, "main-dealer", ["cashier"]),
                 lambda: act(session, actor, now, reset_password, cashier.id, NEW),
                 lambda: act(session, actor, now, set_active, cashier.id, False, "left")):
        refused(call, "R61", error=Forbidden)


def test_r61_roles_change_and_end_the_persons_log_ins_and_token(session, room, admin, now):
    dealer = room.staff["dealer"]
    issue_api_token(session, dealer, room.room.id)
    version = dealer.session_version
    act(session, admin, now, set_roles, "main-dealer", ["dealer", "cashier"])
    session.flush()
    session.refresh(dealer)
    assert roles_in(session, dealer.id, room.room.id) == {"dealer", "cashier"}
    assert dealer.session_version == version + 1 and dealer.api_token_hash is None
    [row] = _audit(session, "staff.roles_changed", dealer)
    assert row.detail == {"before": ["dealer"], "after": ["cashier", "dealer"]}
    act(session, admin, now, set_roles, "main-dealer", [])  # no role left: no longer works here
    assert roles_in(session, dealer.id, room.room.id) == frozenset()
    refused(lambda: act(session, admin, now, reset_password, dealer.id, NEW), "R61", error=NotFound)


def test_r61_one_person_works_in_two_rooms(session, room, now):
    """An admin of another room gives a person of this room roles there: one log-in, two rooms,
    different roles in each; each room's admin manages only their own room's roles."""
    other = Room_(session, now, "other")
    ann = room.staff["cashier"]
    act(session, other.actor("admin"), now, set_roles, "main-cashier", ["supervisor"])
    assert roles_in(session, ann.id, other.room.id) == {"supervisor"}
    assert roles_in(session, ann.id, room.room.id) == {"cashier"}
    # the other room's admin cannot deactivate someone of this room who is not theirs
    refused(lambda: act(session, other.actor("admin"), now, set_active, room.staff["dealer"].id,
                        False, "left"), "R61", error=NotFound)


def test_r61_an_admin_does_not_change_their_own_roles_or_deactivate_themselves(session, room,
                                                                              admin, now):
    refused(lambda: act(session, admin, now, set_roles, "main-admin", ["supervisor"]), "R61",
            error=Forbidden)
    refused(lambda: act(session, admin, now, set_active, room.staff["admin"].id, False, "bye"), "R61",
            error=Forbidden)


def test_r61_reset_password_ends_log_ins(session, room, admin, now):
    cashier = room.staff["cashier"]
    version = cashier.session_version
    act(session, admin, now, reset_password, cashier.id, NEW)
    session.flush()
    session.refresh(cashier)
    assert verify_password(cashier.password_hash, NEW)
    assert cashier.session_version == version + 1
    assert len(_audit(session, "staff.password_reset", cashier)) == 1
    refused(lambda: act(session, admin, now, reset_password, cashier.id, "short"), "R61",
            error=Invalid)


def test_r61_staff_change_their_own_password(session, room, now):
    me = room.actor("cashier")
    refused(lambda: act(session, me, now, change_password, "wrong password!", NEW), "R61",
            error=Forbidden)
    refused(lambda: act(session, me, now, change_password, PASSWORD, PASSWORD), "R61", error=Invalid)
    refused(lambda: act(session, me, now, change_password, PASSWORD, "short"), "R61", error=Invalid)
    staff = act(session, me, now, change_password, PASSWORD, NEW)
    session.flush()
    session.refresh(staff)
    assert verify_password(staff.password_hash, NEW) and staff.session_version == 2
    [row] = _audit(session, "staff.password_changed", staff)
    assert row.actor == "main-cashier" and row.detail == {}


def test_r61_deactivation_needs_a_reason_ends_everything_and_can_be_undone(session, room, admin,
                                                                          now):
    cashier = room.staff["cashier"]
    issue_api_token(session, cashier, room.room.id)
    refused(lambda: act(session, admin, now, set_active, cashier.id, False, " "), "R61", error=Invalid)
    act(session, admin, now, set_active, cashier.id, False, "left the company")
    session.flush()
    session.refresh(cashier)
    assert not cashier.active and cashier.api_token_hash is None and cashier.session_version == 2
    [row] = _audit(session, "staff.deactivated", cashier)
    assert row.reason == "left the company"
    refused(lambda: issue_api_token(session, cashier, room.room.id), "R61", error=Conflict)
    act(session, admin, now, set_active, cashier.id, True)
    session.flush()
    session.refresh(cashier)
    assert cashier.active and len(_audit(session, "staff.activated", cashier)) == 1
