"""R1 (rooms), R61 (roles) and R60 (audit) across the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.errors import Forbidden, NotFound
from roomops.games import services as games
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.rooms.services import add_player, bar_pair
from roomops.seating import closing, offers, seats
from tests.factories import Room_
from tests.services.helpers import full_game, live_offer
from tests.units import act, sweep

S = timedelta(seconds=1)


@pytest.fixture()
def world(room, session, now):
    """Our room with a game, a full table (seat 9 called to Ann) and Bob waiting; another room."""
    game, table = full_game(room, session, now, free=1)
    ann, bob = room.player(now, "Ann"), room.player(now, "Bob")
    ea = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)
    eb = act(session, room.sup, now + S, lists.join, player_id=bob.id, game_id=game.id)
    seat = session.scalars(select(SeatHold).where(SeatHold.table_id == table.id,
                                                  SeatHold.kind == "seated")).first()
    return dict(game=game, table=table, ann=ann, bob=bob, ea=ea, eb=eb, seat=seat,
                offer=live_offer(session, ann.id))


def _calls(session, now, w):
    """Every floor action, each as (name, callable taking an actor)."""
    return [
        ("join", lambda a: act(session, a, now, lists.join, player_id=w["bob"].id, table_id=w["table"].id)),
        ("join_game", lambda a: act(session, a, now, lists.join, player_id=w["bob"].id,
                                    game_id=w["game"].id)),
        ("check_in", lambda a: act(session, a, now, lists.check_in, w["eb"].id)),
        ("remove", lambda a: act(session, a, now, lists.remove, w["eb"].id, "why")),
        ("reorder", lambda a: act(session, a, now, lists.reorder, w["eb"].id, 1, "why")),
        ("offer_by_hand", lambda a: act(session, a, now, offers.offer_by_hand, table_id=w["table"].id,
                                        seat_no=9, entry_id=w["eb"].id, reason="x")),
        ("decline", lambda a: act(session, a, now, offers.decline, w["offer"].id)),
        ("claim", lambda a: act(session, a, now, seats.claim, w["offer"].id, 10000)),
        ("seat_directly", lambda a: act(session, a, now, seats.seat_directly, table_id=w["table"].id,
                                        seat_no=9, player_id=w["bob"].id,
                                        buy_in=10000, reason="x")),
        ("leave", lambda a: act(session, a, now, seats.leave, w["seat"].id, 0)),
        ("update_game", lambda a: act(session, a, now, games.update_game, w["game"].id, max_buyin=50000)),
        ("close_table", lambda a: act(session, a, now, closing.close_table, w["table"].id)),
        ("close_game", lambda a: act(session, a, now, closing.close_game, w["game"].id)),
        ("open_table", lambda a: act(session, a, now, games.open_table, w["game"].id, "new")),
        ("bar_pair", lambda a: act(session, a, now, bar_pair, w["ann"].id, w["bob"].id, "why")),
    ]


CALLS = [
    "join", "join_game", "check_in", "remove", "reorder", "offer_by_hand", "decline", "claim",
    "seat_directly", "leave", "update_game", "close_table", "close_game", "open_table", "bar_pair",
]


def _audit_count(session):
    session.flush()
    return session.scalar(select(func.count()).select_from(AuditEvent))


@pytest.mark.parametrize("name", CALLS)
def test_r61_cashier_refused_floor_actions(room, session, now, world, name):
    call = dict(_calls(session, now, world))[name]
    before = _audit_count(session)
    with pytest.raises(Forbidden) as err:
        call(room.actor("cashier"))
    assert err.value.rule == "R61"
    assert _audit_count(session) == before
    with pytest.raises(Forbidden):
        act(session, room.actor("cashier"), now, add_player, first_name="X")


@pytest.mark.parametrize("name", [n for n in CALLS if n not in ("join_game",)])
def test_r1_another_rooms_ids_are_not_found(room, session, now, world, name):
    other = Room_(session, now, slug="other")
    call = dict(_calls(session, now, world))[name]
    before = _audit_count(session)
    with pytest.raises(NotFound):
        call(other.sup)
    assert _audit_count(session) == before


def test_r1_join_with_another_rooms_player_or_game(room, session, now, world):
    other = Room_(session, now, slug="other")
    stranger = other.player(now, "Zed")
    with pytest.raises(NotFound):
        act(session, room.sup, now, lists.join, player_id=stranger.id, game_id=world["game"].id)
    with pytest.raises(NotFound):
        act(session, other.sup, now, lists.join, player_id=stranger.id, game_id=world["game"].id)
    with pytest.raises(NotFound):
        act(session, room.sup, now, seats.seat_directly, table_id=world["table"].id, seat_no=9,
            player_id=stranger.id, buy_in=10000, reason="x")


def test_r60_every_change_is_audited_with_actor_and_time(room, session, now, world):
    """Run the loop end to end; each service call adds audit rows stamped with its actor and now."""
    sup = room.sup
    steps = [
        lambda t: act(session, sup, t, lists.reorder, world["eb"].id, 1, "vip"),
        lambda t: act(session, sup, t, offers.decline, world["offer"].id),
        lambda t: act(session, sup, t, seats.claim, live_offer(session, world["bob"].id).id, 10000),
        lambda t: act(session, sup, t, seats.leave, world["seat"].id, 500),
        lambda t: act(session, sup, t, lists.join, player_id=world["ann"].id, game_id=world["game"].id),
        lambda t: act(session, sup, t, games.update_game, world["game"].id, max_buyin=50000),
    ]
    t = now + 10 * S
    for step in steps:
        last = session.scalar(select(func.max(AuditEvent.id))) or 0
        step(t)
        session.flush()
        rows = list(session.scalars(select(AuditEvent).where(AuditEvent.id > last)))
        assert rows, step
        assert all((r.actor, r.actor_id, r.at, r.room_id) == (sup.label, sup.staff_id, t, room.room.id)
                   for r in rows)
        t += S
    # the scheduler's changes carry the actor "scheduler" and no staff id
    offer = live_offer(session, world["ann"].id)
    last = session.scalar(select(func.max(AuditEvent.id)))
    sweep(session, offer.deadline)
    session.flush()
    rows = list(session.scalars(select(AuditEvent).where(AuditEvent.id > last)))
    assert {r.action for r in rows} >= {"offer.expired", "entry.removed"}
    assert all((r.actor, r.actor_id, r.at) == ("scheduler", None, offer.deadline) for r in rows)
