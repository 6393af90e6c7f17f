"""The unit of work and the handler table (roomops.floor): events are handled when the service
the unit runs returns, the open seats once per game and last (R14), nothing is left behind by a
refused service, and the work after the commit runs only after it, never undoing it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import select

from roomops.errors import Conflict
from roomops.floor import events
from roomops.floor.events import Event, Gathered, OffersMade, SeatsMayOpen
from roomops.floor.unit import Committed, Handlers, Touched, UnitOfWork, rolled_back_unless_committed
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.reactions import handlers
from roomops.seating import seats
from tests.services.helpers import full_game, live_offer
from tests.units import act, sweep, uow

S = timedelta(seconds=1)
HANDLERS = handlers()


def counting(seen: list[SeatsMayOpen]) -> Handlers:
    """The handler table, with the open-seat offers it runs recorded in ``seen``."""
    return {**HANDLERS, SeatsMayOpen: [lambda _u, e: seen.append(e), *HANDLERS[SeatsMayOpen]]}


def telling(tell: Callable[[tuple[int, ...]], None]) -> Handlers:
    """The handler table, with the offers made told to ``tell`` after the commit."""
    return {**HANDLERS, OffersMade: [
        *HANDLERS[OffersMade], lambda u, e: u.after_commit(lambda: tell(e.offer_ids))]}


def test_every_event_has_its_handlers():
    raised = {cls for cls in vars(events).values()
              if isinstance(cls, type) and issubclass(cls, Event) and cls not in (Event, Gathered)}
    assert raised == set(HANDLERS)
    assert all(HANDLERS[cls] for cls in raised)


def test_a_service_cannot_run_another_through_the_unit(room, session, now):
    def runs_another(unit: UnitOfWork) -> None:
        unit.run(lists.join, player_id=1, game_id=1)

    with pytest.raises(RuntimeError, match="call the other service directly"):
        act(session, room.sup, now, runs_another)


def test_r14_reactions_wait_for_the_service_the_unit_runs(room, session, now):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")

    def join_and_look(unit: UnitOfWork) -> None:
        lists.join(unit, player_id=ann.id, game_id=game.id)
        assert live_offer(unit.session, ann.id) is None  # raised, not handled yet

    act(session, room.sup, now, join_and_look)
    assert live_offer(session, ann.id) is not None


def test_r14_open_seats_are_offered_once_per_game_after_every_change(room, session, now):
    game, table = full_game(room, session, now, free=0)
    waiting = room.players(now, 3, "W")
    for i, p in enumerate(waiting):
        act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
    seen: list[SeatsMayOpen] = []
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))[:2]

    def two_leave(unit: UnitOfWork) -> None:
        for hold in holds:
            seats.leave(unit, hold.id, 10000)

    uow(session, room.sup, now + 5 * S, counting(seen)).run(two_leave)
    assert [e.game_id for e in seen] == [game.id]
    offered = [live_offer(session, p.id) for p in waiting]
    assert sorted(o.seat_no for o in offered[:2]) == sorted(h.seat_no for h in holds)
    assert offered[2] is None


def test_a_refused_service_leaves_no_event_and_no_audit_row_behind(room, session, now):
    game, _table = full_game(room, session, now)
    seen: list[SeatsMayOpen] = []
    unit = uow(session, room.sup, now, counting(seen))

    def emit_then_refuse(unit: UnitOfWork) -> None:
        unit.emit(SeatsMayOpen(game.id))
        unit.audit("test.refused", ("game", game.id))
        unit.after_commit(lambda: seen.append(SeatsMayOpen(-1)))
        raise Conflict("refused", "R14")

    with pytest.raises(Conflict):
        unit.run(emit_then_refuse)
    unit.run(lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
    unit.commit()
    assert [e.game_id for e in seen] == [game.id]  # the join's own, not the refused one's as well
    from roomops.audit.models import AuditEvent
    assert session.scalar(select(AuditEvent.id).where(AuditEvent.action == "test.refused")) is None


def test_r22_the_sweep_offers_each_game_once_with_every_missed_call_skipped(room, session, now):
    game, _table = full_game(room, session, now, free=2)
    first, second = room.players(now, 2, "W")
    for i, p in enumerate((first, second)):
        act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
    seen: list[SeatsMayOpen] = []
    later = live_offer(session, second.id).deadline
    sweep(session, later, counting(seen))
    assert [(e.game_id, e.skip) for e in seen] == [(game.id, frozenset({first.id, second.id}))]


def test_after_commit_work_runs_after_the_commit_and_the_told_hooks(room, session, now):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")
    happened: list[str] = []
    sa_event.listen(session, "after_commit", lambda s: happened.append("commit"))
    told = [lambda c: happened.append(f"audited {sorted({r['action'] for r in c.rows})}")]
    unit = UnitOfWork(session, room.sup, now, telling(lambda ids: happened.append(f"told {ids}")), told)
    with rolled_back_unless_committed(unit):
        unit.run(lists.join, player_id=ann.id, game_id=game.id)
        assert happened == []
        unit.commit()
    assert happened == ["commit", "audited ['entry.joined', 'offer.made']",
                        f"told {(live_offer(session, ann.id).id,)}"]


def test_the_told_hooks_are_told_what_each_room_had_touched(room, session, now):
    """Issue 41: the games and tables the audit rows and the events name, by room, and the kinds
    of entity audited; a refused run's events name nothing."""
    game, table = full_game(room, session, now)
    ann, bob = room.player(now, "Ann"), room.player(now, "Bob")
    session.commit()
    told: list[Committed] = []
    unit = UnitOfWork(session, room.sup, now, HANDLERS, [told.append])
    with rolled_back_unless_committed(unit):
        unit.run(lists.join, player_id=ann.id, game_id=game.id)
        with pytest.raises(Conflict):
            unit.run(lists.join, player_id=ann.id, game_id=game.id)
        unit.commit()
        unit.run(lists.join, player_id=bob.id, game_id=game.id)
        unit.commit()
    first, second = told
    assert {r["action"] for r in first.rows} == {"entry.joined", "offer.made"}
    assert first.rooms == {room.room.id: Touched(frozenset({game.id}), frozenset({table.id}),
                                            frozenset({"list_entry"}))}
    assert second.rooms[room.room.id].games == {game.id}
    assert second.rooms[room.room.id].kinds == {"list_entry"}


def test_after_commit_work_is_dropped_with_a_rollback(room, session, now):
    game, _table = full_game(room, session, now)
    session.commit()
    told: list[object] = []
    unit = uow(session, room.sup, now, telling(told.append))
    with rolled_back_unless_committed(unit):
        unit.run(lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
        unit.rollback()
        unit.commit()
    assert told == []


def test_failed_after_commit_work_is_logged_and_the_change_stands(room, session, now,
                                                                  caplog):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")

    def broken(ids: object) -> None:
        raise OSError("the text message gateway is down")

    unit = uow(session, room.sup, now, telling(broken))
    with caplog.at_level(logging.ERROR, "roomops.floor"), rolled_back_unless_committed(unit):
        unit.run(lists.join, player_id=ann.id, game_id=game.id)
        unit.commit()
    assert "after-commit work failed" in caplog.text
    session.expire_all()
    assert live_offer(session, ann.id) is not None
