"""A desk re-reading is sent only the games that changed (issue 21: "what a change marks as changed
is narrow"): each game of the live part is keyed by what it shows, the key holds while the clocks
run (R20's countdown and R25's time away are desk.js's), and a desk naming the keys it shows gets
those games as empty sections with their keys (roomops.desk.shared)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from roomops.absences import services as absences
from roomops.lists import services as lists
from roomops.seating.models import SeatHold
from tests.services.helpers import full_game

KEY = re.compile(r'<section class="game" data-key="([0-9a-f]{16})"( data-same></section>)?'
                 r'(?: id="game-(\d+)")?')
SHOWS = "X-Desk-Shows"


def _games(html: str) -> list[tuple[str, bool]]:
    """Each game's key in order, and whether it was sent in full."""
    return [(key, not same) for key, same, _game in KEY.findall(html)]


@pytest.fixture()
def two_games(room, session, now):
    """Game 1: an offer counting down (R20) and a player away (R25); game 2: a full table."""
    one, table = full_game(room, session, now, free=1)
    lists.join(session, room.sup, now, player_id=room.player(now, "Nora", "Quinn").id, game_id=one.id)
    first = session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)).first()
    absences.mark_away(session, room.sup, now, first.id)
    two, _ = full_game(room, session, now, free=0, name="2", small_blind=200, big_blind=500)
    session.commit()
    return one, two


def test_r20_r25_a_game_is_drawn_alike_while_only_its_clocks_run(sup_client, two_games, clock):
    html = sup_client.get("/desk/fragment").text
    assert "countdown" in html and "away since" in html
    clock.advance(minutes=3, seconds=7)  # nothing changes but the time: a drawing later
    again = sup_client.get("/desk/fragment").text
    assert _games(again) == _games(html) and len(_games(html)) == 2


def test_a_desk_is_sent_only_the_game_that_changed(sup_client, room, session, now, two_games, clock):
    _one, two = two_games
    whole = sup_client.get("/desk/fragment")
    (key1, _), (key2, _) = _games(whole.text)
    lists.join(session, room.sup, now, player_id=room.player(now, "Ola", "New").id, game_id=two.id)
    session.commit()
    clock.advance(seconds=5)
    resp = sup_client.get("/desk/fragment", headers={
        SHOWS: f"{key1} {key2}", "If-None-Match": whole.headers["ETag"]})
    assert resp.status_code == 200 and SHOWS in resp.headers["Vary"]
    (same, sent_same), (new, sent_new) = _games(resp.text)
    assert (same, sent_same) == (key1, False)  # game 1: as the desk shows it
    assert new != key2 and sent_new and "Ola New" in resp.text
    assert "Nora Quinn" not in resp.text  # game 1 not sent again: its offer, its players
    # a desk showing none of them (one just opened) is sent the whole part
    full = sup_client.get("/desk/fragment", headers={SHOWS: "0123456789abcdef"}).text
    assert [sent for _key, sent in _games(full)] == [True, True] and "Nora Quinn" in full
