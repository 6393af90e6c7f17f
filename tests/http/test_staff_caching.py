"""ASVS V8.2.1 (R61): no answer of a staff route is kept by the browser (a shared desk PC keeps
no names, seats or money after log-out): every route behind a staff log-in, pages, fragments,
the API and refusals, answers ``Cache-Control: no-store``, whoever asks; the public board keeps
its own revalidated caching."""

from __future__ import annotations

from datetime import datetime

from flask import Flask
from sqlalchemy.orm import Session

from roomops.web.access import PUBLIC
from tests.conftest import login
from tests.factories import ROLES_OF, Room_
from tests.http.test_access_matrix import _call, _routes, _url


def test_v8_2_1_every_staff_route_answers_no_store_for_every_role(app: Flask, room: Room_,
                                                                   session: Session,
                                                                   now: datetime):
    game = room.game(now)
    room.table(now, game, "1")
    session.commit()
    answered: set[str] = set()  # staff endpoints some role opened (2xx or 304)
    for key in sorted(ROLES_OF):
        client = login(app.test_client(), f"main-{key}")
        for rule, method in _routes(app):
            if rule.endpoint in PUBLIC:
                continue
            resp = _call(client, method, _url(rule))
            assert resp.headers["Cache-Control"] == "no-store", (key, method, rule.rule,
                                                                 resp.status_code)
            if method == "GET" and resp.status_code in (200, 304):
                answered.add(rule.endpoint)
    # the pages the issue names, and their fragments, were opened, not only refused
    assert {"desk.index", "desk.fragment", "cage.index", "cage.report", "staff.index",
            "audit.index", "account.index", "dealer.index"} <= answered, answered


def test_v8_2_1_the_public_board_keeps_its_caching(client, room: Room_, session: Session):
    session.commit()
    login(client, "main-supervisor")  # a logged-in browser reads the board as anyone does
    assert client.get("/board").headers["Cache-Control"] != "no-store"
    assert client.get("/static/roomops.css").headers["Cache-Control"] != "no-store"
