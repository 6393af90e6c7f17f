"""The JSON API of the dealers' tips (R66): a shift's report and its count, confirmed by a second
person, as on the tips page (``roomops.desk.tokes``)."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api import dealer_models as out
from roomops.api.views import BODY_FIELD_RULES, BODY_RULES, DAY, REFUSED, answer, body, query, route
from roomops.auth import throttle
from roomops.ledger.closing import parse_day
from roomops.rooms.models import Room
from roomops.schemas.dealers import TokeCountBody
from roomops.schemas.ledger import ShiftQuery
from roomops.tokes.pool import TokeReport, count_pool, report
from roomops.web.uow import actor, db, run

BODY_RULES[TokeCountBody] = "R66"
BODY_FIELD_RULES[(TokeCountBody, "reason")] = "R66"
GAMING_DAY = f"<{DAY}:gaming_day>"


def _report(rep: TokeReport) -> Response:
    return answer(out.TokeReportOut, {
        "gaming_day": rep.gaming_day, "shift": rep.shift.number, "shifts": rep.shift.of,
        "currency": rep.currency, "count": rep.count, "replaced": rep.replaced,
        "lines": [{"dealer_id": x.dealer_id, "name": x.name, "downs": x.downs, "share": x.share}
                  for x in rep.lines]})


@route("GET", f"/tokes/days/{GAMING_DAY}", summary="A shift's tips (?shift=N; omitted: the day's "
       "only shift): its count, each dealer's downs and share, the counts it replaced (R66, R54)",
       response=out.TokeReportOut, query=ShiftQuery, tag="dealers")
def toke_report(gaming_day: str) -> Response:
    actor().require("dealers")
    room = db().get_one(Room, actor().room_id)
    return _report(report(db(), room, parse_day(gaming_day), query(ShiftQuery, "R54").shift))


@route("POST", f"/tokes/days/{GAMING_DAY}/count", summary="Count a shift's toke pool, confirmed by "
       "a second person's username and password, and share it by the downs each dealer dealt; a "
       "wrong count is replaced by naming it, with the reason (R66, R60)", response=out.TokeReportOut,
       status=201, body=TokeCountBody, query=ShiftQuery, tag="dealers", refusals=(*REFUSED, 429))
def count_tokes(gaming_day: str) -> Response:
    shift, day = query(ShiftQuery, "R54").shift, parse_day(gaming_day)
    b = body(TokeCountBody)
    confirmer = throttle.approver(actor().room_id, b.confirmation.username, b.confirmation.password, "R66")
    run(count_pool, day, shift, b.amount, confirmer, replaces_id=b.replaces_id, reason=b.reason)
    room = db().get_one(Room, actor().room_id)
    resp = _report(report(db(), room, day, shift))
    resp.status_code = 201
    return resp
