"""API clients of the HTTP tests, one per role, each with its own token (R61)."""

from __future__ import annotations

from datetime import datetime

import pytest
from flask import template_rendered
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from roomops.holds.models import SeatHold
from roomops.seating import seats
from tests.factories import Room_
from tests.http.test_api import Api, token_for
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def api(client: FlaskClient, room: Room_, session: Session) -> Api:
    return Api(client, token_for(room, session, "supervisor"))


@pytest.fixture()
def sup(api: Api) -> Api:
    return api


@pytest.fixture()
def cashier(client: FlaskClient, room: Room_, session: Session) -> Api:
    return Api(client, token_for(room, session, "cashier"))


@pytest.fixture()
def dealer(client: FlaskClient, room: Room_, session: Session) -> Api:
    return Api(client, token_for(room, session, "dealer"))


@pytest.fixture()
def left(room: Room_, session: Session, now: datetime) -> list[SeatHold]:
    """Seat 1 of table 1 left with 230.00 (paying 250 needs a supervisor's approval, R27); seat
    2 is still played."""
    holds = seated_holds(room, session, now)[2]
    act(session, room.sup, now, seats.leave, holds[0].id, 23000)
    session.commit()
    return holds


@pytest.fixture()
def games_drawn(app):
    """The ids of the games the desk drew (``desk/_game.html``), in order."""
    ids: list[int] = []

    def record(_sender, template, context, **_extra):
        if template.name == "desk/_game.html":
            ids.append(context["gv"].game.id)

    template_rendered.connect(record, app)
    yield ids
    template_rendered.disconnect(record, app)
