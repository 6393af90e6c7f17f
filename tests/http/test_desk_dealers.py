"""The desk shows the dealers where the room runs its rotation here: who deals at each table and
when the push is, a table with no dealer flagged (R63), and beside a waiting list long enough to
start a table whether a dealer is free now, at a time, or how many the floor is short (R65). A
change to the roster reaches a desk that already drew the room, from this process or another."""

from __future__ import annotations

from roomops.actors import console
from roomops.dealers import roster
from roomops.dealers.models import DealerShift
from roomops.lists import services as lists
from roomops.rooms.staff import create_staff
from tests.factories import PASSWORD
from tests.http.test_desk_games import _kept_and_fresh
from tests.units import act, uow


def _dealer(room, session, now, name):
    return act(session, console(room.room.id), now, create_staff, username=name.split()[0].lower(),
               password=PASSWORD, roles=("dealer",), display_name=name)


def _rotating(room, session, now, waiting=0):
    room.room.dealer_rotation = True
    game = room.game(now)
    tables = [room.table(now, game, n) for n in ("1", "2")]
    for player in room.players(now, waiting, "Wait"):
        act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)
    return game, tables


def test_r63_a_table_with_no_dealer_is_flagged_and_one_dealing_shows_the_push(sup_client, room, session, now):
    _rotating(room, session, now)
    act(session, room.sup, now, roster.check_in, _dealer(room, session, now, "Dee Nolan").id)
    session.commit()
    html = sup_client.get("/desk/fragment").text
    assert html.count("No dealer") == 1 and "Dee Nolan · push 20:30" in html


def test_r65_a_list_that_could_start_a_table_says_whether_a_dealer_is_free(sup_client, room, session, now):
    _rotating(room, session, now, waiting=6)
    session.commit()
    assert "the floor is 1 dealer short" in sup_client.get("/desk/fragment").text
    for name in ("Dee Nolan", "Raj Mehta", "Ann Free"):
        act(session, room.sup, now, roster.check_in, _dealer(room, session, now, name).id)
    session.commit()
    html = sup_client.get("/desk/fragment").text
    assert "No dealer" not in html and "Enough waiting to start a table: a dealer is free now." in html


def test_r65_a_list_shorter_than_start_at_says_nothing(sup_client, room, session, now):
    _rotating(room, session, now, waiting=5)
    session.commit()
    assert "Enough waiting" not in sup_client.get("/desk/fragment").text


def test_r62_a_check_in_from_another_process_reaches_a_desk_that_drew_the_room(app, sup_client, room,
                                                                               session, now):
    """A unit told to nobody (another process's): the parts see it through their digest."""
    _rotating(room, session, now)
    session.commit()
    assert sup_client.get("/desk/fragment").text.count("No dealer") == 2
    dealer = _dealer(room, session, now, "Dee Nolan")
    unit = uow(session, room.sup, now)
    unit.run(roster.check_in, dealer.id)
    session.commit()
    kept, fresh = _kept_and_fresh(app, sup_client)
    assert kept == fresh and kept.count("No dealer") == 1
    assert session.query(DealerShift).count() == 1


def test_the_desk_shows_no_dealers_where_the_rotation_is_kept_on_paper(sup_client, room, session, now):
    room.game(now)
    session.commit()
    assert "No dealer" not in sup_client.get("/desk/fragment").text
