"""R3, R5, R6: tables, games and policy on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from roomops.errors import Conflict, Forbidden
from roomops.games import services as games
from roomops.holds import queries
from roomops.lists import services as lists
from roomops.rooms.services import update_policy
from roomops.seating import closing, seats
from tests.services.helpers import audits, fill_table, full_game, live_offer
from tests.units import act

S = timedelta(seconds=1)


def test_r5_close_table_refused_while_players_are_seated(room, session, now):
    _game, table = full_game(room, session, now, free=8)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now, closing.close_table, table.id)
    assert err.value.rule == "R5"
    assert table.status == "open"


def test_r5_close_table_cancels_offers_and_ends_its_reserve_list(room, session, now):
    game = room.game(now)
    t1 = room.table(now, game, "1")
    fill_table(room, session, now, game, t1, free=0)
    t2 = room.table(now, game, "2")
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    reserve = act(session, room.sup, now, lists.join, player_id=a.id, table_id=t2.id)
    waiting = act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    oa, ob = live_offer(session, a.id), live_offer(session, b.id)
    assert oa.table_id == t2.id and ob.table_id == t2.id
    act(session, room.sup, now + 2 * S, closing.close_table, t2.id)
    session.flush()
    session.expire_all()
    assert (t2.status, t2.closed_at) == ("closed", now + 2 * S)
    assert (oa.outcome, ob.outcome) == ("cancelled", "cancelled")
    assert (reserve.status, reserve.end_reason) == ("removed", "table closed")
    assert waiting.status == "active"  # a cancelled offer is not a missed call
    (row,) = audits(session, "table.closed")
    assert sorted(row.detail["cancelled_offers"]) == sorted([oa.id, ob.id])
    with pytest.raises(Conflict):
        act(session, room.sup, now + 3 * S, closing.close_table, t2.id)


def test_r5_r14_close_table_offers_open_seats_elsewhere_to_cancelled_players(room, session, now):
    game = room.game(now)
    t1 = room.table(now, game, "1")
    fill_table(room, session, now, game, t1, free=0)
    b = room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=b.id, game_id=game.id)
    t2 = room.table(now + S, game, "2")
    assert live_offer(session, b.id).table_id == t2.id
    act(session, room.sup, now + 2 * S, seats.leave, queries.live_holds(session, [t1.id])[0].id, 0)
    act(session, room.sup, now + 3 * S, closing.close_table, t2.id)
    offer = live_offer(session, b.id)
    assert offer is not None and offer.table_id == t1.id


def test_r5_close_game_refused_with_open_tables_then_ends_its_list(room, session, now):
    game, table = full_game(room, session, now, free=9)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
    act(session, room.sup, now + S, closing.close_table, table.id)  # cancels Ann's offer
    t2 = room.table(now + S, game, "2")
    act(session, room.sup, now + S, closing.close_table, t2.id)
    t3 = room.table(now + 2 * S, game, "3")
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + 2 * S, closing.close_game, game.id)
    assert err.value.rule == "R5"
    act(session, room.sup, now + 3 * S, closing.close_table, t3.id)
    act(session, room.sup, now + 4 * S, closing.close_game, game.id)
    session.flush()
    session.expire_all()
    assert (game.status, game.closed_at) == ("closed", now + 4 * S)
    assert (entry.status, entry.end_reason) == ("removed", "game closed")
    assert len(audits(session, "game.closed")) == 1
    with pytest.raises(Conflict):
        act(session, room.sup, now + 5 * S, closing.close_game, game.id)
    with pytest.raises(Conflict):
        act(session, room.sup, now + 5 * S, games.open_table, game.id, "9")


def test_r5_table_names_unique_among_open_tables(room, session, now):
    game = room.game(now)
    t = room.table(now, game, "7")
    with pytest.raises(Conflict):
        room.table(now, game, "7")
    act(session, room.sup, now, closing.close_table, t.id)
    assert room.table(now + S, game, "7").status == "open"


def test_r6_game_change_audited_with_before_and_after(room, session, now):
    game = room.game(now)
    act(session, room.sup, now + S, games.update_game, game.id, min_buyin=20000, max_buyin=60000)
    assert (game.min_buyin, game.max_buyin) == (20000, 60000)
    (row,) = audits(session, "game.changed")
    assert row.detail["before"] == {"min_buyin": 10000, "max_buyin": 40000}
    assert row.detail["after"] == {"min_buyin": 20000, "max_buyin": 60000}
    assert (row.actor, row.actor_id, row.at) == (room.sup.label, room.sup.staff_id, now + S)
    with pytest.raises(Forbidden):
        act(session, room.actor("cashier"), now, games.update_game, game.id, max_buyin=1)


def test_r3_policy_change_audited_with_before_and_after(room, session, now):
    act(session, room.sup, now + S, update_policy, claim_minutes=5, on_claim_expiry="bottom")
    assert (room.room.claim_minutes, room.room.on_claim_expiry) == (5, "bottom")
    (row,) = audits(session, "policy.changed")
    assert row.detail["before"] == {"claim_minutes": "10", "on_claim_expiry": "remove"}
    assert row.detail["after"] == {"claim_minutes": "5", "on_claim_expiry": "bottom"}
    assert row.actor == room.sup.label and row.at == now + S
    with pytest.raises(Forbidden) as err:
        act(session, room.actor("cashier"), now, update_policy, claim_minutes=1)
    assert err.value.rule == "R61"


def test_r3_claim_minutes_policy_sets_the_deadline(room, session, now):
    act(session, room.sup, now, update_policy, claim_minutes=3)
    game, _ = full_game(room, session, now, free=1)
    p = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    assert live_offer(session, p.id).deadline == now + timedelta(minutes=3)
