"""``/health`` for a load balancer, the desk's red banner and the board's note when the sweep is
late (docs/decisions.md, "The scheduler's heartbeat"): the timers it releases (R20, R22, R24,
R26) are not being released while no scheduler sweeps."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from roomops.jobs import sweep as sweep_module
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from roomops.web import health
from tests.conftest import login
from tests.factories import Room_
from tests.units import act

LATE = "offers and breaks are not being released on time"
BOARD_LATE = "times may be late"


def _health(client):
    resp = client.get("/health")
    assert resp.headers["Cache-Control"] == "no-store"
    return resp.status_code, resp.get_json()


# ---- /health ----------------------------------------------------------------------------------


def _role_warnings(db_url: str) -> dict[str, list[str]]:
    """The tests connect to PostgreSQL as its superuser, who owns the tables: /health says so
    (issue 40); SQLite has no roles."""
    return {"warnings": ["superuser", "owns_tables"]} if db_url.startswith("postgresql") else {}


def test_healthy_after_a_sweep(client, app, room, session, clock, db_url):
    session.commit()
    sweep_once(app)
    clock.advance(seconds=15)  # at the limit: still fresh
    status, body = _health(client)
    assert status == 200
    assert body == {"status": "ok", "database": "ok", "migrations": "at_head",
                    "scheduler": {"heartbeat_age_seconds": 15, "stale": False, "rooms_failing": 0,
                                  "stale_after_seconds": 15.0}, **_role_warnings(db_url)}


def test_issue40_a_superuser_or_owner_role_is_a_warning_not_a_failure(client, app, session, db_url):
    """The app connected as a PostgreSQL superuser (here, the tests' own role) is said on /health,
    in codes, and the answer stays 200: a warning for whoever reads it, not a reason to take the
    web servers out of the load balancer."""
    session.commit()
    sweep_once(app)
    status, body = _health(client)
    assert status == 200
    assert {k: body[k] for k in body if k == "warnings"} == _role_warnings(db_url)


def test_issue40_with_a_broker_health_says_whether_a_push_server_serves(client, app, session):
    """``push``: ok while a push server's heartbeat is in Redis, else down and 503 (the screens
    would all be polling); no ``push`` without a broker (the app serves its own streams)."""
    import uuid

    import redis as redis_lib

    from roomops.push import alive
    from tests.push.conftest import REDIS

    session.commit()
    sweep_once(app)
    assert "push" not in _health(client)[1]
    settings = app.extensions["roomops"].settings
    settings.push_broker, settings.push_prefix = REDIS, f"roomops:test:{uuid.uuid4().hex}"
    server = redis_lib.Redis.from_url(REDIS)
    try:
        server.ping()
    except redis_lib.ConnectionError:
        pytest.skip("no Redis at 127.0.0.1:6379")
    status, body = _health(client)
    assert (status, body["status"], body["push"]) == (503, "unhealthy", "down")
    server.set(alive.key(settings.push_prefix), 1, ex=alive.ALIVE_SECONDS)  # a push server beat
    try:
        status, body = _health(client)
        assert (status, body["push"]) == (200, "ok")
    finally:
        server.delete(alive.key(settings.push_prefix))
        server.close()
    settings.push_broker = "redis://127.0.0.1:1/0"  # the broker itself unreachable
    status, body = _health(client)
    assert (status, body["push"]) == (503, "down")


def test_no_login_and_no_room_data(client, app, room, session):
    """Nothing but the checks: no room, no staff, no revision ids, no scheduler ids."""
    session.commit()
    app.extensions["roomops"].settings.scheduler_id = "web-host-7"
    sweep_once(app)
    resp = client.get("/health")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    for secret in (room.room.name, room.room.slug, "supervisor", "web-host-7", "0028"):
        assert secret not in resp.text


def test_503_when_the_sweep_is_late(client, app, clock):
    sweep_once(app)
    clock.advance(seconds=16)
    status, body = _health(client)
    assert (status, body["status"], body["scheduler"]) == (
        503, "unhealthy", {"heartbeat_age_seconds": 16, "stale": True, "rooms_failing": 0,
                           "stale_after_seconds": 15.0})
    assert (body["database"], body["migrations"]) == ("ok", "at_head")
    sweep_once(app)
    assert _health(client)[0] == 200


def test_503_when_no_scheduler_ever_swept(client):
    status, body = _health(client)
    assert (status, body["scheduler"]["heartbeat_age_seconds"], body["scheduler"]["stale"]) == (
        503, None, True)


def test_the_limit_is_the_deployment_setting(client, app, clock):
    app.extensions["roomops"].settings.sweep_stale_seconds = 60
    sweep_once(app)
    clock.advance(seconds=59)
    assert _health(client)[0] == 200


def test_503_when_the_migrations_are_behind(client, app, session):
    """The database one revision behind the scripts (rolled back with the test's transaction)."""
    sweep_once(app)
    session.execute(text("UPDATE alembic_version SET version_num = '0027'"))
    session.commit()
    status, body = _health(client)
    assert (status, body["migrations"]) == (503, "not_at_head")


def test_503_when_the_database_cannot_be_reached(client, monkeypatch, tmp_path):
    gone = create_engine(f"sqlite:///{tmp_path}/no/such/dir/roomops.db")
    monkeypatch.setattr(health, "db", lambda: Session(gone))
    status, body = _health(client)
    assert status == 503
    assert body == {"status": "unhealthy", "database": "unreachable", "migrations": "unknown",
                    "scheduler": {"heartbeat_age_seconds": None, "stale": True,
                                  "rooms_failing": None, "stale_after_seconds": 15.0}}
    gone.dispose()


def test_a_room_whose_sweep_fails_is_counted_and_the_deployment_stays_healthy(
        client, app, room, session, clock, monkeypatch):
    """One room's bad row must not take every room's web servers out of a load balancer: /health
    stays 200 and counts the room once its sweep has failed for longer than the limit."""
    _failing_sweep(app, room, session, clock, monkeypatch)
    assert _health(client)[1]["scheduler"]["rooms_failing"] == 0  # failing for 0 s
    clock.advance(seconds=16)
    _sweep_failing(app)
    status, body = _health(client)
    assert (status, body["scheduler"]["stale"], body["scheduler"]["rooms_failing"]) == (200, False, 1)


def _failing_sweep(app, room, session, clock, monkeypatch):
    """A room whose sweep fails (its offer expires, then the sweep breaks), swept once."""
    game = room.game(clock.now())
    room.table(clock.now(), game, "1")
    ann = room.player(clock.now(), "Ann")
    act(session, room.sup, clock.now(), lists.join, player_id=ann.id, game_id=game.id)
    session.commit()
    clock.advance(minutes=room.room.claim_minutes)
    monkeypatch.setattr(sweep_module, "release_due", _broken)
    _sweep_failing(app)


def _broken(*_args, **_kwargs):
    raise RuntimeError("a fault in this room's data")


def _sweep_failing(app):
    with pytest.raises(RuntimeError, match="this room's data"):
        sweep_once(app)


# ---- the desk: red when the sweep is late, without a reload -------------------------------------


def test_the_desk_turns_red_when_the_sweep_is_late_and_recovers(sup_client, app, clock):
    sweep_once(app)
    fresh = sup_client.get("/desk/fragment")
    assert LATE not in fresh.text and "sweep-late" not in sup_client.get("/desk").text
    clock.advance(seconds=20)
    late = sup_client.get("/desk/fragment", headers={"If-None-Match": fresh.headers["ETag"]})
    assert late.status_code == 200  # the poll redraws: the ETag knows the sweep is late
    assert "The scheduler has not swept this room for <span class=\"age\">20</span> s: " + LATE in late.text
    assert 'role="alert"' in late.text and LATE in sup_client.get("/desk").text
    clock.advance(seconds=5)  # still late: the poll is a 304, desk.js counts the seconds
    assert sup_client.get("/desk/fragment",
                          headers={"If-None-Match": late.headers["ETag"]}).status_code == 304
    sweep_once(app)
    back = sup_client.get("/desk/fragment", headers={"If-None-Match": late.headers["ETag"]})
    assert back.status_code == 200 and LATE not in back.text


def test_only_the_desk_of_the_room_whose_sweep_fails_turns_red(sup_client, client, app, room,
                                                               session, clock, monkeypatch):
    """The scheduler runs; this room's sweep fails (R22: its offer is not released): after the
    limit its desk and its board say so, counted from its last good sweep; another room's desk,
    swept each run, does not. A run in which its sweep does not fail ends it."""
    Room_(session, clock.now(), slug="annex")
    _failing_sweep(app, room, session, clock, monkeypatch)
    clock.advance(seconds=16)
    _sweep_failing(app)
    desk = sup_client.get("/desk").text
    assert "The scheduler has not swept this room for <span class=\"age\">16</span> s: " + LATE in desk
    assert 'data-late' in client.get("/board/main/live").text
    assert LATE not in login(app.test_client(), "annex-supervisor").get("/desk").text
    assert "data-late" not in client.get("/board/annex/live").text
    monkeypatch.undo()
    sweep_once(app)
    assert LATE not in sup_client.get("/desk").text


def test_the_desk_says_when_no_scheduler_ever_ran(sup_client):
    assert "The scheduler has not swept this room yet: " + LATE in sup_client.get("/desk").text


# ---- the board: a quiet note for players ---------------------------------------------------------


def test_the_board_says_times_may_be_late(client, app, room, session, clock):
    room.game(clock.now())
    session.commit()
    sweep_once(app)
    page = client.get("/board/main").text
    assert f'id="late" role="status" hidden>Call and break {BOARD_LATE}' in page
    fresh = client.get("/board/main/live")
    assert "data-late" not in fresh.text
    clock.advance(seconds=20)
    page = client.get("/board/main").text
    assert f'id="late" role="status">Call and break {BOARD_LATE}' in page
    late = client.get("/board/main/live", headers={"If-None-Match": fresh.headers["ETag"]})
    assert late.status_code == 200 and "data-late" in late.text
    sweep_once(app)
    back = client.get("/board/main/live", headers={"If-None-Match": late.headers["ETag"]})
    assert back.status_code == 200 and "data-late" not in back.text
