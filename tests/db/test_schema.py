"""The schema: migrations match the models, migrate both ways, and enforce the invariants (R60)."""

from __future__ import annotations

from datetime import datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops import migrate
from roomops.db import make_engine
from roomops.models import Base
from tests.databases import backends, fresh_database

NOW = datetime(2026, 11, 21, 20, 0)


def test_models_and_migrations_do_not_drift(engine):
    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(ctx, Base.metadata)
    assert diff == []


@pytest.mark.parametrize("backend", backends())
def test_upgrade_downgrade_upgrade(backend, tmp_path):
    with fresh_database(backend, tmp_path, "updown") as url:
        eng = make_engine(url)
        try:
            migrate.upgrade(url)
            tables = set(inspect(eng).get_table_names())
            assert set(Base.metadata.tables) <= tables
            migrate.downgrade(url)
            eng.dispose()
            assert set(inspect(eng).get_table_names()) <= {"alembic_version"}
            migrate.upgrade(url)
            eng.dispose()
            assert set(Base.metadata.tables) <= set(inspect(eng).get_table_names())
            with eng.connect() as conn:  # the append-only triggers are back too
                _seed(conn)
                with pytest.raises(DBAPIError):
                    conn.execute(text("UPDATE audit_events SET actor = 'x'"))
        finally:
            eng.dispose()


@pytest.mark.parametrize("backend", backends())
def test_upgrade_a_database_that_holds_a_room(backend, tmp_path):
    """A room already running (rows referencing ``rooms``, foreign keys on) upgrades from the first
    released schema to the newest: no migration may rebuild a table others point at."""
    with fresh_database(backend, tmp_path, "populated") as url:
        eng = make_engine(url)
        try:
            migrate.upgrade(url, "0002")
            with eng.begin() as conn:
                ids = _seed(conn, rake="rake_percent", fee="hourly_fee", staff=STAFF_BEFORE_0030)
            migrate.upgrade(url)
            with eng.connect() as conn:  # 0030: the staff member's room and role became a row
                assert conn.execute(text("SELECT room_id, role FROM staff_roles WHERE staff_id = :s"),
                                    {"s": ids["staff"]}).all() == [(ids["room"], "supervisor")]
        finally:
            eng.dispose()


# -- invariants in the database itself, with raw SQL that bypasses the services -----------------

def _seed(conn: Connection, rake: str = "rake_bp", fee: str = "time_fee",
          staff: str | None = None) -> dict[str, int]:
    def ins(sql: str, **kw) -> int:
        return conn.execute(text(sql + " RETURNING id"), kw).scalar_one()

    room = ins("INSERT INTO rooms (slug, name, timezone, gaming_day_start, display_name, "
               "claim_minutes, on_claim_expiry, checkin_minutes, auto_offer, placement, created_at) "
               "VALUES (:s, 'R', 'UTC', '06:00:00', 'full', 10, 'remove', 30, :t, 'most_need', :n)",
               s=f"raw{id(conn)}", t=True, n=NOW)
    staff_id = ins(staff or _STAFF, r=room, u=f"raw{id(conn)}", t=True, n=NOW)
    if staff is None:
        conn.execute(text("INSERT INTO staff_roles (staff_id, room_id, role, granted_at) "
                          "VALUES (:s, :r, 'supervisor', :n)"), dict(s=staff_id, r=room, n=NOW))
    game = ins(_GAME_AT.format(rake=rake, fee=fee), r=room, seats=9, minb=100, n=NOW)
    table = ins("INSERT INTO tables (room_id, game_id, name, status, opened_at) "
                "VALUES (:r, :g, '1', 'open', :n)", r=room, g=game, n=NOW)
    players = [ins("INSERT INTO players (room_id, first_name, last_name, created_at) "
                   "VALUES (:r, :f, '', :n)", r=room, f=f"P{i}", n=NOW) for i in range(3)]
    entry = ins(_ENTRY, r=room, p=players[0], g=game, n=NOW)
    ins("INSERT INTO audit_events (room_id, at, actor, action, entity_type, entity_id, detail) "
        "VALUES (:r, :n, 'x', 'test', 'room', :r, '{}')", r=room, n=NOW)
    return dict(room=room, staff=staff_id, game=game, table=table, p0=players[0], p1=players[1],
                p2=players[2], entry=entry)


_STAFF = ("INSERT INTO staff (username, display_name, password_hash, active, created_at) "
          "VALUES (:u, 'S', 'x', :t, :n)")
# a staff member had one room and one role until 0030
STAFF_BEFORE_0030 = ("INSERT INTO staff (room_id, username, display_name, role, password_hash, "
                      "active, created_at) VALUES (:r, :u, 'S', 'supervisor', 'x', :t, :n)")
# the rake and fee columns' names at the revision: rake_percent until 0025 made it basis points,
# hourly_fee until 0026 made it the time fee of an hourly or half-hourly game
_GAME_AT = ("INSERT INTO games (room_id, variant, small_blind, big_blind, ante, min_buyin, max_buyin, "
            "seats_per_table, fee_kind, {fee}, {rake}, rake_cap, straddle_allowed, "
            "max_straddles, button_straddle, status, opened_at) VALUES (:r, 'NL', 1, 2, 0, :minb, 400, "
            ":seats, 'none', 0, 0, 0, false, 0, false, 'open', :n)")
_GAME = _GAME_AT.format(rake="rake_bp", fee="time_fee")
_ENTRY = ("INSERT INTO list_entries (room_id, player_id, kind, game_id, table_id, source, joined_at, "
          "queue_at, status) VALUES (:r, :p, 'waiting', :g, NULL, 'in_person', :n, :n, 'active')")
_HOLD = ("INSERT INTO seat_holds (room_id, table_id, seat_no, player_id, kind, entry_id, started_at, "
         "deadline, buy_in) VALUES (:r, :t, :s, :p, :k, :e, :n, :d, :b)")


@pytest.fixture()
def raw(connection):
    return connection, _seed(connection)


def _offer(ids, seat, player, entry=None):
    return dict(r=ids["room"], t=ids["table"], s=seat, p=ids[player], k="offer",
                e=entry or ids["entry"], n=NOW, d=NOW, b=None)


def _seated(ids, seat, player):
    return dict(r=ids["room"], t=ids["table"], s=seat, p=ids[player], k="seated", e=None, n=NOW,
                d=None, b=100)


def _refused(conn: Connection, sql: str, **kw) -> None:
    sp = conn.begin_nested()
    with pytest.raises(IntegrityError):
        conn.execute(text(sql), kw)
    sp.rollback()


def test_db_one_live_hold_per_seat(raw):
    conn, ids = raw
    conn.execute(text(_HOLD), _seated(ids, 1, "p0"))
    _refused(conn, _HOLD, **_offer(ids, 1, "p1"))
    _refused(conn, _HOLD, **_seated(ids, 1, "p1"))
    conn.execute(text("UPDATE seat_holds SET ended_at = :n, outcome = 'left'"), {"n": NOW})
    conn.execute(text(_HOLD), _seated(ids, 1, "p1"))  # an ended hold frees the seat


def test_db_one_live_seat_per_player_in_a_room(raw):
    conn, ids = raw
    conn.execute(text(_HOLD), _seated(ids, 1, "p0"))
    _refused(conn, _HOLD, **_seated(ids, 2, "p0"))
    conn.execute(text(_HOLD), _offer(ids, 2, "p0"))  # a seated player may hold an offer (R10)


def test_db_one_open_offer_per_player(raw):
    conn, ids = raw
    conn.execute(text(_HOLD), _offer(ids, 1, "p0"))
    _refused(conn, _HOLD, **_offer(ids, 2, "p0"))


def test_db_one_active_entry_per_list(raw):
    conn, ids = raw
    _refused(conn, _ENTRY, r=ids["room"], p=ids["p0"], g=ids["game"], n=NOW)
    reserve = _ENTRY.replace("'waiting', :g, NULL", "'reserve', :g, :t")
    conn.execute(text(reserve), dict(r=ids["room"], p=ids["p0"], g=ids["game"], t=ids["table"], n=NOW))
    _refused(conn, reserve, r=ids["room"], p=ids["p0"], g=ids["game"], t=ids["table"], n=NOW)
    conn.execute(text("UPDATE list_entries SET status = 'removed', ended_at = :n"), {"n": NOW})
    conn.execute(text(_ENTRY), dict(r=ids["room"], p=ids["p0"], g=ids["game"], n=NOW))


@pytest.mark.parametrize("sql,kw", [
    (_GAME, {"seats": 8, "minb": 100}),
    (_GAME, {"seats": 9, "minb": -5}),
    (_GAME, {"seats": 9, "minb": 500}),  # above the maximum buy-in
])
def test_db_game_check_constraints(raw, sql, kw):
    conn, ids = raw
    _refused(conn, sql, r=ids["room"], n=NOW, **kw)


def test_db_hold_check_constraints(raw):
    conn, ids = raw
    _refused(conn, _HOLD, **{**_seated(ids, 1, "p0"), "b": 0})  # seated with no buy-in
    _refused(conn, _HOLD, **{**_seated(ids, 11, "p0")})  # no seat 11
    _refused(conn, _HOLD, **{**_offer(ids, 1, "p0"), "d": None})  # an offer without a deadline
    _refused(conn, _HOLD.replace(":k", "'ghost'"), **_seated(ids, 1, "p0"))


_OVER = ("INSERT INTO seat_holds (room_id, table_id, seat_no, player_id, kind, started_at, buy_in, "
         "over_reason, ended_at, outcome) VALUES (:r, :t, :s, :p, 'seated', :n, 100, :why, :e, :o)")


def test_r4_db_extra_seat_only_with_its_reason_and_none_beyond(raw):
    """R4 (issue 20, migration 0035's trigger): at a 9-seat table seat 10 is held only with the
    floor's reason on the row, seat 11 never while live; an ended hold is history."""
    conn, ids = raw
    over = dict(r=ids["room"], t=ids["table"], p=ids["p0"], n=NOW, e=None, o=None)
    _refused(conn, _OVER, **over, s=10, why=None)
    _refused(conn, _OVER, **over, s=10, why="  ")
    _refused(conn, _OVER, **over, s=11, why="busy night")
    hold = conn.execute(text(_OVER + " RETURNING id"), {**over, "s": 10, "why": "busy night"}
                        ).scalar_one()
    _refused(conn, "UPDATE seat_holds SET over_reason = NULL WHERE id = :h", h=hold)
    _refused(conn, "UPDATE seat_holds SET seat_no = 11 WHERE id = :h", h=hold)
    conn.execute(text(_OVER), {**over, "p": ids["p1"], "s": 9, "why": None})  # seats 1..N as ever


def test_db_release_cause_only_on_a_released_seat(raw):
    """R27 (issue 20): a release cause is one of the known ones, on a seat the room released."""
    conn, ids = raw
    seat = conn.execute(text(_HOLD + " RETURNING id"), _seated(ids, 1, "p0")).scalar_one()
    ending = "UPDATE seat_holds SET ended_at = :n, outcome = :o, release_cause = :c WHERE id = :h"
    _refused(conn, ending, n=NOW, o="left", c="break", h=seat)
    _refused(conn, ending, n=NOW, o="released", c="tired", h=seat)
    conn.execute(text(ending), {"n": NOW, "o": "released", "c": "break", "h": seat})


_MOVE_OFFER = ("INSERT INTO seat_holds (room_id, table_id, seat_no, player_id, kind, from_hold_id, "
               "started_at, deadline) VALUES (:r, :t, :s, :p, 'offer', :f, :n, :n)")


def test_db_must_move_offer_names_the_seat_to_move_from(raw):
    """R17: an offer has a list entry or a seat to move from, one live must-move offer per seat;
    a table never feeds itself."""
    conn, ids = raw
    seat = conn.execute(text(_HOLD + " RETURNING id"), _seated(ids, 1, "p0")).scalar_one()
    kw = dict(r=ids["room"], t=ids["table"], s=2, p=ids["p0"], n=NOW)
    _refused(conn, _MOVE_OFFER, **kw, f=None)  # neither an entry nor a seat to move from
    conn.execute(text(_MOVE_OFFER), {**kw, "f": seat})
    _refused(conn, _MOVE_OFFER, **{**kw, "s": 3, "p": ids["p1"]}, f=seat)
    _refused(conn, "UPDATE seat_holds SET from_hold_id = id WHERE id = :f", f=seat)
    _refused(conn, "UPDATE tables SET feeds_table_id = id WHERE id = :t", t=ids["table"])


def test_db_entry_check_constraints(raw):
    conn, ids = raw
    kw = dict(r=ids["room"], p=ids["p1"], g=ids["game"], n=NOW)
    _refused(conn, _ENTRY.replace("'waiting', :g, NULL", "'reserve', :g, NULL"), **kw)
    _refused(conn, _ENTRY.replace("'active')", "'removed')"), **kw)  # ended with no end time


def test_r60_audit_events_refuse_update_and_delete(raw):
    conn, _ids = raw
    for sql in ("UPDATE audit_events SET actor = 'forged'", "DELETE FROM audit_events"):
        sp = conn.begin_nested()
        with pytest.raises(DBAPIError) as err:
            conn.execute(text(sql))
        assert "append-only" in str(err.value)
        sp.rollback()
    assert conn.execute(text("SELECT count(*) FROM audit_events WHERE actor = 'forged'")).scalar() == 0
