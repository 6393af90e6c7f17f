"""Browser tests: the real app served on a loopback port from its own migrated SQLite file, with a
frozen clock the test advances, driven by Playwright in Debian's Chromium (/usr/bin/chromium)."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, sync_playwright
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.factory import create_app
from roomops.holds.models import SeatHold
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from roomops.seating import seats
from tests.conftest import START
from tests.databases import migrated_database
from tests.factories import PASSWORD, Room_, as_staff
from tests.units import COURIER, act

CHROMIUM = "/usr/bin/chromium"
DAY_SECONDS = 86400
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]



@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test (``-m "not browser"`` leaves them out): a
    ``pytestmark`` in a conftest would mark nothing. With ``scripts/test``'s parallel workers
    they all run on one of them, one at a time (``xdist_group``): their seconds-long waits for a
    screen are kept from two browsers drawing at once on a 2-core machine."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


# Where the tests' screenshots go: a temporary folder, so a test run leaves the tree clean;
# ROOMOPS_SCREENSHOTS=docs/screenshots renews the pictures in the docs (docs/README: screenshots).
SHOTS = Path(os.environ.get("ROOMOPS_SCREENSHOTS") or Path(tempfile.gettempdir()) / "roomops-shots")
SHOTS.mkdir(parents=True, exist_ok=True)


@dataclass
class Live:
    app: Flask
    url: str
    clock: FrozenClock

    def sweep(self) -> None:
        """What the scheduler does every few seconds, run now (no real time passes in tests)."""
        sweep_once(self.app)

    def act(self, username: str, service, *args, **kwargs):  # type: ignore[no-untyped-def]
        """``service`` run as ``username`` now and committed, as a desk request's would be: in the
        app's unit of work, so its screens are told (the board's publisher, the staff feed)."""
        ext = self.app.extensions["roomops"]
        with self.app.app_context(), ext.sessions() as session, \
                ext.unit_of_work(session, as_staff(session, username)) as unit:
            result = unit.run(service, *args, **kwargs)
            unit.commit()
        return result

    def texted(self) -> None:
        """Until the app's sender has sent what the commits so far queued (its own thread)."""
        sender = self.app.extensions["roomops"].courier.sender
        assert sender is None or sender.settled(30), "the sender never finished"

    def build(self, fn):  # type: ignore[no-untyped-def]
        """Run fn(room, session, now) against the live database and commit."""
        ext = self.app.extensions["roomops"]
        with ext.sessions(info={COURIER: ext.courier}) as session:  # the units text as the app's
            room = Room_(session, self.clock.now())
            result = fn(room, session, self.clock.now())
            session.commit()
        return result


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture()
def live_settings() -> dict[str, object]:
    """More settings for the live app (a test module overrides it: a text provider, say)."""
    return {}


@pytest.fixture()
def live(tmp_path: Path, live_settings: dict[str, object]) -> Iterator[Live]:
    with migrated_database("sqlite", tmp_path, "browser") as url:
        clock = FrozenClock(START)
        # No scheduler runs here: the tests sweep when they mean to. A day's limit and a first
        # sweep keep the "sweep is late" banner out of the screens (and the docs' screenshots)
        # of tests that advance the clock for other reasons; tests/browser/test_sweep_late.py
        # sets the limit back.
        settings = Settings(database_url=url, scheduler="off", secret_key="browser",
                            sweep_stale_seconds=DAY_SECONDS, **live_settings)
        app = create_app(settings, clock=clock)
        sweep_once(app)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        switching = sys.getswitchinterval()  # a publisher that starts shortens it (roomops.runtime)
        try:
            yield Live(app, f"http://127.0.0.1:{server.server_port}", clock)
        finally:
            app.extensions["roomops.push"].publisher.stop()  # the board's pushes (roomops.push)
            server.shutdown()
            app.extensions["roomops"].engine.dispose()
            sys.setswitchinterval(switching)  # the process's, for the tests after


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    """A page that fails its test when the Content-Security-Policy blocked anything the app's own
    pages use (an inline script, handler or style: roomops.web.headers)."""
    context = browser.new_context(viewport={"width": 1600, "height": 900})
    blocked: list[str] = []
    context.on("console", lambda msg: blocked.append(msg.text)
               if "Content Security Policy" in msg.text else None)
    pg = context.new_page()
    yield pg
    context.close()
    assert not blocked, f"the CSP blocked: {blocked}"


def log_in(page: Page, live: Live, username: str = "main-supervisor") -> None:
    page.goto(f"{live.url}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():  # the next page loaded, its scripts run (a click before would be lost)
        page.click("button[type=submit]")


def full_table(room: Room_, session: Session, now: datetime, *waiting: str
               ) -> tuple[int, list[SeatHold]]:
    """Table 1 of a new game full (Seat1..Seat9 Player, 200 each), then ``waiting`` players on
    the game's list in that order; the table's id and its seats by seat number - 1."""
    game = room.game(now)
    table = room.table(now, game, "1")
    held = [act(session, room.sup, now + timedelta(seconds=i), seats.seat_directly, table_id=table.id,
                seat_no=i, player_id=p.id, buy_in=20000)
            for i, p in enumerate(room.players(now, 9, "Seat"), start=1)]
    for i, first in enumerate(waiting):
        act(session, room.sup, now + timedelta(seconds=30 + i),
            lists.join,
            player_id=room.player(now, first).id, game_id=game.id)
    return table.id, held
