"""The sweep's heartbeat on both databases: each run writes its scheduler's row in its own
transaction (what it did, when), with the rooms whose sweep failed, since their last good sweep,
so that their screens alone go late (R20, R22, R60)."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import select

from roomops.floor.unit import UnitOfWork
from roomops.heartbeat.models import RoomSweepFailure, SweepHeartbeat
from roomops.heartbeat.rules import room_last_run
from roomops.heartbeat.services import beat, last_run, note_failures, room_runs, rooms_failing
from roomops.holds.models import SeatHold
from roomops.jobs import scheduler
from roomops.jobs import sweep as sweep_module
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from tests.factories import Room_
from tests.units import act


def _rows(session):
    session.expire_all()
    return list(session.scalars(select(SweepHeartbeat).order_by(SweepHeartbeat.scheduler_id)))


def _offer(room, session, now):
    """One open offer (R20), due ``claim_minutes`` after ``now``."""
    game = room.game(now)
    ann = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=ann.id, game_id=game.id)
    room.table(now, game, "1")
    session.commit()
    return session.scalars(select(SeatHold).where(SeatHold.kind == "offer",
                                                  SeatHold.player_id == ann.id)).one()


def test_every_sweep_writes_its_row_with_what_it_did(app, session, room, clock, now):
    app.extensions["roomops"].settings.scheduler_id = "web-1"
    offer = _offer(room, session, now)
    sweep_once(app)
    [row] = _rows(session)
    assert (row.scheduler_id, row.ran_at, row.expired_offers, row.no_shows,
            row.released_absences) == ("web-1", now, 0, 0, 0)
    assert row.took_ms >= 0
    later = clock.advance(minutes=room.room.claim_minutes)
    sweep_once(app)  # the offer expires (R20): the same row, rewritten
    [row] = _rows(session)
    assert (row.ran_at, row.expired_offers) == (later, 1)
    assert session.get(SeatHold, offer.id).outcome == "expired"
    assert last_run(session) == later


def test_several_schedulers_keep_a_row_each_and_the_freshest_counts(app, session, clock, now):
    settings = app.extensions["roomops"].settings
    settings.scheduler_id = "a"
    sweep_once(app)
    settings.scheduler_id = "b"
    later = clock.advance(seconds=5)
    sweep_once(app)
    assert [(r.scheduler_id, r.ran_at) for r in _rows(session)] == [("a", now), ("b", later)]
    assert last_run(session) == later


def _failing(session):
    session.expire_all()
    return [(f.room_id, f.failing_since) for f in session.scalars(
        select(RoomSweepFailure).order_by(RoomSweepFailure.room_id))]


def _break_in(monkeypatch, room_id):
    """The sweep of room ``room_id`` fails at its last step, once its offers have expired."""
    release_due = sweep_module.release_due

    def broken(unit: UnitOfWork, games):
        if unit.actor.room_id == room_id:
            raise RuntimeError("a fault in this room's data")
        return release_due(unit, games)

    monkeypatch.setattr(sweep_module, "release_due", broken)


def test_a_room_whose_sweep_fails_holds_up_no_other_room(app, session, room, clock, now,
                                                          monkeypatch):
    """Each room is swept in a unit of work of its own (R22): the other rooms' timers are released
    and committed; the failing room's change is rolled back, its error raised once the others are
    swept; the heartbeat is written, with the failing room (its screens alone go late)."""
    annex = Room_(session, now, slug="annex")
    stuck, freed = _offer(room, session, now), _offer(annex, session, now)
    later = clock.advance(minutes=room.room.claim_minutes)
    _break_in(monkeypatch, room.room.id)  # swept first: the rooms go in the order of their ids
    with pytest.raises(RuntimeError, match="this room's data"):
        sweep_once(app)
    session.expire_all()
    assert session.get(SeatHold, stuck.id).ended_at is None
    assert session.get(SeatHold, freed.id).outcome == "expired"
    assert [(r.ran_at, r.expired_offers) for r in _rows(session)] == [(later, 1)]
    assert _failing(session) == [(room.room.id, later)]
    assert room_runs(session, room.room.id) == (later, later)
    assert room_runs(session, annex.room.id) == (later, None)


def test_a_failing_room_is_failing_since_its_last_sweep_until_a_run_does_not_fail(
        app, session, room, clock, now, monkeypatch):
    """Failing since the freshest sweep before its first failed run (the last time it was known
    swept): a room that fails as the scheduler comes back from ten minutes away is late from
    before them, not from its failure."""
    _offer(room, session, now)
    sweep_once(app)  # nothing due yet; then no sweep for the claim's ten minutes
    clock.advance(minutes=room.room.claim_minutes)
    _break_in(monkeypatch, room.room.id)
    for _ in range(2):
        with pytest.raises(RuntimeError):
            sweep_once(app)
        last = clock.advance(seconds=20)
    assert _failing(session) == [(room.room.id, now)]
    assert room_last_run(*room_runs(session, room.room.id)) == now  # its desk: 10 min 40 s late
    assert rooms_failing(session, last) == 1
    monkeypatch.undo()
    sweep_once(app)
    assert _failing(session) == []
    assert room_last_run(*room_runs(session, room.room.id)) == last


def test_a_room_with_nothing_due_any_more_is_not_failing(session, room, now):
    """A failing room whose due timers the desk handled is not swept (nothing is due): the next
    run clears it all the same."""
    note_failures(session, now, [room.room.id])
    note_failures(session, now, [room.room.id])  # kept, not rewritten
    assert _failing(session) == [(room.room.id, now)]
    note_failures(session, now, [])
    assert _failing(session) == []


def test_the_default_id_is_host_and_process(app):
    settings = app.extensions["roomops"].settings
    settings.scheduler_id = ""
    assert scheduler.scheduler_id(settings).endswith(f":{os.getpid()}")


def test_beat_is_idempotent(session, now):
    counts = {"expired_offers": 2, "no_shows": 0, "released_absences": 1}
    beat(session, "x", now, 5, counts)
    beat(session, "x", now, 5, counts)
    [row] = _rows(session)
    assert (row.ran_at, row.took_ms, row.expired_offers, row.released_absences) == (now, 5, 2, 1)


def test_a_failed_sweep_rolls_back_its_room_and_beats(app, session, room, clock, now, monkeypatch):
    """The offer expired in the failed run is rolled back with the room's unit of work (the one
    commit point, docs/architecture.md, "Scheduler"); the scheduler ran, so it beats."""
    sweep_once(app)
    offer = _offer(room, session, now)
    later = clock.advance(minutes=room.room.claim_minutes)

    def broken(*_args, **_kwargs):
        raise RuntimeError("the database went away half way")

    monkeypatch.setattr(sweep_module, "release_due", broken)  # after expire_due has done its part
    with pytest.raises(RuntimeError):
        sweep_once(app)
    assert last_run(session) == later
    session.expire_all()
    assert session.get(SeatHold, offer.id).ended_at is None
    assert len(_rows(session)) == 1


def test_no_heartbeat_when_the_database_fails_it(app, session, room, clock, now, monkeypatch):
    """A scheduler that cannot write its heartbeat leaves the row to age: the screens go late."""
    sweep_once(app)
    clock.advance(seconds=20)

    def gone(*_args, **_kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(scheduler, "note_failures", gone)
    with pytest.raises(RuntimeError, match="went away"):
        sweep_once(app)
    assert last_run(session) == now
