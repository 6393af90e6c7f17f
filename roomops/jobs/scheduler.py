"""APScheduler 3 running the sweep every few seconds: inside the web process (embedded default)
or as its own process (`flask --app app scheduler`) when several web workers serve PostgreSQL."""

from __future__ import annotations

import logging
import os
import socket
from dataclasses import asdict

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from roomops.clock import stopwatch
from roomops.config import Settings
from roomops.floor.unit import unit
from roomops.heartbeat.services import beat
from roomops.jobs.sweep import SweepResult, sweep
from roomops.messages.courier import courier_of
from roomops.messages.sending import send_due
from roomops.runtime import ext

log = logging.getLogger("roomops.jobs")


def scheduler_id(settings: Settings) -> str:
    """The heartbeat row of this process's sweeps: ``ROOMOPS_SCHEDULER_ID``, or host and process
    id (read at each sweep: a server that forks its workers gives each its own)."""
    return settings.scheduler_id or f"{socket.gethostname()}:{os.getpid()}"


def sweep_once(app: Flask) -> SweepResult:
    """One job run, one unit of work, one commit point: the heartbeat is written last, in the
    sweep's transaction, so a sweep that fails records no heartbeat."""
    roomops = ext(app)
    elapsed = stopwatch()
    # in the app's context: what the commit changed is pushed to the screens (roomops.push)
    with app.app_context(), roomops.sessions() as session, \
            unit(session, None, roomops.clock.now()) as uow:
        result = sweep(uow.session, uow.now)
        counts = {name: len(ids) for name, ids in asdict(result).items()}
        beat(uow.session, scheduler_id(roomops.settings), uow.now, elapsed(), counts)
        uow.commit()
        # R20: texts due (retries, leases run out), after the sweep's commit and its heartbeat
        send_due(uow.session, courier_of(uow.session).provider, roomops.clock.now)
    if result.expired_offers or result.no_shows or result.released_absences:
        log.info("sweep: %d offers expired, %d no-shows, %d seats released", len(result.expired_offers),
                 len(result.no_shows), len(result.released_absences))
    return result


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
