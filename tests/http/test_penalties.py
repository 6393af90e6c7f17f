"""Penalties over HTTP (R55, R57, R61): the desk's form and the JSON API, refusals naming the rule
and changing nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from roomops.audit.models import AuditEvent
from roomops.hands.models import PenaltyRecord
from roomops.holds.models import SeatHold
from tests.http.test_api import Api, refused, token_for
from tests.services.helpers import full_game


def _holds(room, session, now):
    _game, table = full_game(room, session, now, free=0)
    session.commit()
    return list(session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)
                                .order_by(SeatHold.seat_no)))


def _counts(session):
    session.expire_all()
    return (session.scalar(select(func.count()).select_from(AuditEvent)),
            session.scalar(select(func.count()).select_from(PenaltyRecord)))


def test_api_penalty_ladder_and_sit_out(client, room, session, now):
    holds = _holds(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    assert api.get(f"/seats/{holds[0].id}/next-penalty").json["kind"] == "warning"
    resp = api.post(f"/seats/{holds[0].id}/penalty", json={"kind": "rounds", "count": 1,
                                                           "reason": "slow roll"})
    assert resp.status_code == 201, resp.text
    assert (resp.json["hands_out"], resp.json["players_at_table"]) == (9, 9)
    assert api.get(f"/seats/{holds[0].id}/next-penalty").json == {
        "kind": "rounds", "count": 2, "players_at_table": 9}


def test_api_penalty_refusals(client, room, session, now):
    holds = _holds(room, session, now)
    api = Api(client, token_for(room, session, "supervisor"))
    before = _counts(session)
    refused(api.post(f"/seats/{holds[0].id}/penalty", json={"kind": "hands", "reason": "x"}), 422, "R55")
    refused(api.post(f"/seats/{holds[0].id}/penalty", json={"kind": "rounds", "count": 3,
                                                            "reason": "x"}), 422, "R55")
    refused(api.post(f"/seats/{holds[0].id}/penalty", json={"kind": "ban", "reason": "x"}), 422, "R55")
    refused(api.post(f"/seats/{holds[0].id}/penalty", json={"kind": "removal", "reason": ""}), 422,
            "R55")
    refused(api.post("/seats/999999/penalty", json={"kind": "warning", "reason": "x"}), 404, "R55")
    dealer = Api(client, token_for(room, session, "dealer"))
    refused(dealer.post(f"/seats/{holds[0].id}/penalty", json={"kind": "warning", "reason": "x"}),
            403, "R61")
    assert _counts(session) == before


def test_desk_removal(sup_client, room, session, now):
    holds = _holds(room, session, now)
    resp = sup_client.post(f"/desk/seats/{holds[2].id}/penalty", data={
        "kind": "removal", "count": "0", "reason": "threatened the dealer"}, follow_redirects=True)
    assert "removal from the game, for threatened the dealer (R57)" in resp.text
    session.refresh(holds[2])
    assert holds[2].outcome == "left"
