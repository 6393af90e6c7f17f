"""Reading players' recent seats for the return rule (R27); the rule itself is ``return_rule``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import bindparam, or_, select
from sqlalchemy.orm import Session

from roomops.games.models import Game, Table
from roomops.holds.models import SeatHold
from roomops.rooms.models import Room
from roomops.seating import return_rule
from roomops.seating.return_rule import Requirement, ReturnPolicy, Stakes, Stint


def policy_of(room: Room) -> ReturnPolicy:
    return ReturnPolicy(room.return_window, room.return_window_minutes, room.timezone,
                        room.gaming_day_start, room.return_tolerance, room.return_tolerance_unit)


def stakes_of(game: Game) -> Stakes:
    return Stakes(game.variant, game.small_blind, game.big_blind, game.ante)


# built once: every claim and seating runs it
_STINTS = select(SeatHold.id.label("hold_id"), SeatHold.player_id, SeatHold.started_at,
                 SeatHold.ended_at, SeatHold.outcome, SeatHold.leave_amount, SeatHold.release_cause,
                 Table.name, Game.id,
                 Game.variant, Game.small_blind, Game.big_blind, Game.ante).join(
    Table, Table.id == SeatHold.table_id).join(Game, Game.id == Table.game_id).where(
    SeatHold.player_id.in_(bindparam("players", expanding=True)), SeatHold.kind == "seated",
    or_(SeatHold.ended_at.is_(None), SeatHold.ended_at >= bindparam("since")))


def stints(session: Session, room: Room, now: datetime, player_ids: list[int]) -> dict[int, list[Stint]]:
    """The players' live seats and the seats they left within the return window's reach (R27):
    one statement, whatever the number of players (``ix_seat_holds_player_seated``)."""
    since = now - policy_of(room).lookback()
    rows = session.execute(_STINTS, {"players": player_ids, "since": since})
    found: dict[int, list[Stint]] = {}
    for r in rows:
        found.setdefault(r.player_id, []).append(Stint(
            Stakes(r.variant, r.small_blind, r.big_blind, r.ante), r.id, r.name, r.started_at,
            r.ended_at, r.outcome, r.leave_amount, r.hold_id, r.release_cause))
    return found


def required_of(history: list[Stint], room: Room, now: datetime, game: Game) -> Requirement | None:
    """R27 for a player whose seats are ``history`` (``stints``) sitting down in ``game`` now."""
    return return_rule.return_requirement(history, stakes_of(game), game.min_buyin, game.max_buyin,
                                          policy_of(room), now)


def requirements(session: Session, room: Room, now: datetime,
                 wanted: Iterable[tuple[int, Game]]) -> dict[tuple[int, int], Requirement]:
    """R27 for each (player id, game) the caller is about to seat or show: keyed by (player id,
    game id), only where the rule applies. One statement (``stints``)."""
    pairs = list(wanted)
    if not pairs:
        return {}
    history = stints(session, room, now, list({player_id for player_id, _ in pairs}))
    found = {(player_id, game.id): required_of(history[player_id], room, now, game)
             for player_id, game in pairs if player_id in history}  # no seat: nothing to return to
    return {key: req for key, req in found.items() if req is not None}


def requirement(session: Session, room: Room, now: datetime, player_id: int,
                game: Game) -> Requirement | None:
    """R27 for one player sitting down in ``game`` now; None: the normal range applies (R30)."""
    return requirements(session, room, now, [(player_id, game)]).get((player_id, game.id))
