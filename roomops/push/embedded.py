"""The app's own push: the hub, the publisher, and the board's stream served by the app itself
when no broker is configured (the embedded SQLite default: one process, a handful of screens).

``GET /board/<slug>/events`` (public, as the board is; R61: the same public fragments) is a
Server-Sent Events stream: the room's whole state first (or what a reconnecting screen missed,
by ``Last-Event-ID``), then each change, in the page's language (``?lang=``, English without
it: the room's channel in that language, issue 21). A stream holds a server thread, so the app
serves at most ``ROOMOPS_PUSH_STREAMS`` of them, and at most ``ROOMOPS_PUSH_STREAMS_PER_ADDRESS``
to one client address (issue 40: anonymous viewers cannot take them all); the staff screens have
streams of their own (``roomops.push.staff_streams``). Beyond that, and whenever a broker is
configured (the push server's path then, behind the proxy), it answers 503 and the page keeps
polling."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from flask import Blueprint, Flask, abort, current_app
from flask import request as flask_request
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.board.countdown import to_ms
from roomops.board.views import STREAMS
from roomops.clock import Clock
from roomops.push.addresses import PerAddress
from roomops.push.brokers import Keys, LocalBroker, RedisBroker
from roomops.push.hub import Hub, Subscription
from roomops.push.inflight import InFlight
from roomops.push.messages import KEEPALIVE_SECONDS, RETRY, last_seen
from roomops.push.messages import clock as server_clock
from roomops.push.publisher import Publisher
from roomops.rooms.models import Room
from roomops.runtime import ext
from roomops.web.language import fragment_language
from roomops.web.uow import db

KEY = "roomops.push"
INFLIGHT = "roomops.push.inflight"  # the process's requests in flight (the WSGI middleware's count)
bp = Blueprint("push", __name__)


@dataclass
class Push:
    hub: Hub
    publisher: Publisher
    embedded: bool  # the app serves the streams (no broker)
    streams: int  # the board's streams, at most (the staff screens' are apart: staff_streams)
    per_address: PerAddress = field(default_factory=lambda: PerAddress(0))
    # False under the test client: a test publishes by hand (no thread on the test's connection)
    autostart: bool = True
    staff_streams: int = 0  # the staff screens' own streams (roomops.push.staff_streams)

    def committed(self) -> None:
        """With a broker every process publishes its own commits; embedded, only once a screen
        is watching."""
        if not self.embedded and self.autostart:
            self.publisher.start()
        if self.publisher.running:
            self.publisher.nudge()

    def latest(self, room_id: int, lang: str) -> int:
        """The room's latest message number in ``lang``, for a page about to be drawn in it (the
        publisher draws that language from now on). Embedded, the first page starts the
        publisher with a pass of its own first: every page is then drawn after a message, and
        its stream sends nothing the page already shows."""
        self.publisher.want(lang)
        if self.embedded and self.autostart and not self.publisher.running:
            self.publisher.start(first_pass_here=True)
        return self.publisher.broker.latest(room_id, lang)


def install(app: Flask) -> None:
    inflight = app.extensions[INFLIGHT] = InFlight()
    # Flask's documented way to add WSGI middleware (its stub types the attribute as the method)
    app.wsgi_app = inflight.counted(app.wsgi_app)  # type: ignore[method-assign,assignment]
    renew(app)
    # after each unit's commit (a request, the sweep, a CLI command): its changes published
    ext(app).told.append(lambda _committed: app.extensions[KEY].committed())
    app.register_blueprint(bp)
    # the board's page offers its stream when the app serves it or a push server does
    settings = ext(app).settings
    if settings.push_broker or settings.push_streams > 0:
        app.extensions[STREAMS] = lambda room_id, lang: app.extensions[KEY].latest(room_id, lang)


def renew(app: Flask) -> None:
    """A new hub and publisher, what a new process starts with (``roomops.factory.renew``); the
    old publisher, if any, is stopped."""
    if KEY in app.extensions:
        app.extensions[KEY].publisher.stop()
    settings = ext(app).settings
    hub = Hub()
    keys = Keys(settings.push_prefix)
    broker = RedisBroker(settings.push_broker, keys) if settings.push_broker else LocalBroker(hub)
    app.extensions[KEY] = Push(hub, Publisher(app, broker, app.extensions[INFLIGHT]),
                               not settings.push_broker, settings.push_streams,
                               PerAddress(settings.push_streams_per_address),
                               autostart=not settings.testing,
                               staff_streams=settings.push_staff_streams)


def _stream(sub: Subscription, first: list[bytes], clock: Clock) -> Iterator[bytes]:
    try:
        yield RETRY
        yield from first
        while True:
            message = sub.next(KEEPALIVE_SECONDS)
            yield server_clock(to_ms(clock.now())) if message is None else message.sse
    finally:  # the screen went away (the server's write failed and closed us)
        sub.close()


def _refused() -> Response:
    return Response("no stream here: poll /live\n", 503, {"Retry-After": "60"},
                    mimetype="text/plain")


@bp.get("/board/<slug>/events")
def board_events(slug: str) -> Response:
    push: Push = current_app.extensions[KEY]
    room_id = db().scalar(select(Room.id).where(Room.slug == slug))
    if room_id is None:
        abort(404)
    lang = fragment_language()
    address = flask_request.remote_addr or ""  # the client's, behind trusted proxies (ProxyFix)
    # issue 40: one viewer (an address) cannot take every stream; taken last, when served
    if (not push.embedded or push.hub.watched() >= push.streams
            or not push.per_address.take(address)):
        return _refused()
    push.publisher.want(lang)
    sub = Subscription(push.hub, room_id, lang)
    first = push.hub.subscribe(sub, last_seen(flask_request.headers.get("Last-Event-ID"),
                                              flask_request.args.get("last")))
    if push.autostart and not push.publisher.running:
        push.publisher.start()
        push.publisher.nudge()
    clock = ext().clock
    sent = [m.sse for m in first] + [server_clock(to_ms(clock.now()))]
    resp = Response(_stream(sub, sent, clock), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    resp.call_on_close(lambda: push.per_address.give_back(address))  # started or not
    return resp


def held_threads(app: Flask) -> int:
    """How many server threads the app's own streams may hold at once (each open screen holds
    one), the board's and the staff screens': ``serve`` adds them to the threads that answer
    requests, so screens never starve the desk. None with a broker: the push server holds the
    screens."""
    push: Push = app.extensions[KEY]
    return push.streams + push.staff_streams if push.embedded and push.streams > 0 else 0


def start_publishing(app: Flask) -> None:
    """A long-running process with a broker publishes from the start (every room sent whole once,
    then every change and every ``TICK``), not from its first commit."""
    push: Push = app.extensions[KEY]
    if not push.embedded and push.autostart:
        push.publisher.start()
