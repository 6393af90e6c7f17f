"""API clients of the HTTP tests, one per role, each with its own token (R61)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from tests.factories import Room_
from tests.http.test_api import Api, token_for


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
