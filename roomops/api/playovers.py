"""The JSON API's playover routes (R29), attached to the API blueprint like ``auth`` and
``openapi``: start and end a playover on an absent owner's seat, and the owner's "no playover"."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api import models as out
from roomops.api.views import ID, answer, body, route
from roomops.playovers import services as playovers
from roomops.schemas import NoPlayover, StartPlayover, StopPlayover
from roomops.web.uow import run


@route("POST", f"/seats/<{ID}:hold_id>/playover",
       summary="The next player in list order plays over an absent owner's seat (R29; out of "
               "order with a reason, R13)", response=out.PlayoverOut, status=201, body=StartPlayover,
       gives="playover", tag="seats")
def start_playover(hold_id: int) -> Response:
    return answer(out.PlayoverOut,
                  run(playovers.start_playover, hold_id, **body(StartPlayover).model_dump()), 201)


@route("POST", f"/seats/<{ID}:hold_id>/playover/end",
       summary="End the playover on the seat: the overplayer leaves with their counted stack and "
               "keeps their list place (R29, R27)",
       response=out.PlayoverOut, body=StopPlayover,
       gives=("playover", "leave_amount"), tag="seats")
def stop_playover(hold_id: int) -> Response:
    return answer(out.PlayoverOut, run(playovers.stop_playover, hold_id, body(StopPlayover).stack))


@route("POST", f"/seats/<{ID}:hold_id>/no-playover",
       summary="The absent owner asks for no playover, up to no_playover_max_minutes (R29)",
       response=out.AbsenceOut, body=NoPlayover, tag="seats")
def no_playover(hold_id: int) -> Response:
    return answer(out.AbsenceOut, run(playovers.ask_no_playover, hold_id, body(NoPlayover).minutes))
