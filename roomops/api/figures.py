"""The JSON API of the manager's figures (R80), as on the figures screen."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api.figures_models import FiguresOut
from roomops.api.views import answer, query, route
from roomops.figures.services import figures as room_figures
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room
from roomops.schemas.figures import FiguresQuery
from roomops.web.uow import actor, db, now


@route("GET", "/figures", summary="The room's figures for a period (?period=today|day|week|month, "
       "&day=YYYY-MM-DD, &game=ID): each hour's (a month: each day's) tables, seats, waits and the "
       "estimate's error, no-shows, rake and fees per table-hour, dealer hours, the week's heat "
       "map and eight weeks of the estimate's record (R80)", response=FiguresOut, query=FiguresQuery,
       tag="figures")
def figures() -> Response:
    actor().require("figures")
    q = query(FiguresQuery, "R80")
    room = db().get_one(Room, actor().room_id)
    day = q.day or gaming_day(now(), room.timezone, room.gaming_day_start)
    return answer(FiguresOut, room_figures(db(), room.id, q.period, day, q.game, now()))
