"""The CLI (R1 rooms, R61 staff) and the scheduler wiring call the same services as the web."""

from __future__ import annotations

import gc

from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.jobs.scheduler import _add_job, sweep_once
from roomops.rooms.models import Room, Staff
from roomops.rooms.services import hash_token
from roomops.seating.models import SeatHold


def test_create_room_and_staff(app, session):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["create-room", "vic", "The Vic", "--timezone", "Europe/London"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(args=["create-staff", "vic", "alice", "--role", "supervisor",
                              "--password", "lantern cashbox river"])
    assert out.exit_code == 0, out.output
    staff = session.scalar(select(Staff).where(Staff.username == "alice"))
    assert staff.role == "supervisor" and staff.password_hash.startswith("$argon2id$")


def test_r32_a_room_is_created_with_its_currency_and_locale(app, session):
    runner = app.test_cli_runner()
    out = runner.invoke(args=["create-room", "wien", "Wien", "--currency", "eur", "--locale", "de-AT"])
    assert out.exit_code == 0, out.output
    room = session.scalar(select(Room).where(Room.slug == "wien"))
    assert (room.currency, room.locale, room.money(123456)) == ("EUR", "de_AT", "€\xa01.234,56")
    for bad, said in ((["--currency", "XYZ"], "ISO 4217 currency code"),
                      (["--locale", "xx_QQ"], "not a locale")):
        out = runner.invoke(args=["create-room", "other", "Other", *bad])
        assert out.exit_code == 1 and said in out.output and "Traceback" not in out.output
    assert session.scalar(select(func.count()).select_from(Room).where(Room.slug == "other")) == 0


def test_create_staff_unknown_room_fails_cleanly(app):
    out = app.test_cli_runner().invoke(
        args=["create-staff", "nowhere", "bob", "--role", "cashier", "--password", "x"])
    assert out.exit_code != 0 and "no room nowhere" in out.output


def test_api_token_is_stored_hashed(app, room, session):
    session.commit()
    out = app.test_cli_runner().invoke(args=["api-token", "main-supervisor"])
    token = out.output.strip()
    assert out.exit_code == 0 and len(token) > 30
    session.expire_all()
    assert room.staff["supervisor"].api_token_hash == hash_token(token)


def test_demo_loads_once_and_offers_open_seats(app, session):
    runner = app.test_cli_runner()
    first = runner.invoke(args=["demo"])
    assert first.exit_code == 0 and "supervisor" in first.output and "dealer" in first.output
    offers = session.scalar(select(func.count()).select_from(SeatHold).where(
        SeatHold.kind == "offer", SeatHold.ended_at.is_(None)))
    assert offers == 2  # R14/R20: table 2's two open seats are called at once
    again = runner.invoke(args=["demo"])
    assert "already has a room" in again.output
    assert session.scalar(select(func.count()).select_from(Room)) == 1


def test_sweep_command_and_job_release_due_offers(app, session, clock):
    app.test_cli_runner().invoke(args=["demo"])
    assert "0 offers expired" in app.test_cli_runner().invoke(args=["sweep"]).output
    clock.advance(minutes=10)  # R22: the deadline, to the second
    result = sweep_once(app)
    assert len(result.expired_offers) == 2
    actors = set(session.scalars(select(AuditEvent.actor).where(AuditEvent.action == "offer.expired")))
    assert actors == {"scheduler"}  # R60
    assert sweep_once(app).expired_offers == []  # idempotent


def test_scheduler_sweeps_on_an_interval(app):
    class Recorder:
        def __init__(self) -> None:
            self.jobs: list[dict] = []

        def add_job(self, func, trigger, **kw):
            self.jobs.append({"func": func, "trigger": trigger, **kw})

    rec = Recorder()
    _add_job(rec, app)  # type: ignore[arg-type]
    (job,) = rec.jobs
    assert job["func"] is sweep_once and job["trigger"] == "interval"
    assert job["seconds"] <= 5 and job["max_instances"] == 1  # the issue: at least every 5 s


def test_serve_freezes_what_start_up_built(app, monkeypatch):
    """The objects start-up made are frozen before serving: full garbage collections then leave
    them alone (~0.5 ms instead of ~40 ms a collection, docs/benchmarks.md)."""
    frozen: list[int] = []
    monkeypatch.setattr("roomops.cli.waitress.serve", lambda *_a, **_kw: frozen.append(gc.get_freeze_count()))
    try:
        out = app.test_cli_runner().invoke(args=["serve", "--port", "5999"])
    finally:
        gc.unfreeze()  # the rest of the suite runs as before
    assert out.exit_code == 0, out.output
    assert frozen and frozen[0] > 10_000
