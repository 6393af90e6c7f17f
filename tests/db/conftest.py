"""Fixtures of the database tests."""

from __future__ import annotations

import pytest

from tests.services.helpers import full_game


@pytest.fixture()
def marked_floor(room, session, now):
    """The per-game marks' tests (tests/db/mark_helpers.py): two games, each with a full 9-seat
    table, and a third game with nothing on it."""
    here, table = full_game(room, session, now, free=0)
    there, other = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    quiet = room.game(now, variant="Razz")
    return here, table, there, other, quiet
