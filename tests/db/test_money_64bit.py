"""R52/R54, issue 18: amounts have room to grow. On every configured database, amounts up to
``MAX_AMOUNT`` (far above PostgreSQL's old int4 columns) go in through the API, and the day's
report, its counts and its close come back with totals above 2**31 as ints; the API refuses one
minor unit more with a 422 naming the field; migration 0021 widens the columns (and a downgrade
refuses to truncate)."""

from __future__ import annotations

import csv
import io
from datetime import datetime
from decimal import Decimal

import pytest
from sqlalchemy import BigInteger, inspect, select, text
from sqlalchemy.exc import DBAPIError

from roomops import migrate
from roomops.db import make_engine
from roomops.figures.models import COUNTS as FIGURE_COUNTS
from roomops.ledger import dayclose, transit
from roomops.ledger.models import DayClose, DayCount
from roomops.ledger.report import expected_by_table
from roomops.models import Base
from roomops.rooms.models import Room
from roomops.schemas import MAX_AMOUNT, MAX_TOTAL
from roomops.seating import snapshot
from tests.conftest import login
from tests.databases import backends, fresh_database
from tests.http.test_api import Api, refused, token_for

DAY = "2026-11-21"  # the gaming day of the suite's frozen clock
BIG_GAME = {"variant": "NL Hold'em", "small_blind": MAX_AMOUNT // 100, "big_blind": MAX_AMOUNT // 50,
            "ante": MAX_AMOUNT // 100, "min_buyin": MAX_AMOUNT // 2, "max_buyin": MAX_AMOUNT,
            "fee_kind": "rake", "rake_bp": 500, "rake_cap": MAX_AMOUNT}
SEATED = 3


@pytest.fixture()
def sup(client, room, session) -> Api:  # as tests/http/conftest.py's, which tests/db does not see
    return Api(client, token_for(room, session, "supervisor"))


@pytest.fixture()
def cashier(client, room, session) -> Api:
    return Api(client, token_for(room, session, "cashier"))


@pytest.fixture()
def big_table(sup) -> dict[str, int]:
    """A game at stakes near MAX_AMOUNT and one table with three players bought in for
    MAX_AMOUNT each, through the API: the day's ledger is 3 * 10**12 minor units."""
    resp = sup.post("/games", BIG_GAME)
    assert resp.status_code == 201, resp.text
    game = resp.json
    assert {k: game[k] for k in BIG_GAME} == BIG_GAME
    table = sup.post("/tables", {"game_id": game["id"], "name": "1"}).json["id"]
    holds = []
    for seat in range(1, SEATED + 1):
        player = sup.post("/players", {"first_name": f"High{seat}"}).json["id"]
        resp = sup.post("/seats", {"table_id": table, "seat_no": seat, "player_id": player,
                                   "buy_in": MAX_AMOUNT})
        assert resp.status_code == 201, resp.text
        assert resp.json["buy_in"] == MAX_AMOUNT
        holds.append(resp.json["id"])
    return {"game": game["id"], "table": table, "hold": holds[0]}


def _ints(*values: object) -> bool:
    return all(type(v) is int for v in values)


def test_amounts_above_int4_through_the_report_counts_and_close(sup, cashier, big_table, room,
                                                                 session, now, clock):
    total = SEATED * MAX_AMOUNT
    assert total > 2**31
    # R31: two transits of MAX_AMOUNT for one seat: 2 * 10**12 playing behind (a sum of slips)
    for _ in range(2):
        resp = cashier.post("/transits", {"hold_id": big_table["hold"], "amount": MAX_AMOUNT})
        assert resp.status_code == 201 and resp.json["amount"] == MAX_AMOUNT, resp.text
    behind = transit.behind_at_table(session, big_table["table"])
    assert behind == {1: 2 * MAX_AMOUNT} and _ints(*behind.values())
    seat = next(s for g in snapshot.load(session, room.room.id, now).games for t in g.tables
                if t.table.id == big_table["table"] for s in t.seats if s.seat_no == 1)
    assert seat.behind == 2 * MAX_AMOUNT and _ints(seat.behind)

    # the report's sums are ints (PostgreSQL's sum(bigint) is NUMERIC, a Decimal)
    rep = dayclose.report(session, session.get_one(Room, room.room.id), now.date(), None)
    lines = [rep.total, *rep.by_table, *rep.by_game, *rep.by_kind, *rep.by_method, *rep.by_staff,
             *rep.by_shift]
    assert rep.total.amount == total and _ints(*(x.amount for x in lines), *(x.entries for x in lines))
    expected = expected_by_table(session, room.room.id, now.date())
    assert expected == {big_table["table"]: total, None: total} and _ints(*expected.values())
    resp = cashier.get(f"/ledger/days/{DAY}/report")
    assert resp.status_code == 200, resp.text
    assert f'"amount":{total}' in resp.text.replace(" ", "")  # a JSON integer, not "3e12" or 3e12.0
    body = resp.json
    assert body["reconciled"] and body["total"]["amount"] == total and _ints(body["total"]["amount"])
    assert [x["amount"] for x in body["by_table"]] == [total]

    # R54: both count exactly (the total above MAX_AMOUNT: a count is of a total), then close
    counts = {"counts": [{"table_id": big_table["table"], "counted": total}, {"counted": total}]}
    for who in (cashier, sup):
        resp = who.post(f"/ledger/days/{DAY}/counts", counts)
        assert resp.status_code == 201, resp.text
        assert [(c["counted"], c["expected"], c["variance"]) for c in resp.json["counts"]] == [
            (total, total, 0)] * 2
    clock.advance(hours=10)  # 06:00: the gaming day has ended and closes (R54)
    done = cashier.post(f"/ledger/days/{DAY}/close", {"second_staff_id": room.staff["supervisor"].id})
    assert done.status_code == 201, done.text
    assert (done.json["expected_total"], done.json["counted_total"]) == (total, total)

    session.expire_all()
    close = session.scalars(select(DayClose).where(DayClose.room_id == room.room.id)).one()
    assert (close.expected_total, close.counted_total) == (total, total)
    assert _ints(close.expected_total, close.counted_total)
    stored = session.scalars(select(DayCount).where(DayCount.room_id == room.room.id)).all()
    assert {(c.counted, c.expected) for c in stored} == {(total, total)}
    after = cashier.get(f"/ledger/days/{DAY}/report").json
    assert (after["closed"], after["as_closed"], after["close"]["expected_total"]) == (True, True, total)
    rows = list(csv.reader(io.StringIO(cashier.client.get(
        f"/desk/cage/days/{DAY}/report.csv", headers=cashier.headers).text)))
    assert ["total", "", "total", str(SEATED), f"{Decimal(total).scaleb(-2):f}"] in rows


def test_the_pages_show_amounts_above_int4(client, sup, big_table, room):
    """The board and the cage's report read the same columns and sums: neither fails on them."""
    assert client.get(f"/board/{room.room.slug}").status_code == 200
    page = login(client, "main-cashier").get(f"/desk/cage/days/{DAY}/report")
    assert page.status_code == 200, page.text


@pytest.mark.parametrize("path,payload,field", [
    ("/games", {**BIG_GAME, "max_buyin": MAX_AMOUNT + 1}, "max_buyin"),
    ("/games", {**BIG_GAME, "rake_cap": MAX_AMOUNT + 1}, "rake_cap"),
    ("/games", {**BIG_GAME, "rake_schedule": [{"pot": MAX_AMOUNT + 1, "rake": 1}]}, "rake_schedule"),
])
def test_the_api_refuses_one_minor_unit_more_naming_the_field(sup, path, payload, field):
    body = refused(sup.post(path, payload), 422, "R51" if field.startswith("rake_s") else "R4")
    assert field in body["error"] and str(MAX_AMOUNT) in body["error"]


def test_money_bodies_refuse_over_max_amount_naming_the_field(sup, cashier, big_table):
    over = MAX_AMOUNT + 1
    hold = big_table["hold"]
    cases = [
        (sup.patch(f"/games/{big_table['game']}", {"small_blind": over}), "small_blind", "R6"),
        (sup.post(f"/seats/{hold}/leave", {"leave_amount": over}), "leave_amount", "R27"),
        (sup.post(f"/seats/{hold}/break", {"stack": over}), "stack", "R23"),
        (cashier.post("/ledger/add-ons", {"hold_id": hold, "amount": over}), "amount", "R28"),
        (cashier.post("/transits", {"hold_id": hold, "amount": over}), "amount", "R31"),
        (sup.post(f"/tables/{big_table['table']}/hands/1/rake",
                  {"pot": over, "flop": True, "rake": 1}), "pot", "R51"),
        (cashier.post(f"/ledger/days/{DAY}/counts", {"counts": [{"counted": MAX_TOTAL + 1}]}),
         "counted", "R54"),
        (cashier.post(f"/ledger/days/{DAY}/counts", {"counts": [{"counted": -MAX_TOTAL - 1}]}),
         "counted", "R54"),
    ]
    for resp, field, rule in cases:
        body = refused(resp, 422, rule)
        assert field in body["error"], body


# -- the migration ---------------------------------------------------------------------------------

WIDE = 2**31  # one more than an int4 holds


@pytest.mark.parametrize("backend", backends())
def test_0021_widens_every_amount_column(backend, tmp_path):
    """Before 0021 PostgreSQL refuses an amount above int4 (the failure issue 18 reports); after
    it, every column 0021 lists holds one, and going back down refuses to truncate it. SQLite's
    INTEGER held it all along, and keeps its tables (and their triggers) as they were."""
    money = _money_columns()
    postgres = backend == "postgresql"
    with fresh_database(backend, tmp_path, "money") as url:
        eng = make_engine(url)
        try:
            migrate.upgrade(url, "0020")
            game = _game(eng)
            with eng.connect() as conn, conn.begin() as update:
                if postgres:  # int4
                    with pytest.raises(DBAPIError, match="out of range"):
                        _widen(conn, game)
                else:
                    _widen(conn, game)
                update.rollback()
            triggers = _sqlite_triggers(eng) if not postgres else None
            migrate.upgrade(url, "0021")
            eng.dispose()
            columns = {t: {c["name"]: c["type"] for c in inspect(eng).get_columns(t)} for t in money}
            for table, names in money.items():
                for name in names:
                    assert columns[table][name].python_type is int
                    assert (type(columns[table][name]).__name__ == "BIGINT") == postgres, (table, name)
            if not postgres:
                assert _sqlite_triggers(eng) == triggers  # nothing rebuilt
            with eng.begin() as conn:
                _widen(conn, game)
                assert conn.execute(text("SELECT big_blind FROM games WHERE id = :g"),
                                    {"g": game}).scalar_one() == WIDE
            if postgres:
                with pytest.raises(DBAPIError, match="out of range"):
                    migrate.downgrade(url, "0020")
            with eng.begin() as conn:
                conn.execute(text("UPDATE games SET small_blind = 1, big_blind = 2 WHERE id = :g"),
                             {"g": game})
            migrate.downgrade(url, "0020")
            migrate.upgrade(url)
        finally:
            eng.dispose()


# amount columns added after 0021 by migrations that make them 64-bit themselves (0023, 0025-0027,
# 0034, 0052)
BORN_64BIT = {("rooms", "cash_out_approval_over"), ("games", "smallest_chip"), ("games", "drop_fee"),
              ("playovers", "leave_amount"), ("rooms", "return_tolerance"),
              ("list_entries", "lockup_deposit"), ("toke_counts", "amount"), ("toke_shares", "share"),
              # R80: the figures' rollups (0054), their counts and money 64-bit from the start
              *((table, c) for table in ("figure_hours", "figure_room_hours")  # and 0056
                for c in (*FIGURE_COUNTS, "rake", "fees")),
              # R67-R70: the jackpots' amounts (0057)
              ("jackpot_schemes", "drop_amount"), ("jackpot_schemes", "threshold"),
              ("jackpot_schemes", "camera_threshold"), ("jackpot_schemes", "cheque_threshold"),
              ("jackpot_rows", "amount"), ("jackpot_rows", "fee"), ("jackpot_decisions", "prize"),
              ("jackpot_decisions", "camera_threshold"), ("jackpot_box_counts", "counted"),
              ("jackpot_box_counts", "expected")}
# amount columns renamed after 0021, by their names there (0026)
RENAMED = {("games", "time_fee"): "hourly_fee"}


MARKS = ("board_marks", "room_marks", "desk_marks")  # counters, not amounts


def _money_columns() -> dict[str, set[str]]:
    """The models' amount columns (``roomops.db.Minor``), which are the ones 0021 widens, by their
    names at 0021."""
    from importlib import import_module

    found: dict[str, set[str]] = {}
    for table in Base.metadata.sorted_tables:
        for column in table.columns:
            if (isinstance(column.type, BigInteger) and table.name not in MARKS
                    and (table.name, column.name) not in BORN_64BIT):
                found.setdefault(table.name, set()).add(
                    RENAMED.get((table.name, column.name), column.name))
    listed = import_module("migrations.versions.0021_money_64bit").MONEY
    assert found == {t: set(c) for t, c in listed.items()}
    return found


def _game(eng) -> int:
    now = datetime(2026, 11, 21, 20, 0)
    with eng.begin() as conn:
        room = conn.execute(text(
            "INSERT INTO rooms (slug, name, timezone, gaming_day_start, display_name, claim_minutes, "
            "on_claim_expiry, checkin_minutes, auto_offer, placement, created_at) VALUES ('m', 'M', "
            "'UTC', '06:00:00', 'full', 10, 'remove', 30, true, 'most_need', :n) RETURNING id"),
            {"n": now}).scalar_one()
        return conn.execute(text(
            "INSERT INTO games (room_id, variant, small_blind, big_blind, ante, min_buyin, "
            "max_buyin, seats_per_table, fee_kind, hourly_fee, rake_percent, rake_cap, "
            "straddle_allowed, max_straddles, button_straddle, status, opened_at) VALUES (:r, 'NL', "
            "1, 2, 0, 100, 400, 9, 'none', 0, 0, 0, false, 0, false, 'open', :n) RETURNING id"),
            {"r": room, "n": now}).scalar_one()


def _widen(conn, game: int) -> None:
    conn.execute(text("UPDATE games SET small_blind = :w, big_blind = :w WHERE id = :g"),
                 {"w": WIDE, "g": game})


def _sqlite_triggers(eng) -> list[tuple[str, str]]:
    with eng.connect() as conn:
        return [tuple(r) for r in conn.execute(text(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name"))]


def test_max_amount_leaves_room_for_a_day_of_sums():
    """9 million rows of MAX_AMOUNT sum in 64 bits, and one amount is exact as a JSON number in
    any client (below 2**53)."""
    assert 9_000_000 * MAX_AMOUNT < 2**63 - 1 and MAX_AMOUNT < 2**53
