"""The application factory."""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import Engine
from werkzeug.middleware.proxy_fix import ProxyFix

from roomops.clock import Clock, SystemClock
from roomops.config import Settings
from roomops.db import make_engine, make_sessionmaker, read_only
from roomops.messages.courier import Courier
from roomops.messages.providers import LogOnly, Provider
from roomops.messages.sender import Sender
from roomops.messages.twilio_sms import TwilioSms
from roomops.reactions import handlers
from roomops.runtime import Roomops
from roomops.security_log import configure as configure_security_log
from roomops.waits.services import EXTENSION as WAITS
from roomops.waits.services import WaitsCache

csrf = CSRFProtect()


def create_app(settings: Settings | None = None, clock: Clock | None = None,
               engine: Engine | None = None, **flask_config: Any) -> Flask:
    from roomops import api, board, dealer, desk
    from roomops.auth import throttle
    from roomops.auth import views as auth_views
    from roomops.push import embedded as push
    from roomops.push import staff_streams
    from roomops.web import (
        access,
        compression,
        errors,
        headers,
        health,
        hooks,
        language,
        money,
        request_fields,
        routing,
        uow,
    )

    settings = settings or Settings()
    app = Flask(__name__, template_folder="../templates", static_folder="../static")
    app.config.update(SECRET_KEY=settings.secret_key, TESTING=settings.testing,
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Lax",
                      # R61: over HTTPS only, and __Host- (Path=/, no Domain) so no sibling
                      # host or path can set or shadow it (docs/security.md, "Sessions")
                      SESSION_COOKIE_SECURE=settings.https, SESSION_COOKIE_PATH="/",
                      SESSION_COOKIE_NAME="__Host-roomops" if settings.https else "roomops",
                      JSON_SORT_KEYS=False, **flask_config)
    engine = engine or make_engine(settings.database_url)
    clock = clock or SystemClock()
    sessions, provider = make_sessionmaker(engine), sms_provider(settings)
    # R20: texts go out on the process's sender thread, never a request's (under test: at once)
    sender = None if settings.testing else Sender(sessions, provider, clock.now)
    courier = Courier(provider, lambda slug, own: board_address(app, slug, own), clock.now, sender)
    # each room's fitted history (issue 21): the board's, the desk's and the joins' (R80)
    waits = app.extensions[WAITS] = WaitsCache()
    app.extensions["roomops"] = Roomops(
        settings, engine, sessions, make_sessionmaker(read_only(engine)), clock, handlers(courier, waits),
        courier,
    )
    logging.getLogger("roomops").setLevel(logging.INFO)
    configure_security_log(settings.security_log)
    request_fields.install()
    if settings.trusted_proxies:  # the client's address, as the proxies in front report it
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=settings.trusted_proxies)  # type: ignore[method-assign]
    compression.install(app)  # first: its hook runs after every other
    routing.install(app)  # before any rule is added
    headers.install(app)
    csrf.init_app(app)
    app.teardown_appcontext(uow.close)
    errors.install(app)
    money.install(app)
    language.install(app)  # the players' pages in their language (issue 21)
    auth_views.install(app)
    access.install(app)  # R61: after the log-in loaders, before every blueprint's own hooks
    throttle.install(app)
    app.register_blueprint(health.bp)
    for module in (desk, board, api, dealer, hooks):
        module.install(app, csrf)
    push.install(app)
    staff_streams.install(app)
    from roomops import cli

    cli.install(app)
    return app


def renew(app: Flask) -> None:
    """Forget what the app keeps in memory between requests (the desk's drawings, the board's
    caches, the log-in limiter's windows, the pushes' hub, publisher and staff feed), as a new
    process starts: the tests keep one app per worker and renew it for each test, whose database
    changes are rolled back under it."""
    from roomops import board, desk
    from roomops.auth import throttle
    from roomops.push import embedded, staff_streams

    for module in (desk, board, throttle, embedded, staff_streams):  # staff rides embedded's
        module.renew(app)


def sms_provider(settings: Settings) -> Provider:
    """Twilio when its account is configured, else nobody: texts are logged, not sent (R20)."""
    if settings.twilio.configured:
        return TwilioSms(settings.twilio, settings.twilio_status_url)
    return LogOnly()


def board_address(app: Flask, slug: str, own_page: bool) -> str:
    """The room's board under the public URL, or the player's own page (R12: they joined from
    this phone, whose cookie opens it), for the texts (the sweep runs outside requests)."""
    from roomops.web.public import public_url

    with app.app_context():
        return public_url("board.me" if own_page else "board.room", slug=slug)
