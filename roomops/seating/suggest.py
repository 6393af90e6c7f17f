"""The balancing suggestion (R19), and barred players seated together (R15), for every game on the
room snapshot, for the desk and the API."""

from __future__ import annotations

from sqlalchemy.orm import Session

from roomops.holds.queries import barred_pairs
from roomops.seating.balance import (
    Apart,
    Seated,
    Suggestion,
    TableCount,
    barred_together,
    suggest_move,
)
from roomops.seating.snapshot import GameView, RoomSnapshot


def table_counts(gv: GameView) -> list[TableCount]:
    """A game's tables as balancing sees them (``seating.balance``), from the snapshot."""
    return [TableCount(
        tv.table.id,
        [Seated(sv.hold.id, sv.player.id, sv.hold.started_at) for sv in tv.seats
         if sv.state == "seated" and sv.hold is not None and sv.player is not None],
        tv.open_seats,
        tv.table.feeds_table_id, [ev.player.id for ev in tv.reserve]) for tv in gv.tables]


def suggestions(session: Session, snap: RoomSnapshot) -> dict[int, Suggestion]:
    """R19 by game id, only where a game needs balancing; one statement (the barred pairs, R15)
    whatever the number of games and tables."""
    if not snap.games:
        return {}
    barred = barred_pairs(session, snap.room.id)
    found = {gv.game.id: suggest_move(table_counts(gv), barred) for gv in snap.games}
    return {game_id: s for game_id, s in found.items() if s is not None}


def apart(session: Session, snap: RoomSnapshot) -> dict[int, list[Apart]]:
    """R15 by game id, only where two barred players sit at one table: who should move, and where
    to; one statement (the barred pairs) whatever the number of games."""
    if not snap.games:
        return {}
    barred = barred_pairs(session, snap.room.id)
    found = {gv.game.id: barred_together(table_counts(gv), barred) for gv in snap.games}
    return {game_id: moves for game_id, moves in found.items() if moves}


def for_game(gv: GameView, barred: set[frozenset[int]]) -> tuple[Suggestion | None, list[Apart]]:
    """R19 and R15 for one game, given the room's barred pairs: its balancing move, if it needs
    one, and the barred players seated together (the desk draws a game at a time)."""
    counts = table_counts(gv)
    return suggest_move(counts, barred), barred_together(counts, barred)


def apart_of(session: Session, snap: RoomSnapshot, players: frozenset[int]) -> list[Apart]:
    """R15: the moves ``apart`` names for one barred pair (just barred, say)."""
    return [a for found in apart(session, snap).values() for a in found
            if frozenset((a.player_id, a.barred_from)) == players]
