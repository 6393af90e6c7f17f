"""R20 in a real browser: the desk shows, beside each live offer, how its text to the player
went: "text sent" for a number Twilio took, "text failed: ..." with Twilio's reason for one it
refused. The app texts through the real adapter against the local fake Twilio, sent by the
scheduler's sweep (the offers were made outside a request)."""

from __future__ import annotations

import threading

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.factory import create_app
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from roomops.rooms.services import add_player
from tests.browser.conftest import DAY_SECONDS, SHOTS, Live, log_in
from tests.conftest import START
from tests.databases import migrated_database
from tests.fake_twilio import REFUSED, fake_twilio, twilio_settings
from tests.services.helpers import full_game
from tests.services.outbox_helpers import PHONE
from tests.units import act


@pytest.fixture()
def live(tmp_path):
    with fake_twilio() as twilio, migrated_database("sqlite", tmp_path, "texts") as url:
        settings = Settings(database_url=url, scheduler="off", secret_key="browser",
                            sweep_stale_seconds=DAY_SECONDS, public_url="https://poker.example",
                            twilio=twilio_settings(twilio.url))
        clock = FrozenClock(START)
        app = create_app(settings, clock=clock)
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield Live(app, f"http://127.0.0.1:{server.server_port}", clock), twilio
        finally:
            server.shutdown()
            app.extensions["roomops"].engine.dispose()


def _two_offers(room, session, now):
    game, _table = full_game(room, session, now, free=2)
    for name, phone in (("Ann", PHONE), ("Bob", REFUSED)):
        player = act(session, room.sup, now, add_player, first_name=name, last_name="Texted",
                     phone=phone, create_anyway=True)
        act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)


def test_r20_the_desk_shows_each_offers_text_beside_it(live, page):
    app, twilio = live
    app.build(_two_offers)
    sweep_once(app.app)  # the scheduler sends what is due
    assert [r.form["To"] for r in twilio.requests] == [PHONE, REFUSED]
    assert twilio.requests[0].form["Body"].endswith("https://poker.example/board/main")
    log_in(page, app)
    ann = page.locator("tr.entry", has_text="Ann Texted")
    bob = page.locator("tr.entry", has_text="Bob Texted")
    expect(ann.locator(".tag.text")).to_have_text("text sent")
    expect(bob.locator(".tag.text")).to_have_text(
        "text failed: not a valid phone number (Twilio 21211)")
    expect(page.locator(".seat.state-offered .sub.text")).to_have_count(2)
    expect(page.locator(".seat.state-offered .sub.text-failed")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "desk-offer-texts.png"))
