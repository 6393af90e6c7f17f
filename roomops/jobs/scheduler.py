"""APScheduler 3 running the sweep every few seconds: inside the web process (embedded default)
or as its own process (`flask --app app scheduler`) when several web workers serve PostgreSQL."""

from __future__ import annotations

import logging

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

from roomops.floor.unit import unit
from roomops.jobs.sweep import SweepResult, sweep
from roomops.runtime import ext

log = logging.getLogger("roomops.jobs")


def sweep_once(app: Flask) -> SweepResult:
    """One job run, one unit of work, one commit point."""
    roomops = ext(app)
    with roomops.sessions() as session, unit(session, None, roomops.clock.now()) as uow:
        result = sweep(uow.session, uow.now)
        uow.commit()
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
