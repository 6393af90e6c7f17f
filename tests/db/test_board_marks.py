"""The board marks (migration 0020), on every configured database: every change the public board
shows of a game moves that game's mark (``board_marks``), whoever writes it (a service, a bulk
statement, a hand-made fix), and moves no other game's. The board re-reads only the games whose
mark moved (docs/board.md), so a change that left the mark alone would stay off the TV.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from roomops.absences import services as absences
from roomops.games.models import BoardMark, Game, Table
from roomops.games.services import open_table
from roomops.holds.models import SeatHold
from roomops.ledger import transit
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.playovers import services as playovers
from roomops.rooms.models import Player
from roomops.seating import seats
from roomops.seating.closing import close_table
from tests.db.mark_helpers import mark_moves, marks_of, seated
from tests.factories import Room_
from tests.units import act

HOUR = timedelta(hours=1)


def marks(session: Session, *games: Game) -> list[int]:
    return marks_of(session, BoardMark, *games)


def moves(session: Session, change: Callable[[], object], moved: list[Game], still: list[Game]) -> None:
    mark_moves(session, BoardMark, change, moved, still)


def test_r10_r13_a_list_entry_moves_its_game(room: Room_, session, now, marked_floor):
    here, _t, there, _o, quiet = marked_floor
    ana = room.player(now, "Ana")
    entry: list[ListEntry] = []
    moves(session, lambda: entry.append(act(session, room.sup, now, lists.join, player_id=ana.id,
                                            game_id=here.id)), [here], [there, quiet])
    moves(session, lambda: act(session, room.sup, now, lists.remove, entry[0].id, "went home"),
          [here], [there, quiet])


def test_r5_opening_and_closing_a_table_moves_its_game(room: Room_, session, now, marked_floor):
    _h, _t, there, _o, quiet = marked_floor
    opened: list[Table] = []
    moves(session, lambda: opened.append(act(session, room.sup, now, open_table, game_id=quiet.id, name="7")),
          [quiet], [there])
    moves(session, lambda: act(session, room.sup, now, close_table, opened[0].id), [quiet], [there])


def test_r20_r23_r24_r29_seats_breaks_and_playovers_move_their_game(room: Room_, session, now, marked_floor):
    here, table, there, _o, quiet = marked_floor
    holds = seated(session, table)
    waiting = room.player(now, "Wes")
    moves(session, lambda: act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=here.id),
          [here], [there, quiet])
    moves(session, lambda: act(session, room.sup, now + HOUR, absences.grant_break, holds[2].id, 10000),
          [here], [there, quiet])
    moves(session, lambda: act(session, room.sup, now + HOUR, playovers.start_playover, holds[2].id,
                               buy_in=10000), [here], [there, quiet])
    moves(session, lambda: act(session, room.sup, now + HOUR, seats.leave, holds[5].id, 30000),
          [here], [there, quiet])


def test_r31_chips_playing_behind_move_their_game(room: Room_, session, now, marked_floor):
    here, table, there, _o, quiet = marked_floor
    hold = seated(session, table)[0]
    moves(session, lambda: act(session, room.actor("cashier"), now, transit.request, hold.id, 20000),
          [here], [there, quiet])


def test_r61_a_rename_moves_the_games_the_name_shows_on_even_by_hand(room: Room_, session, now, marked_floor):
    here, table, there, _o, quiet = marked_floor
    ana = room.player(now, "Ana", "Silva")
    act(session, room.sup, now, lists.join, player_id=ana.id, game_id=quiet.id)
    sitting = session.get_one(Player, seated(session, table)[0].player_id)

    def rename(player: Player, name: str) -> None:
        player.first_name = name  # not through a service: no audit row

    moves(session, lambda: rename(ana, "Anabel"), [quiet], [here, there])
    moves(session, lambda: rename(sitting, "Sam"), [here], [there, quiet])  # seated: shown as taken


def test_bulk_and_hand_made_statements_move_every_game_they_touch(room: Room_, session, now, marked_floor):
    here, table, there, other, quiet = marked_floor
    ids = [h.id for h in seated(session, table)[:2] + seated(session, other)[:2]]
    ended = update(SeatHold).where(SeatHold.id.in_(ids)).values(ended_at=now, outcome="left")
    moves(session, lambda: session.execute(ended, execution_options={"synchronize_session": False}),
          [here, there], [quiet])
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana").id, game_id=quiet.id)
    moves(session, lambda: session.execute(delete(ListEntry).where(ListEntry.id == entry.id),
                                           execution_options={"synchronize_session": False}),
          [quiet], [here, there])


def test_a_change_rolled_back_leaves_the_mark(room: Room_, session, now, marked_floor):
    here, *_ = marked_floor
    session.commit()
    before = marks(session, here)
    with session.begin_nested():
        act(session, room.sup, now, lists.join, player_id=room.player(now, "Ana").id, game_id=here.id)
        assert marks(session, here) > before
        session.rollback()
    assert marks(session, here) == before


def test_every_game_has_its_mark_from_the_start(room: Room_, session, now):
    game = room.game(now)
    assert marks(session, game) == [0]

