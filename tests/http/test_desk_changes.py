"""Issue 41: after a change the desk draws again only the games it touched (roomops.desk.parts),
and shows every other game as it is: what it shows is what drawing the room from nothing gives.
Changes from outside the desk are seen too: the API, the scheduler's sweep and `flask sweep`
(this process's units, told what they touched), and units of work told to nobody, as another
process's are (a script's, a second web worker's), or a fix typed into the database: the games'
marks, rows and what else they show say which games changed."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select, text

from roomops.games import services as games
from roomops.games.models import Table
from roomops.holds.models import SeatHold
from roomops.jobs.scheduler import sweep_once
from roomops.lists import services as lists
from roomops.seating import seat_changes
from tests.http.test_desk_games import _kept_and_fresh
from tests.services.helpers import full_game
from tests.units import act

SECTION = re.compile(r'<section class="game" data-key="([0-9a-f]{16})" id="game-(\d+)"')


@pytest.fixture()
def three_games(room, session, now):
    """Three games of a table each, one seat free at each: an offer counting down in each."""
    made = [full_game(room, session, now, free=1, name=str(n), small_blind=100 * n, big_blind=200 * n)
            for n in (1, 2, 3)]
    for n, (game, _table) in enumerate(made, start=1):
        act(session, room.sup, now, lists.join, player_id=room.player(now, f"Wait{n}", "Ing").id,
            game_id=game.id)
    session.commit()
    return [game for game, _table in made]


def _keys(html: str) -> dict[int, str]:
    return {int(game): key for key, game in SECTION.findall(html)}


def _redrawn(app, client, drawn: list[int], before: dict[int, str]) -> tuple[list[int], str]:
    """The games drawn again by the desk's next read, once it is checked against the room drawn
    from nothing (whose own drawing is not counted); the games kept must show as before."""
    drawn.clear()
    kept, fresh = _kept_and_fresh(app, client)
    assert kept == fresh
    redrawn = list(drawn[:len(drawn) - len(_keys(fresh))])
    assert {g: k for g, k in _keys(kept).items() if g not in redrawn} == {
        g: k for g, k in before.items() if g not in redrawn}
    return redrawn, kept


def test_issue41_a_change_to_one_game_draws_that_game_alone(app, sup_client, three_games, games_drawn,
                                                             room, now):
    one, two, three = three_games
    before = _keys(sup_client.get("/desk/fragment").text)
    assert sorted(before) == sorted(g.id for g in three_games)
    form = {"player_id": str(room.player(now, "Ola", "New").id), "game_id": str(two.id)}
    resp = sup_client.post("/desk/join", data=form, headers={"Accept": "application/json"})
    assert resp.status_code == 200, resp.text
    redrawn, kept = _redrawn(app, sup_client, games_drawn, before)
    assert redrawn == [two.id] and "Ola New" in kept
    assert _keys(kept)[two.id] != before[two.id]
    assert {one.id, three.id} <= set(_keys(kept))


def test_issue41_the_api_the_sweep_and_flask_sweep_are_seen(app, sup_client, sup, three_games,
                                                            games_drawn, room, session, now, clock):
    one, two, three = three_games
    before = _keys(sup_client.get("/desk/fragment").text)
    assert sup.post("/entries", json={"player_id": room.player(now, "Api", "Join").id,
                                      "game_id": three.id}).status_code == 201
    redrawn, kept = _redrawn(app, sup_client, games_drawn, before)
    assert redrawn == [three.id] and "Api Join" in kept
    # every offer's call runs out (R22): drawn as expired, then the sweep ends them
    clock.advance(minutes=room.room.claim_minutes, seconds=1)
    before = _keys(sup_client.get("/desk/fragment").text)
    assert 'state-expired' in sup_client.get("/desk/fragment").text
    sweep_once(app)
    redrawn, kept = _redrawn(app, sup_client, games_drawn, before)
    assert sorted(redrawn) == sorted([one.id, two.id, three.id]) and "state-expired" not in kept
    # the next call runs out too: `flask sweep` ends it
    clock.advance(minutes=room.room.claim_minutes, seconds=1)
    before = _keys(sup_client.get("/desk/fragment").text)
    out = app.test_cli_runner().invoke(args=["sweep"])
    assert out.exit_code == 0, out.output
    redrawn, kept = _redrawn(app, sup_client, games_drawn, before)
    assert redrawn and set(redrawn) <= {one.id, two.id, three.id}


def test_issue41_changes_no_hook_is_told_of_are_seen(app, sup_client, three_games, games_drawn, room,
                                                     session, now, clock):
    """Units of work told to nobody (``tests.units.act``, as another process's) and a fix by hand
    in the database: each draws again the one game it changed."""
    one, two, three = three_games
    in_three, in_two = (session.scalars(select(SeatHold).join(Table).where(
        Table.game_id == game.id, SeatHold.kind == "seated")).first() for game in (three, two))
    changes = [
        (two.id, lambda: act(session, room.sup, clock.now(), games.update_game, two.id,
                             max_buyin=two.max_buyin * 2)),  # R6: its row, no mark
        (three.id, lambda: act(session, room.sup, clock.now(), seat_changes.ask,
                               in_three.id)),  # R36: a seat-change list, no mark
        (one.id, lambda: act(session, room.sup, clock.now(), lists.join,
                             player_id=room.player(now, "Unit", "Join").id, game_id=one.id)),
        (two.id, lambda: session.execute(text(
            "UPDATE players SET first_name = 'Renamed' WHERE id = :id"), {"id": in_two.player_id})),
    ]
    for game_id, change in changes:
        before = _keys(sup_client.get("/desk/fragment").text)
        clock.advance(seconds=7)
        change()
        session.commit()
        redrawn, kept = _redrawn(app, sup_client, games_drawn, before)
        assert redrawn == [game_id]
    assert "Renamed" in kept and "Unit Join" in kept
