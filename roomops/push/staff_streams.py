"""The staff screens' streams as the app offers them (issue 21, R61): where each screen's page
listens, the app's own streams (the embedded default, behind the log-in and the screen's right),
and the after-commit hook that queues what a commit wrote for the publisher's next pass (read
back from the audit trail instead, embedded: ``roomops.push.staff.Feed``).

``GET /desk/events`` (floor), ``/desk/cage/events`` (cash), ``/dealer/tables/<id>/events``
(deal) are Server-Sent Events streams of ``staff`` notices, ids only (``roomops.push.notices``).
They have threads of their own, ``ROOMOPS_PUSH_STAFF_STREAMS``, which the board's public streams
cannot take (issue 40), and end after
``STREAM_SECONDS`` (the browser reconnects, and the log-in is checked again), or at once when
their log-in ends (issue 40). With a broker the pages listen to the push server's
``/staff/events/<screen>`` instead, and the page and every answer of a screen's part set its
token in a cookie scoped to that path (``STREAM_COOKIE``), for when its stream must reconnect: a
token is never in an address (docs/security.md). A log-out tells the broker, which ends the
log-in's streams wherever they are served."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import timedelta

from flask import Blueprint, Flask, abort, current_app, g, request, url_for
from flask_login import current_user, user_logged_out
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.audit.rows import AuditRow
from roomops.board.countdown import to_ms
from roomops.clock import Clock
from roomops.games.models import Table
from roomops.push.embedded import KEY, Push
from roomops.push.messages import KEEPALIVE_SECONDS, RETRY
from roomops.push.notices import CAGE, FLOOR, dealer_keys
from roomops.push.staff import (
    KEEPALIVE,
    STREAM_COOKIE,
    STREAM_SECONDS,
    Feed,
    LocalBroker,
    LoggedIn,
    RedisBroker,
    StaffHub,
    ThreadScreen,
    token,
)
from roomops.rooms.models import Staff
from roomops.runtime import ext
from roomops.web.uow import db

STAFF = "roomops.push.staff"
bp = Blueprint("staff_push", __name__)
# A screen's part (its poll) -> the screen it is of, for the next token in its answers.
_PARTS = {"desk.fragment": "desk", "cage.slips": "cage", "dealer.live": "dealer"}


@dataclass
class StaffPush:
    hub: StaffHub
    feed: Feed
    push: Push
    secret: str
    broker: bool  # the push server serves the streams (with tokens)


def install(app: Flask) -> None:
    """After ``roomops.push.embedded.install``: the staff notices ride its publisher."""
    renew(app)
    app.add_template_global(events_url, "staff_events")
    ext(app).told.append(lambda committed: _committed(app, committed.rows))
    user_logged_out.connect(_logged_out, app)
    app.register_blueprint(bp)


def renew(app: Flask) -> None:
    """A new staff hub and feed on the app's (new) publisher, as a new process starts with
    (``roomops.factory.renew``: after ``roomops.push.embedded.renew``)."""
    settings, push = ext(app).settings, app.extensions[KEY]
    hub = StaffHub()
    broker = (RedisBroker(settings.push_broker, settings.push_prefix) if settings.push_broker
              else LocalBroker(hub))
    feed = Feed(broker, (lambda: True) if settings.push_broker else (lambda: hub.watched() > 0),
                read_back=not settings.push_broker)
    push.publisher.before.append(feed.send)
    app.extensions[STAFF] = StaffPush(hub, feed, push, settings.secret_key, bool(settings.push_broker))


def _logged_out(app: Flask, user: object = None, **_: object) -> None:
    """Issue 40: a log-out (which has moved the staff member's session version on: every log-in
    of theirs ends) ends their staff streams now, the app's own and the push servers'."""
    staff_id = getattr(user, "id", None)
    if staff_id is None:
        return
    version = db().scalar(select(Staff.session_version).where(Staff.id == int(staff_id)))
    if version is not None:
        app.extensions[STAFF].feed.broker.end(int(staff_id), version)


def _login() -> LoggedIn:
    return LoggedIn(current_user.id, current_user.staff.session_version)


def _committed(app: Flask, rows: Sequence[AuditRow]) -> None:
    """After a unit's commit: what it audited, to the staff screens."""
    staff: StaffPush = app.extensions[STAFF]
    if staff.feed.committed(rows) and staff.push.publisher.running:
        staff.push.publisher.nudge()


def _keys(screen: str, table_id: int | None) -> frozenset[str]:
    if screen == "desk":
        return frozenset({FLOOR})
    if screen == "cage":
        return frozenset({CAGE})
    table = db().get(Table, table_id)
    if table is None or table.room_id != current_user.room_id:
        abort(404)
    return dealer_keys(table.id, table.game_id)


def events_url(screen: str, table_id: int | None = None) -> str:
    """Where a staff screen's page listens ("": nowhere, it polls): ``screen`` is desk, cage or
    dealer (of ``table_id``). With a broker, the push server's path, and its token is set in a
    cookie for that path by this request's answer (``_stream_cookie``)."""
    staff: StaffPush = current_app.extensions[STAFF]
    if staff.broker:
        path = f"/staff/events/{screen}" + (f"/{table_id}" if screen == "dealer" else "")
        expires = to_ms(ext().clock.now() + timedelta(seconds=STREAM_SECONDS))
        g.staff_stream = path, token(staff.secret, current_user.room_id,
                                     _keys(screen, table_id), expires, _login())
        return path
    if staff.push.streams <= 0:
        return ""
    if screen == "dealer":
        return url_for("staff_push.dealer_events", table_id=table_id)
    return url_for(f"staff_push.{screen}_events")


@bp.after_app_request
def _stream_cookie(resp: Response) -> Response:
    """With a broker, a staff page and each answer of a screen's part set the stream's token
    (fresh) in a cookie its stream path alone is sent: HttpOnly, SameSite=Strict, as long as the
    token lives (docs/security.md)."""
    screen = _PARTS.get(request.endpoint or "")
    if screen and resp.status_code in (200, 304) and current_app.extensions[STAFF].broker:
        events_url(screen, (request.view_args or {}).get("table_id"))
    found: tuple[str, str] | None = g.pop("staff_stream", None)
    if found is not None:
        resp.set_cookie(STREAM_COOKIE, found[1], max_age=STREAM_SECONDS, path=found[0],
                        secure=ext().settings.https, httponly=True, samesite="Strict")
    return resp


def _stream(staff: StaffPush, screen: ThreadScreen, clock: Clock) -> Iterator[bytes]:
    ends = clock.now() + timedelta(seconds=STREAM_SECONDS)
    try:
        yield RETRY
        while not screen.ended and clock.now() < ends:
            yield screen.next(KEEPALIVE_SECONDS) or KEEPALIVE
    finally:  # the screen went away, its time is up, its log-in ended: the browser reconnects
        staff.hub.unsubscribe(screen)


def _serve(keys: frozenset[str]) -> Response:
    staff: StaffPush = current_app.extensions[STAFF]
    push = staff.push
    if staff.broker or staff.hub.watched() >= push.staff_streams:
        return Response("no stream here: poll\n", 503, {"Retry-After": "60"}, mimetype="text/plain")
    staff.feed.watch(db())
    screen = staff.hub.subscribe(ThreadScreen(current_user.room_id, keys, _login()))
    if push.autostart and not push.publisher.running:
        push.publisher.start()
    return Response(_stream(staff, screen, ext().clock), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/desk/events")
def desk_events() -> Response:
    """The desk is told of every change of its room's floor."""
    return _serve(_keys("desk", None))


@bp.get("/desk/cage/events")
def cage_events() -> Response:
    """The cage is told of changes of slips and the ledger (R31)."""
    return _serve(_keys("cage", None))


@bp.get("/dealer/tables/<int:table_id>/events")
def dealer_events(table_id: int) -> Response:
    """A dealer's tablet is told of changes of its table and its game only."""
    return _serve(_keys("dealer", table_id))
