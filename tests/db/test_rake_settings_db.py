"""Migration 0025 (R51): existing games keep their rake: the percent becomes basis points, the
smallest chip is the small blind rake rounded to before, the one-chip rule is off; the database
refuses a percent above 100% and a smallest chip that is not positive."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from roomops import migrate
from roomops.db import make_engine
from tests.databases import backends, fresh_database
from tests.db.test_schema import STAFF_BEFORE_0030, _seed

AFTER = "SELECT rake_bp, small_blind, smallest_chip, rake_min_one_chip FROM games WHERE id = :g"
BEFORE = "SELECT rake_percent FROM games WHERE id = :g"


@pytest.mark.parametrize("backend", backends())
def test_0025_moves_the_percent_to_basis_points_and_keeps_the_chip(backend, tmp_path):
    with fresh_database(backend, tmp_path, "rake") as url:
        eng = make_engine(url)
        try:
            migrate.upgrade(url, "0023")
            with eng.begin() as conn:
                game = _seed(conn, rake="rake_percent", fee="hourly_fee",
                             staff=STAFF_BEFORE_0030)["game"]
                conn.execute(text("UPDATE games SET rake_percent = 5, small_blind = 25, "
                                  "big_blind = 50 WHERE id = :g"), {"g": game})
            migrate.upgrade(url, "0025")
            with eng.begin() as conn:
                row = conn.execute(text(AFTER), {"g": game}).one()
                assert tuple(row) == (500, 25, 25, False)
                for sql in ("UPDATE games SET rake_bp = 10001", "UPDATE games SET smallest_chip = 0"):
                    with pytest.raises(IntegrityError), conn.begin_nested():
                        conn.execute(text(sql))
                conn.execute(text("UPDATE games SET rake_bp = 10000"))  # 100% is the most
            migrate.downgrade(url, "0023")
            with eng.connect() as conn:
                assert conn.execute(text(BEFORE), {"g": game}).scalar_one() == 100
            migrate.upgrade(url)
        finally:
            eng.dispose()

