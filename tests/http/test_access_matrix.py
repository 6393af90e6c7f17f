"""R61, the role matrix over every route and every role: what ``roomops.web.access`` (the right
each route needs) and ``roomops.actors.ROLE_RIGHTS`` (the rights each role carries) say is what
the app does, for pages and the API, with a session and with an API token. Separation of duties:
dealers see no desk, cage or fee pages; cashiers see money, not the dealer's tables; admins post
no money and run no floor unless also given a role that does."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session
from werkzeug.routing import Rule

from roomops.actors import ROLE_RIGHTS, rights_of
from roomops.rooms.staff import issue_api_token
from roomops.web.access import ANY_STAFF, PUBLIC, RIGHTS
from tests.conftest import login
from tests.factories import ROLES_OF, Room_

# values for the routes' non-id parts: a day, a movement, a transit step, a room's board
VALUES = {"gaming_day": "2026-11-21", "kind": "buy_in", "step": "deliver", "slug": "main",
          "filename": "roomops.css"}
MATRIX_REFUSAL = re.compile(r"may not open this page: it needs the (\w+) right")


def _routes(app: Flask) -> list[tuple[Rule, str]]:
    return sorted(((rule, method) for rule in app.url_map.iter_rules()
                   for method in sorted(rule.methods - {"HEAD", "OPTIONS"})),
                  # log-out last: it ends the session the other requests use
                  key=lambda rm: (rm[0].endpoint == "auth.logout", rm[0].endpoint, rm[1]))


def _url(rule: Rule) -> str:
    return re.sub(r"<(?:[^:>]+:)?(\w+)>", lambda m: VALUES.get(m[1], "1"), rule.rule)


def _call(client: FlaskClient, method: str, url: str, headers: dict[str, str] | None = None):
    return client.open(url, method=method, headers=headers or {},
                       **({} if method == "GET" else {"json": {}} if url.startswith("/api/")
                          else {"data": {}}))


def _refused_right(resp) -> str | None:
    """The right the matrix refused the request for, or None when it let it through."""
    if resp.status_code != 403:
        return None
    found = MATRIX_REFUSAL.search(resp.get_data(as_text=True))
    return found[1] if found else None


def test_every_route_is_in_the_matrix_once(app: Flask):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    listed = [*PUBLIC, *ANY_STAFF, *RIGHTS]
    assert len(listed) == len(set(listed)), "an endpoint is listed twice"
    assert endpoints == set(listed), (endpoints - set(listed), set(listed) - endpoints)
    assert set(RIGHTS.values()) <= set().union(*ROLE_RIGHTS.values())


def test_r61_separation_of_duties_in_the_matrix():
    """The pages each role sees, read off the same tables the app uses."""
    def sees(roles: tuple[str, ...], prefix: str) -> bool:
        return any(RIGHTS[e] in rights_of(roles) for e in RIGHTS if e.startswith(prefix))

    assert not any(sees(("dealer",), p) for p in ("desk.", "cage.", "staff.", "audit."))
    assert sees(("cashier",), "cage.") and not sees(("cashier",), "dealer.")
    assert not sees(("cashier",), "desk.")
    admin = rights_of(("admin",))
    assert "cash" not in admin and "floor" not in admin and "deal" not in admin
    assert {"cash", "floor"} <= rights_of(("admin", "supervisor"))
    assert {e for e, r in RIGHTS.items() if r == "staff"} == {
        "staff.index", "staff.create", "staff.roles", "staff.password", "staff.active",
        "staff.clear_lockout"}


@pytest.mark.parametrize("key", sorted(ROLES_OF))
def test_r61_every_route_for_every_role_with_a_session(app: Flask, room: Room_, session: Session,
                                                       key: str):
    """Logged in with a session: every route refuses exactly the roles the matrix says, before
    anything runs (403 naming the right), and lets the others through."""
    session.commit()
    client = login(app.test_client(), f"main-{key}")
    held = rights_of(ROLES_OF[key])
    for rule, method in _routes(app):
        resp = _call(client, method, _url(rule))
        endpoint = rule.endpoint
        needed = None if endpoint in PUBLIC or endpoint in ANY_STAFF else RIGHTS[endpoint]
        refused = _refused_right(resp)
        if needed is not None and needed not in held:
            assert refused == needed, (key, method, rule.rule, resp.status_code)
        else:
            # /health is 503 here: no scheduler has swept (tests/http/test_health.py)
            assert refused is None and (resp.status_code < 500 or endpoint == "health.health"), (
                key, method, rule.rule)


@pytest.mark.parametrize("key", ["cashier", "dealer"])
def test_r61_every_api_route_with_a_token(app: Flask, room: Room_, session: Session, key: str):
    """With an API token the same matrix holds (the token acts with its room's roles)."""
    token = issue_api_token(session, room.staff[key], room.room.id)
    session.commit()
    client = app.test_client()
    held = rights_of(ROLES_OF[key])
    for rule, method in _routes(app):
        if not rule.rule.startswith("/api/v1/") or rule.endpoint in PUBLIC:
            continue  # R12: a player's own entries need no staff right
        resp = _call(client, method, _url(rule), {"Authorization": f"Bearer {token}"})
        needed = RIGHTS[rule.endpoint]
        assert (_refused_right(resp) == needed) == (needed not in held), (key, method, rule.rule)


def test_without_a_log_in_only_the_public_routes_answer(app: Flask, room: Room_,
                                                        session: Session):
    session.commit()
    client = app.test_client()
    for rule, method in _routes(app):
        resp = _call(client, method, _url(rule))
        if rule.endpoint in PUBLIC:  # a failed log-in is a 401 of its own
            assert "/login" not in (resp.location or "") and _refused_right(resp) is None, rule.rule
            assert resp.status_code != 401 or rule.endpoint == "auth.login", rule.rule
        elif rule.rule.startswith("/api/"):
            assert resp.status_code == 401 and resp.json["rule"] == "R61", rule.rule
        else:
            assert resp.status_code == 302 and "/login" in resp.location, rule.rule
