"""Migration 0045 on every configured database: playovers that ended with no leave amount (before
issue 40 seating an overplayer elsewhere, the sweep or the owner leaving recorded none) get one,
the cage's cash-out where it paid one, else the chips their ledger rows hold; then the check
``ck_playovers_leave_amount`` holds (R29, R27, R52), and the downgrade keeps the amounts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from roomops import migrate
from roomops.absences import services as absences
from roomops.db import make_engine, make_sessionmaker
from roomops.holds.models import SeatHold
from roomops.ledger import cash_outs
from roomops.ledger import services as ledger
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from tests.databases import backends, fresh_database
from tests.factories import Room_
from tests.services.helpers import full_game
from tests.units import act

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
AT = NOW + timedelta(hours=1)


def _two_ended_playovers(session) -> tuple[int, int]:
    """Wes played over seat 1 and was cashed out 90.00 at the cage; Xi played over seat 2 with
    100.00 and a 10.00 add-on, not cashed out yet. Made on the newest schema (the models' own),
    so their leave amounts are still to be taken away as before 0045."""
    room = Room_(session, NOW)
    game, table = full_game(room, session, NOW, free=0)
    holds = list(session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)
                                 .order_by(SeatHold.seat_no)))
    for name in ("Wes", "Xi"):
        act(session, room.sup, NOW, lists.join, player_id=room.player(NOW, name, "Over").id,
            game_id=game.id)
    ids = []
    for hold in holds[:2]:
        act(session, room.sup, AT, absences.grant_break, hold.id, 5000)
        ids.append(act(session, room.sup, AT, playovers.start_playover, hold.id, buy_in=10000).id)
    act(session, room.actor("cashier"), AT, ledger.add_on, holds[1].id, 1000, "table",
        playover_id=ids[1])
    for hold, stack in zip(holds[:2], (9000, 7000), strict=True):
        act(session, room.sup, AT, playovers.stop_playover, hold.id, stack)
    act(session, room.actor("cashier"), AT, cash_outs.cash_out, holds[0].id, 9000, playover_id=ids[0])
    session.commit()
    return ids[0], ids[1]


@pytest.mark.parametrize("backend", backends())
def test_0045_gives_ended_playovers_a_leave_amount_then_checks_it(backend, tmp_path):
    with fresh_database(backend, tmp_path, "counted") as url:
        eng = make_engine(url)
        try:
            migrate.upgrade(url)
            with make_sessionmaker(eng)() as session:
                paid, unpaid = _two_ended_playovers(session)
            migrate.downgrade(url, "0043")
            with eng.begin() as conn:  # as before 0045
                conn.execute(text("UPDATE playovers SET leave_amount = NULL"))
            migrate.upgrade(url)
            amounts = "SELECT id, leave_amount FROM playovers ORDER BY id"
            with eng.connect() as conn:
                assert conn.execute(text(amounts)).all() == [(paid, 9000), (unpaid, 11000)]
            with eng.connect() as conn, pytest.raises(IntegrityError, match="leave_amount"):
                conn.execute(text("UPDATE playovers SET leave_amount = NULL"))
            migrate.downgrade(url, "0043")
            with eng.begin() as conn:
                assert conn.execute(text(amounts)).all() == [(paid, 9000), (unpaid, 11000)]
                conn.execute(text("UPDATE playovers SET leave_amount = NULL"))  # the old check
            migrate.upgrade(url)
        finally:
            eng.dispose()
