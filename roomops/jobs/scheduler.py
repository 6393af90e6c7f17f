"""APScheduler 3 running the sweep every few seconds: inside the web process (embedded default)
or as its own process (`flask --app app scheduler`) when several web workers serve PostgreSQL."""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import asdict
from datetime import datetime

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from roomops import actors
from roomops.clock import stopwatch
from roomops.config import Settings
from roomops.figures.keep import due_rooms as figure_rooms
from roomops.figures.keep import roll_up
from roomops.heartbeat.services import beat, note_failures
from roomops.jobs.sweep import SweepResult, due_rooms, sweep_room
from roomops.messages.sending import send_due
from roomops.runtime import Roomops, ext

log = logging.getLogger("roomops.jobs")


def scheduler_id(settings: Settings) -> str:
    """The heartbeat row of this process's sweeps: ``ROOMOPS_SCHEDULER_ID``, or host and process
    id (read at each sweep: a server that forks its workers gives each its own)."""
    return settings.scheduler_id or f"{socket.gethostname()}:{os.getpid()}"


def sweep_once(app: Flask) -> SweepResult:
    """One job run. Each room with something due is a unit of work of its own (its commit, then
    its texts and screens): a room whose sweep fails holds up no other room's timers, and a
    desk waits for its own room's sweep only. The heartbeat is written last, in a unit of its
    own, with the rooms whose sweep failed (their screens alone go late, docs/decisions.md); the
    first failure is raised at the end, for the log."""
    roomops = ext(app)
    elapsed = stopwatch()
    result, failures = SweepResult(), dict[int, Exception]()
    # in the app's context: what each commit changed is pushed to the screens (roomops.push)
    with app.app_context():
        now = roomops.clock.now()
        with roomops.read_sessions() as session:
            rooms = due_rooms(session, now)
        for room_id, game_ids in rooms.items():
            try:
                result.add(_sweep_room(roomops, room_id, game_ids, now))
            except Exception as error:
                log.exception("sweep of room %d failed; the other rooms are swept", room_id)
                failures[room_id] = error
        _roll_up_figures(roomops, now)
        with roomops.sessions() as session, roomops.unit_of_work(session, None, now) as uow:
            counts = {name: len(ids) for name, ids in asdict(result).items()}
            note_failures(uow.session, uow.now, list(failures))
            beat(uow.session, scheduler_id(roomops.settings), uow.now, elapsed(), counts)
            uow.commit()
            # R20: texts due (retries, leases run out), after the sweep's commits and heartbeat
            send_due(uow.session, roomops.courier.provider, roomops.clock.now)
    if result.expired_offers or result.no_shows or result.released_absences:
        log.info("sweep: %d offers expired, %d no-shows, %d seats released", len(result.expired_offers),
                 len(result.no_shows), len(result.released_absences))
    if failures:
        raise next(iter(failures.values()))
    return result


def _sweep_room(roomops: Roomops, room_id: int, game_ids: list[int], now: datetime) -> SweepResult:
    """One room's sweep, committed (R12, R22, R24, R26)."""
    swept = SweepResult()
    with roomops.sessions() as session, \
            roomops.unit_of_work(session, actors.scheduler(room_id), now) as uow:
        uow.run(sweep_room, game_ids, swept)
        uow.commit()
    return swept


def _roll_up_figures(roomops: Roomops, now: datetime) -> None:
    """R80: each room's closed hours rolled up into the figures' read model, a unit of work a
    room (derived data, so not audited: docs/figures.md). A room that fails is logged and tried
    again next run; its timers and screens do not wait for it."""
    with roomops.read_sessions() as session:
        rooms = figure_rooms(session, now)
    for room_id in rooms:
        try:
            with roomops.sessions() as session, roomops.unit_of_work(session, None, now) as uow:
                hours = roll_up(uow.session, room_id, now)
                uow.commit()
            if hours:
                log.info("figures: %d hours of room %d rolled up", hours, room_id)
        except Exception:
            log.exception("rolling up the figures of room %d failed", room_id)


def _add_job(scheduler: BaseScheduler, app: Flask) -> BaseScheduler:
    seconds = ext(app).settings.sweep_seconds
    scheduler.add_job(sweep_once, "interval", args=[app], seconds=seconds, id="sweep",
                      max_instances=1, coalesce=True, misfire_grace_time=max(1, int(seconds * 5)))
    return scheduler


def start_background(app: Flask) -> BaseScheduler:
    scheduler = _add_job(BackgroundScheduler(timezone="UTC"), app)
    scheduler.start()
    return scheduler


def run_blocking(app: Flask) -> None:
    _add_job(BlockingScheduler(timezone="UTC"), app).start()
