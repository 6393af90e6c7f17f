"""The CLI (R1 rooms, R61 staff) and the scheduler wiring call the same services as the web."""

from __future__ import annotations

import gc
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.figures.models import FigureRoomHour
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.jobs.scheduler import _add_job, sweep_once
from roomops.lists.models import ListEntry
from roomops.rooms.models import Room, Staff
from roomops.rooms.roles import roles_in
from roomops.rooms.staff import hash_token
from tests.factories import PASSWORD, Room_


def test_create_room_and_staff(app, session):
    """R61: the console creates a room's first staff, with several roles, audited as "console"."""
    runner = app.test_cli_runner()
    out = runner.invoke(args=["create-room", "vic", "The Vic", "--timezone", "Europe/London"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(args=["staff", "create", "vic", "alice", "--role", "admin", "--role",
                              "supervisor", "--password", PASSWORD])
    assert out.exit_code == 0, out.output
    staff = session.scalar(select(Staff).where(Staff.username == "alice"))
    room = session.scalar(select(Room).where(Room.slug == "vic"))
    assert roles_in(session, staff.id, room.id) == {"admin", "supervisor"}
    assert staff.password_hash.startswith("$argon2id$")
    audit = session.scalar(select(AuditEvent).where(AuditEvent.action == "staff.created"))
    assert audit.actor == "console" and audit.detail["roles"] == ["admin", "supervisor"]


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
        args=["staff", "create", "nowhere", "bob", "--role", "cashier", "--password", PASSWORD])
    assert out.exit_code != 0 and "no room nowhere" in out.output


def test_r61_a_short_password_is_refused_and_nothing_written(app, room, session):
    session.commit()
    out = app.test_cli_runner().invoke(
        args=["staff", "create", "main", "bob", "--role", "cashier", "--password", "short"])
    assert out.exit_code == 1 and "12 characters" in out.output and "R61" in out.output
    assert session.scalar(select(Staff.id).where(Staff.username == "bob")) is None


def test_r61_roles_reset_deactivate_and_list(app, room, session):
    """Every staff command works on the named room and ends the person's log-ins (R61, R60)."""
    session.commit()
    runner = app.test_cli_runner()
    cashier = room.staff["cashier"]
    version = cashier.session_version
    out = runner.invoke(args=["staff", "roles", "main", "main-cashier", "--role", "cashier",
                              "--role", "dealer"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(args=["staff", "reset-password", "main", "main-cashier",
                              "--password", "a-new-long-password"])
    assert out.exit_code == 0, out.output
    listed = runner.invoke(args=["staff", "list", "main"]).output
    assert "main-cashier" in listed and "cashier, dealer" in listed
    out = runner.invoke(args=["staff", "deactivate", "main", "main-cashier", "--reason", "left"])
    assert out.exit_code == 0, out.output
    assert "(deactivated)" in runner.invoke(args=["staff", "list", "main"]).output
    session.expire_all()
    assert roles_in(session, cashier.id, room.room.id) == {"cashier", "dealer"}
    assert not cashier.active and cashier.session_version == version + 3
    actions = session.scalars(select(AuditEvent.action).where(
        AuditEvent.entity_type == "staff", AuditEvent.entity_id == cashier.id,
        AuditEvent.actor == "console")).all()
    assert actions == ["staff.created", "staff.roles_changed", "staff.password_reset",
                       "staff.deactivated"]
    out = runner.invoke(args=["staff", "roles", "main", "main-cashier"])
    assert out.exit_code == 2 and "--role" in out.output  # neither roles nor --none


def test_api_token_is_stored_hashed(app, room, session):
    session.commit()
    out = app.test_cli_runner().invoke(args=["api-token", "main", "main-supervisor"])
    token = out.output.strip()
    assert out.exit_code == 0 and len(token) > 30
    session.expire_all()
    assert room.staff["supervisor"].api_token_hash == hash_token(token)
    assert room.staff["supervisor"].api_token_room_id == room.room.id


def test_api_token_only_for_a_room_the_person_works_in(app, room, session):
    other = Room_(session, room.room.created_at, "other")
    session.commit()
    out = app.test_cli_runner().invoke(args=["api-token", "other", "main-supervisor"])
    assert out.exit_code == 1 and "does not work in that room" in out.output
    assert other.staff["supervisor"].api_token_hash is None


def test_demo_loads_once_and_offers_open_seats(app, session):
    runner = app.test_cli_runner()
    first = runner.invoke(args=["demo"])
    assert first.exit_code == 0 and "supervisor" in first.output and "dealer" in first.output
    offers = session.scalar(select(func.count()).select_from(SeatHold).where(
        SeatHold.kind == "offer", SeatHold.ended_at.is_(None)))
    assert offers == 2  # R14/R20: table 2's two open seats are called at once
    assert session.scalar(select(Room.remote_entries))  # R12: players try joining from a phone
    again = runner.invoke(args=["demo"])
    assert "already has a room" in again.output and "demo --logins" in again.output
    assert session.scalar(select(func.count()).select_from(Room)) == 1


def test_r80_demo_with_history_runs_its_past_evenings_through_the_services(app, session, clock):
    """`demo --history 2`: two evenings before tonight, written as the desk would have (tables
    opened and closed, players seated, called from the lists, leaving), each audited (R60), rolled
    up for the figures (R80) with the wait each player was shown (R10-R14); then tonight's room."""
    out = app.test_cli_runner().invoke(args=["demo", "--history", "2"])
    assert out.exit_code == 0, out.output
    room = session.scalar(select(Room))
    assert room.created_at < clock.now() - timedelta(days=1)
    evenings = session.scalars(select(Table).where(Table.closed_at.is_not(None))).all()
    assert len({t.opened_at.date() for t in evenings}) == 2
    assert all(t.closed_at < clock.now() for t in evenings)
    seated = session.scalar(select(func.count()).select_from(ListEntry).where(
        ListEntry.status == "seated", ListEntry.shown_low.is_not(None)))
    assert seated > 40
    assert session.scalar(select(func.sum(FigureRoomHour.seated))) >= seated
    assert session.scalar(select(func.count()).select_from(AuditEvent).where(
        AuditEvent.action == "offer.claimed")) >= seated
    offers = session.scalar(select(func.count()).select_from(SeatHold).where(
        SeatHold.kind == "offer", SeatHold.ended_at.is_(None)))
    assert offers == 2  # tonight as without history: table 2's two open seats called


def test_demo_logins_are_printed_again_with_new_passwords(app, session):
    """Only hashes are kept (R61): `demo --logins` gives the demo staff new passwords, audited
    (R60), and prints them; the old password no longer logs in, the new one does."""
    runner = app.test_cli_runner()
    assert "no demo room" in runner.invoke(args=["demo", "--logins"]).output
    first = _logins(runner.invoke(args=["demo"]).output)
    again = _logins(runner.invoke(args=["demo", "--logins"]).output)
    assert set(again) == set(first) == {"admin", "super", "cashier", "dealer", "coordinator", "manager"}
    assert all(again[name] != first[name] for name in first)
    client = app.test_client()
    assert _log_in(client, "super", first["super"]).status_code == 401
    assert _log_in(client, "super", again["super"]).status_code == 302
    resets = session.scalars(select(AuditEvent.actor).where(AuditEvent.action == "staff.password_reset"))
    assert list(resets) == ["console"] * 6


def _logins(output: str) -> dict[str, str]:
    return {words[2]: words[4] for words in (line.split() for line in output.splitlines())
            if len(words) == 5 and words[1] == "login:"}


def _log_in(client, username: str, password: str):
    client.get("/login")
    return client.post("/login", data={"username": username, "password": password})


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
    monkeypatch.setattr("roomops.cli.running.waitress.serve",
                        lambda *_a, **_kw: frozen.append(gc.get_freeze_count()))
    try:
        out = app.test_cli_runner().invoke(args=["serve", "--port", "5999"])
    finally:
        gc.unfreeze()  # the rest of the suite runs as before
    assert out.exit_code == 0, out.output
    assert frozen and frozen[0] > 10_000


@pytest.mark.parametrize("host,port,address,to_set", [
    ("127.0.0.1", 8000, "http://localhost:8000", "--host 0.0.0.0 and set ROOMOPS_PUBLIC_URL=http://"),
    ("0.0.0.0", 5000, "http://localhost:5000", "set ROOMOPS_PUBLIC_URL=http://"),
    ("192.168.1.20", 8080, "http://192.168.1.20:8080", "ROOMOPS_PUBLIC_URL changes it"),
    ("fe80::1", 8080, "http://[fe80::1]:8080", "ROOMOPS_PUBLIC_URL changes it"),
])
def test_serve_gives_phones_its_own_address_unless_one_is_set(app, monkeypatch, host, port, address,
                                                               to_set):
    """The board's address and QR code for phones (issue 21) are the server's own when
    ROOMOPS_PUBLIC_URL is not set: `scripts/run --port 8000` does not send them to port 5000. The
    console says in one line what to set for phones to reach a server they cannot (issue 40)."""
    monkeypatch.setattr("roomops.cli.running.waitress.serve", lambda *_a, **_kw: None)
    monkeypatch.setattr("roomops.cli.running.gc.freeze", lambda: None)
    monkeypatch.delenv("ROOMOPS_PUBLIC_URL", raising=False)
    settings = app.extensions["roomops"].settings
    settings.scheduler = "off"
    out = app.test_cli_runner().invoke(args=["serve", "--host", host, "--port", str(port)])
    assert out.exit_code == 0, out.output
    line = next(line for line in out.output.splitlines() if line.startswith("phones: "))
    assert settings.public_url == address and address in line and to_set in line
    monkeypatch.setenv("ROOMOPS_PUBLIC_URL", "https://poker.example.com")
    settings.public_url = "https://poker.example.com"
    out = app.test_cli_runner().invoke(args=["serve", "--port", str(port)])
    assert settings.public_url == "https://poker.example.com" and "phones" not in out.output


def test_serve_gives_the_boards_own_streams_threads_of_their_own(app, monkeypatch):
    """Each screen on the app's own pushed stream holds a waitress thread for as long as it is
    open: `serve` adds the streams' caps (the board's and the staff screens') to the threads that
    answer requests, so a room full of TVs never leaves the desk waiting for a thread."""
    served = {}
    monkeypatch.setattr("roomops.cli.running.waitress.serve", lambda _app, **kw: served.update(kw))
    monkeypatch.setattr("roomops.cli.running.gc.freeze", lambda: None)
    app.extensions["roomops"].settings.scheduler = "off"
    out = app.test_cli_runner().invoke(args=["serve", "--threads", "4"])
    assert out.exit_code == 0, out.output
    settings = app.extensions["roomops"].settings
    streams = settings.push_streams + settings.push_staff_streams  # the staff's apart (issue 40)
    assert settings.push_streams > 0 and served["threads"] == 4 + streams


@pytest.mark.parametrize("command", ["serve", "scheduler", "push-server"])
def test_issue40_the_long_running_commands_warn_of_a_superuser_role(app, monkeypatch, db_url,
                                                                    command):
    """The tests connect to PostgreSQL as its superuser: serve, scheduler and push-server say so
    as they start (on SQLite there is no role to warn of)."""
    monkeypatch.setattr("roomops.cli.running.waitress.serve", lambda _app, **kw: None)
    monkeypatch.setattr("roomops.cli.running.gc.freeze", lambda: None)
    monkeypatch.setattr("roomops.jobs.scheduler.run_blocking", lambda _app: None)
    monkeypatch.setattr("roomops.push.server.serve", lambda *a, **kw: None)
    settings = app.extensions["roomops"].settings
    settings.scheduler, settings.push_broker = "off", "redis://127.0.0.1:6379/0"
    out = app.test_cli_runner().invoke(args=[command])
    assert out.exit_code == 0, out.output
    warned = "warning: the app connects to PostgreSQL as a superuser" in out.output
    assert warned == db_url.startswith("postgresql")
