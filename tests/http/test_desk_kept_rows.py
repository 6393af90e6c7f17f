"""The desk keeps each game's seats and lists as last read and reads a game again only when its
marks moved (issue 21; ``roomops.seating.rows.KeptRows``, migrations 0020 and 0043). What only the
desk shows moves the desk's mark, whoever writes it: a missed-blind button (R35), how an offer's
text went (R20), the name of the player playing over a seat (R29). Each is written here by hand
(no audit row, no service), then anything audited elsewhere makes the desk draw again: the game
shows the change, never its rows as kept."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from roomops.absences import services as absences
from roomops.hands.models import SeatBlinds
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.messages.models import OutboxMessage
from roomops.playovers import services as playovers
from roomops.rooms.models import Player
from tests.services.helpers import full_game, live_offer
from tests.units import act


@pytest.fixture()
def floor(room, session, now):
    """The game shown, its table full but for seat 9 (called for Wes), and a quiet second game
    where the unrelated changes happen."""
    game, table = full_game(room, session, now, free=1)
    wes = room.player(now, "Wes", "Waiting")
    act(session, room.sup, now, lists.join, player_id=wes.id, game_id=game.id)
    quiet = room.game(now, variant="Razz")
    session.commit()
    return game, table, wes, quiet


def desk(client) -> str:
    return html.unescape(client.get("/desk/fragment").text)


def elsewhere(room, session, now, quiet, first: str) -> None:
    """An audited change in another game: the desk's live part is drawn again."""
    act(session, room.sup, now, lists.join, player_id=room.player(now, first).id, game_id=quiet.id)
    session.commit()


def _seated(session, table) -> list[SeatHold]:
    return list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))


def test_r35_a_missed_blind_written_by_hand_shows_on_the_next_drawing(sup_client, room, session, now, floor):
    _game, table, _wes, quiet = floor
    assert "missed BB" not in desk(sup_client)
    session.add(SeatBlinds(hold_id=_seated(session, table)[3].id, status="active", missed_sb=False,
                           missed_bb=True, owes_bb=False, updated_at=now))
    session.commit()
    elsewhere(room, session, now, quiet, "Ann")
    assert "missed BB" in desk(sup_client)


def test_r20_how_an_offers_text_went_shows_on_the_next_drawing(sup_client, room, session, now, floor):
    _game, _table, wes, _quiet = floor
    offer = live_offer(session, wes.id)
    assert offer is not None and "carrier refused" not in desk(sup_client)
    session.execute(update(OutboxMessage).where(OutboxMessage.hold_id == offer.id).values(
        state="failed", last_error="carrier refused", updated_at=now + timedelta(seconds=5)))
    session.commit()  # the texts' last change moves the desk's ETag: no audited change needed
    assert "text failed: carrier refused" in desk(sup_client)


def test_r29_the_player_playing_over_renamed_by_hand_shows(sup_client, room, session, now, floor):
    *_shown, quiet = floor
    game, table = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    otto = room.player(now, "Otto", "Over")
    act(session, room.sup, now, lists.join, player_id=otto.id, game_id=game.id)
    hold = _seated(session, table)[2]
    act(session, room.sup, now, absences.mark_away, hold.id)
    playover = act(session, room.sup, now, playovers.start_playover, hold.id, buy_in=10000)
    # his place on the list given up while he plays over: his name is on no list of the board's
    act(session, room.sup, now, lists.remove, playover.entry_id, "plays over, then goes home")
    session.commit()
    assert "Otto Over" in desk(sup_client)
    session.execute(update(Player).where(Player.id == otto.id).values(first_name="Ottavio"))
    session.commit()
    elsewhere(room, session, now, quiet, "Ann")
    assert "Ottavio Over" in desk(sup_client)
