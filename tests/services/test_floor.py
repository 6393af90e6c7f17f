"""The unit of work and the handler table (roomops.floor): events are handled when the outermost
command returns, the open seats once per game and last (R14), nothing is left behind by a
refused command, and the work after the commit runs only after it, never undoing it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.errors import Conflict
from roomops.floor import events
from roomops.floor.bus import HANDLERS_KEY, after_commit, emit, run_command
from roomops.floor.events import Event, Gathered, OffersMade, SeatsMayOpen
from roomops.floor.unit import unit
from roomops.jobs.sweep import sweep
from roomops.lists import services as lists
from roomops.reactions import HANDLERS
from roomops.seating import seats
from roomops.seating.models import SeatHold
from tests.services.helpers import full_game, live_offer

S = timedelta(seconds=1)


def counting(session: Session) -> list[SeatsMayOpen]:
    """The session's handler table, with the open-seat offers it runs recorded."""
    seen: list[SeatsMayOpen] = []
    session.info[HANDLERS_KEY] = {**HANDLERS, SeatsMayOpen: [
        lambda c, e: seen.append(e), *HANDLERS[SeatsMayOpen]]}
    return seen


def telling(session: Session, tell: Callable[[tuple[int, ...]], None]) -> None:
    """The session's handler table, with the offers made told to ``tell`` after the commit."""
    session.info[HANDLERS_KEY] = {**HANDLERS, OffersMade: [
        *HANDLERS[OffersMade], lambda c, e: after_commit(c.session, lambda: tell(e.offer_ids))]}


def test_every_event_has_its_handlers():
    raised = {cls for cls in vars(events).values()
              if isinstance(cls, type) and issubclass(cls, Event) and cls not in (Event, Gathered)}
    assert raised == set(HANDLERS)
    assert all(HANDLERS[cls] for cls in raised)


def test_an_event_outside_a_command_is_refused(session):
    with pytest.raises(RuntimeError, match="outside a command"):
        emit(session, SeatsMayOpen(1))


def test_r14_reactions_wait_for_the_outermost_command(room, session, now):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")

    def join_and_look(session: Session, actor: Actor, now: Any) -> None:
        lists.join(session, actor, now, player_id=ann.id, game_id=game.id)
        assert live_offer(session, ann.id) is None  # a nested command: not handled yet

    run_command(session, room.sup, now, join_and_look)
    assert live_offer(session, ann.id) is not None


def test_r14_open_seats_are_offered_once_per_game_after_every_change(room, session, now):
    game, table = full_game(room, session, now, free=0)
    waiting = room.players(now, 3, "W")
    for i, p in enumerate(waiting):
        lists.join(session, room.sup, now + i * S, player_id=p.id, game_id=game.id)
    seen = counting(session)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))[:2]

    def two_leave(session: Session, actor: Actor, now: Any) -> None:
        for hold in holds:
            seats.leave(session, actor, now, hold.id, 10000)

    run_command(session, room.sup, now + 5 * S, two_leave)
    assert [e.game_id for e in seen] == [game.id]
    offered = [live_offer(session, p.id) for p in waiting]
    assert sorted(o.seat_no for o in offered[:2]) == sorted(h.seat_no for h in holds)
    assert offered[2] is None


def test_a_refused_command_leaves_no_event_behind(room, session, now):
    game, _table = full_game(room, session, now)
    seen = counting(session)

    def emit_then_refuse(session: Session, actor: Actor, now: Any) -> None:
        emit(session, SeatsMayOpen(game.id))
        raise Conflict("refused", "R14")

    with pytest.raises(Conflict):
        run_command(session, room.sup, now, emit_then_refuse)
    lists.join(session, room.sup, now, player_id=room.player(now, "Ann").id, game_id=game.id)
    assert len(seen) == 1  # the join's own, not the refused command's as well


def test_r22_the_sweep_offers_each_game_once_with_every_missed_call_skipped(room, session, now):
    game, _table = full_game(room, session, now, free=2)
    first, second = room.players(now, 2, "W")
    for i, p in enumerate((first, second)):
        lists.join(session, room.sup, now + i * S, player_id=p.id, game_id=game.id)
    seen = counting(session)
    later = live_offer(session, second.id).deadline
    sweep(session, later)
    assert [(e.game_id, e.skip) for e in seen] == [(game.id, frozenset({first.id, second.id}))]


def test_after_commit_work_runs_after_the_commit(room, session, now):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")
    happened: list[str] = []
    sa_event.listen(session, "after_commit", lambda s: happened.append("commit"))
    telling(session, lambda ids: happened.append(f"told {ids}"))
    with unit(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=ann.id, game_id=game.id)
        assert happened == []
        uow.commit()
    assert happened == ["commit", f"told {(live_offer(session, ann.id).id,)}"]


def test_after_commit_work_is_dropped_with_a_rollback(room, session, now):
    game, _table = full_game(room, session, now)
    session.commit()
    told: list[object] = []
    telling(session, told.append)
    with unit(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
        uow.rollback()
        uow.commit()
    assert told == []


def test_failed_after_commit_work_is_logged_and_the_change_stands(room, session, now,
                                                                  caplog):
    game, _table = full_game(room, session, now)
    ann = room.player(now, "Ann")

    def broken(ids: object) -> None:
        raise OSError("the text message gateway is down")

    telling(session, broken)
    with caplog.at_level(logging.ERROR, "roomops.floor"), unit(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=ann.id, game_id=game.id)
        uow.commit()
    assert "after-commit work failed" in caplog.text
    session.expire_all()
    assert live_offer(session, ann.id) is not None
