"""R80, migration 0056: the room's hours of all games, filled from the games' hours rolled up before
it, on every configured database; and back down."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlalchemy import text

from roomops import migrate
from roomops.figures.models import COUNTS
from tests.databases import backends, fresh_engine
from tests.db.test_money_64bit import _game

HOUR = datetime(2026, 11, 21, 20, 0)
COLUMNS = (*COUNTS, "rake", "fees")
GAME = ("room_id, variant, small_blind, big_blind, ante, min_buyin, max_buyin, seats_per_table, "
        "fee_kind, hourly_fee, rake_percent, rake_cap, straddle_allowed, max_straddles, button_straddle, "
        "status, opened_at")


def _hour(conn, game: int, room: int, value: int) -> None:
    conn.execute(text(f"INSERT INTO figure_hours (room_id, game_id, hour, {', '.join(COLUMNS)}) "
                      f"VALUES (:r, :g, :h, {', '.join(':v' for _ in COLUMNS)})"),
                 {"r": room, "g": game, "h": HOUR, "v": value})
    for bucket in (2, 3):
        conn.execute(text("INSERT INTO figure_waits (room_id, game_id, hour, measure, bucket, n) "
                          "VALUES (:r, :g, :h, 'wait', :b, :v)"),
                     {"r": room, "g": game, "h": HOUR, "b": bucket, "v": value})


@pytest.mark.parametrize("backend", backends())
def test_0056_fills_the_rooms_hours_from_its_games(backend, tmp_path):
    with fresh_engine(backend, tmp_path, "figures") as (url, eng):
        migrate.upgrade(url, "0020")
        first = _game(eng)
        with eng.begin() as conn:  # a second game of the same room, as it was at 0020
            room = conn.scalar(text("SELECT room_id FROM games WHERE id = :g"), {"g": first})
            second = conn.execute(text(
                f"INSERT INTO games ({GAME}) SELECT {GAME} FROM games WHERE id = :g RETURNING id"),
                {"g": first}).scalar_one()
        migrate.upgrade(url, "0055")
        with eng.begin() as conn:
            _hour(conn, first, room, 3)
            _hour(conn, second, room, 4)
        migrate.upgrade(url, "0056")
        with eng.connect() as conn:
            row = conn.execute(text(f"SELECT {', '.join(COLUMNS)} FROM figure_room_hours")).one()
            waits = conn.execute(text("SELECT bucket, n FROM figure_room_waits ORDER BY bucket")).all()
        assert set(row) == {7} and [tuple(w) for w in waits] == [(2, 7), (3, 7)]
        migrate.downgrade(url, "0055")
        migrate.upgrade(url)
