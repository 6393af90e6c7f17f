"""A busy database is never a 500 (R61, issue 40): no password is checked (Argon2, ~0.1 s) while
the request holds a write transaction (on SQLite every write transaction begins IMMEDIATE, holding
the database's one write lock: docs/architecture.md, "Concurrency"), and a database that stays
locked or busy answers 503 with Retry-After, JSON to the API and the desk's scripts, a page
otherwise."""

from __future__ import annotations

import sqlite3

import psycopg.errors
import pytest
from flask import g
from sqlalchemy.exc import OperationalError

from roomops.floor.unit import UnitOfWork
from roomops.rooms import passwords
from tests.conftest import login
from tests.factories import PASSWORD
from tests.http.test_api import GAME
from tests.http.test_desk import GAME_FORM


@pytest.fixture()
def checked_in(monkeypatch):
    """For each password checked: whether the request's session had a transaction open."""
    seen: list[bool] = []
    verify = passwords.verify_password

    def watched(hash_: str, password: str) -> bool:
        request_session = g.get("db")
        seen.append(request_session is not None and request_session.in_transaction())
        return verify(hash_, password)

    for module in ("roomops.auth.approval", "roomops.auth.views"):
        monkeypatch.setattr(f"{module}.verify_password", watched)
    return seen


def test_r61_passwords_are_checked_with_no_write_transaction_open(client, room, session, left,
                                                                  checked_in):
    """The log-in's and the approvals' Argon2 checks run apart, before the request writes: a
    right and a wrong log-in, an approval at the cage's page and one through the API."""
    session.commit()
    assert client.post("/login", data={"username": "main-cashier",
                                       "password": "wrong"}).status_code == 401
    cashier = login(client, "main-cashier")
    page = cashier.post("/desk/cage/cash-outs", data={
        "hold_id": str(left[0].id), "amount": "250", "method": "cash",
        "approver": "main-supervisor", "approver_password": "wrong"})
    assert page.status_code == 403
    api = cashier.post("/api/v1/ledger/cash-outs", json={
        "hold_id": left[0].id, "amount": 25000, "method": "cash", "currency": "GBP",
        "approval": {"username": "main-supervisor", "password": PASSWORD}})
    assert api.status_code == 201, api.text
    assert checked_in == [False] * 4


LOCKED = [sqlite3.OperationalError("database is locked"), psycopg.errors.LockNotAvailable()]


@pytest.mark.parametrize("cause", LOCKED, ids=["sqlite", "postgresql"])
def test_a_locked_database_answers_503_with_retry_after(client, room, session, monkeypatch,
                                                        cause):
    session.commit()
    sup = login(client, "main-supervisor")

    def locked(_unit: UnitOfWork) -> None:
        raise OperationalError("COMMIT", {}, cause)

    monkeypatch.setattr(UnitOfWork, "commit", locked)
    page = sup.post("/desk/games", data=GAME_FORM)
    fetched = sup.post("/desk/games", data=GAME_FORM, headers={"Accept": "application/json"})
    api = sup.post("/api/v1/games", json=GAME)
    for resp in (page, fetched, api):
        assert resp.status_code == 503 and resp.headers["Retry-After"] == "2", resp.text
    assert "database is busy" in page.text and page.mimetype == "text/html"
    assert fetched.json["error"] == api.json["error"] and "busy" in api.json["error"]
    monkeypatch.undo()
    assert "PL Omaha" not in sup.get("/desk").text  # nothing was written


def test_a_fault_in_a_statement_is_still_a_500(app, client, room, session, monkeypatch):
    """SQLite's "no such table" is an OperationalError too: a bug, not a busy database."""
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as in production
    session.commit()
    sup = login(client, "main-supervisor")

    def broken(_unit: UnitOfWork) -> None:
        raise OperationalError("SELECT", {}, sqlite3.OperationalError("no such table: x"))

    monkeypatch.setattr(UnitOfWork, "commit", broken)
    assert sup.post("/api/v1/games", json=GAME).status_code == 500
