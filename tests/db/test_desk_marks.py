"""The desk marks (migration 0043), on every configured database: what the desk shows of a game
and the board does not moves that game's ``desk_marks`` row, whoever writes it, and no other
game's: a seated player's missed-blind buttons (R35, every hand), how an offer's text went
(R20) and the name of a player playing over a seat (R29). The desk reads a game's seats and lists
again only when its desk or board mark moved (``roomops.seating.rows.KeptRows``), so a change
that left both alone would stay off the desk. The board's marks: tests/db/test_board_marks.py."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.orm import Session

from roomops.absences import services as absences
from roomops.games.models import DeskMark, Game
from roomops.hands.models import SeatBlinds
from roomops.hands.services import record_hand
from roomops.lists import services as lists
from roomops.messages.models import OutboxMessage
from roomops.playovers import services as playovers
from roomops.rooms.models import Player
from tests.db.mark_helpers import mark_moves, marks_of, seated
from tests.factories import Room_
from tests.units import act

HOUR = timedelta(hours=1)


def marks(session: Session, *games: Game) -> list[int]:
    return marks_of(session, DeskMark, *games)


def moves(session: Session, change: Callable[[], object], moved: list[Game], still: list[Game]) -> None:
    mark_moves(session, DeskMark, change, moved, still)


def test_r35_a_hand_moves_its_game_and_so_does_a_hand_made_fix(room: Room_, session, now, marked_floor):
    here, table, there, _other, quiet = marked_floor
    moves(session, lambda: act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1,
                               high_card_seat=1), [here], [there, quiet])
    hold = seated(session, table)[3]
    session.merge(SeatBlinds(hold_id=hold.id, status="active", missed_sb=False, missed_bb=False,
                             owes_bb=False, updated_at=now))
    fix = update(SeatBlinds).where(SeatBlinds.hold_id == hold.id).values(missed_bb=True)
    moves(session, lambda: session.execute(fix, execution_options={"synchronize_session": False}),
          [here], [there, quiet])


def test_r20_how_an_offers_text_went_moves_its_game(room: Room_, session, now, marked_floor):
    here, table, there, _other, quiet = marked_floor
    hold = seated(session, table)[0]
    text = OutboxMessage(room_id=room.room.id, hold_id=hold.id, player_id=hold.player_id, channel="sms",
                         body="Your seat is ready", state="not_sent", last_error="no phone number",
                         created_at=now, updated_at=now)
    session.add(text)  # written with its offer, whose seat hold moves the board's mark
    session.flush()
    failed = update(OutboxMessage).where(OutboxMessage.id == text.id).values(state="failed")
    moves(session, lambda: session.execute(failed, execution_options={"synchronize_session": False}),
          [here], [there, quiet])


def test_r29_renaming_the_player_playing_over_a_seat_moves_its_game(room: Room_, session, now, marked_floor):
    here, table, there, _other, quiet = marked_floor
    hold = seated(session, table)[2]
    otto = room.player(now, "Otto", "Over")
    act(session, room.sup, now, lists.join, player_id=otto.id, game_id=here.id)
    act(session, room.sup, now + HOUR, absences.grant_break, hold.id, 10000)
    act(session, room.sup, now + HOUR, playovers.start_playover, hold.id, buy_in=10000)
    session.flush()

    def rename(player: Player, name: str) -> None:
        player.first_name = name  # not through a service: no audit row

    moves(session, lambda: rename(otto, "Ottavio"), [here], [there, quiet])


def test_every_game_has_its_desk_mark_from_the_start(room: Room_, session, now):
    game = room.game(now)
    assert marks(session, game) == [0]
