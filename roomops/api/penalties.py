"""The API's penalties (R55) and removal from the game (R57)."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.api import models as out
from roomops.api.views import BODY_RULES, ID, OWN_RULE, answer, body, route
from roomops.penalties import services as penalties
from roomops.schemas import GivePenalty
from roomops.web.uow import actor, db, now, run

BODY_RULES[GivePenalty] = "R55"
OWN_RULE.add(GivePenalty)


@route("POST", f"/seats/<{ID}:hold_id>/penalty",
       summary="Give a seated player a warning, a sit-out of hands or rounds (R55), or remove them "
               "from the game (R57)", response=out.PenaltyOut, status=201, body=GivePenalty,
       gives="seat", tag="seats")
def give_penalty(hold_id: int) -> Response:
    b = body(GivePenalty)
    return answer(out.PenaltyOut, run(penalties.give_penalty, hold_id, kind=b.kind, count=b.count,
                                      reason=b.reason, leave_amount=b.leave_amount), 201)


@route("GET", f"/seats/<{ID}:hold_id>/next-penalty",
       summary="The next penalty on the ladder for this player's history (R55)",
       response=out.PenaltyAdviceOut, tag="seats")
def next_penalty(hold_id: int) -> Response:
    return answer(out.PenaltyAdviceOut, penalties.suggest(db(), actor(), now(), hold_id))
