"""R80, R61: the figures over the JSON API: a supervisor's and a manager's, as on the screen; a
cashier refused; a bad period or a game of another room refused in JSON naming the rule."""

from __future__ import annotations

from datetime import timedelta

from roomops.actors import console
from roomops.rooms.staff import create_staff, issue_api_token
from tests.factories import PASSWORD
from tests.http.test_api import Api, refused, token_for
from tests.services.figures_helpers import evening
from tests.units import act

H = timedelta(hours=1)


def test_r80_the_figures_of_a_day_by_hour(client, room, session, clock, now):
    game, _other = evening(room, session, now)
    clock.advance(hours=3)
    api = Api(client, token_for(room, session, "supervisor"))
    body = api.get(f"/figures?period=day&day={now.date()}&game={game.id}").json
    assert (body["period"], body["first_day"], body["game_id"]) == ("day", str(now.date()), game.id)
    assert [r["label"] for r in body["rows"]][-3:] == ["20:00", "21:00", "22:00"]
    evening_row = body["rows"][-3]
    assert (evening_row["joined"], evening_row["tables"], evening_row["rake"]) == (3, 1.0, 500)
    assert body["totals"]["seated"] == 1 and body["totals"]["no_shows"] == 2
    assert len(body["weeks"]) == 8 and body["weeks"][-1]["scored"] == 1


def test_r61_a_manager_reads_the_figures_a_cashier_may_not(client, room, session, now):
    manager = act(session, console(room.room.id), now, create_staff, username="main-manager",
                  password=PASSWORD, roles=("manager",))
    token = issue_api_token(session, manager, room.room.id)
    session.commit()
    assert Api(client, token).get("/figures").status_code == 200
    refused(Api(client, token_for(room, session, "cashier")).get("/figures"), 403, "R61")


def test_r80_bad_queries_are_refused_in_words(client, room, session, now):
    api = Api(client, token_for(room, session, "supervisor"))
    assert "period" in refused(api.get("/figures?period=year"), 422, "R80")["error"]
    assert "day" in refused(api.get("/figures?day=yesterday"), 422, "R80")["error"]
    other = room.game(now)
    session.commit()
    refused(api.get(f"/figures?game={other.id + 1000}"), 404, "R80")
