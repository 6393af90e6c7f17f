"""The balancing suggestion (R19) for every game on the room snapshot, for the desk and the API."""

from __future__ import annotations

from sqlalchemy.orm import Session

from roomops.seating.balance import Seated, Suggestion, TableCount, suggest_move
from roomops.seating.queries import barred_pairs
from roomops.seating.snapshot import GameView, RoomSnapshot


def table_counts(gv: GameView) -> list[TableCount]:
    """A game's tables as balancing sees them (``seating.balance``), from the snapshot."""
    return [TableCount(
        tv.table.id,
        [Seated(sv.hold.id, sv.player.id, sv.hold.started_at) for sv in tv.seats
         if sv.state == "seated" and sv.hold is not None and sv.player is not None],
        [sv.seat_no for sv in tv.seats if sv.state == "empty"],
        tv.table.feeds_table_id, [ev.player.id for ev in tv.reserve]) for tv in gv.tables]


def suggestions(session: Session, snap: RoomSnapshot) -> dict[int, Suggestion]:
    """R19 by game id, only where a game needs balancing; one statement (the barred pairs, R15)
    whatever the number of games and tables."""
    if not snap.games:
        return {}
    barred = barred_pairs(session, snap.room.id)
    found = {gv.game.id: suggest_move(table_counts(gv), barred) for gv in snap.games}
    return {game_id: s for game_id, s in found.items() if s is not None}
