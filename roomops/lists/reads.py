"""Reading the lists for the R14 allocation: who could be offered a seat, in list order (R13)."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import ColumnElement, and_, bindparam, or_, select
from sqlalchemy.orm import Session, aliased

from roomops.actors import Actor, get_in_room
from roomops.games.models import Game
from roomops.holds.allocation import Candidate
from roomops.holds.models import OFFER, SeatHold
from roomops.lists.models import ListEntry

_OFFER = aliased(SeatHold, name="offer")


_CANDIDATES = select(ListEntry.id, ListEntry.player_id, ListEntry.queue_at, ListEntry.table_id,
                     _OFFER.id).outerjoin(_OFFER, and_(
    _OFFER.room_id == ListEntry.room_id, _OFFER.player_id == ListEntry.player_id,
    _OFFER.kind == OFFER, _OFFER.ended_at.is_(None))).where(
    ListEntry.game_id == bindparam("game_id"), ListEntry.status == "active",
    or_(ListEntry.checkin_deadline.is_(None), ListEntry.checked_in_at.is_not(None)),
    ListEntry.locked_until.is_(None)).order_by(ListEntry.queue_at, ListEntry.id)


# ``_CANDIDATES`` that could go to the tables given, holding no offer
_FIRST_CANDIDATES = _CANDIDATES.where(_OFFER.id.is_(None), or_(
    ListEntry.table_id.is_(None), ListEntry.table_id.in_(bindparam("tables", expanding=True)))).limit(
    bindparam("first"))


_ENTRY_AND_OFFER = select(ListEntry, _OFFER.id).outerjoin(_OFFER, and_(
    _OFFER.room_id == ListEntry.room_id, _OFFER.player_id == ListEntry.player_id,
    _OFFER.kind == OFFER, _OFFER.ended_at.is_(None))).where(ListEntry.id == bindparam("id"))


def entry_in_room(session: Session, actor: Actor, entry_id: int) -> tuple[ListEntry, bool]:
    """``get_in_room`` for a list entry, and whether its player holds an open offer (R14), read
    in one statement."""
    row = session.execute(_ENTRY_AND_OFFER, {"id": entry_id}).first()
    return get_in_room(session, ListEntry, entry_id, actor, "list entry"), row is not None and (
        row[1] is not None)


def candidates(session: Session, game: Game, first: tuple[int, list[int]] | None = None
               ) -> tuple[list[Candidate], set[int]]:
    """Active entries of the game's waiting list and its tables' reserve lists in list order, and
    those of their players who already hold an open offer anywhere in the room (not eligible,
    R14): one statement. ``first`` (n, table ids): only the first n entries that could go to one
    of those tables (on the waiting list or those tables' reserve lists, holding no offer).

    A phone entry that has not checked in (R12), or one locked up (R13), keeps its place but is
    not offered a seat."""
    found: list[Candidate] = []
    busy: set[int] = set()
    stmt, params = (_CANDIDATES, {"game_id": game.id}) if first is None else (
        _FIRST_CANDIDATES, {"game_id": game.id, "first": first[0], "tables": first[1]})
    for entry_id, player_id, queue_at, table_id, offer_id in session.execute(stmt, params):
        found.append(Candidate(entry_id, player_id, queue_at, table_id))
        if offer_id is not None:
            busy.add(player_id)
    return found, busy


def _offerable() -> tuple[ColumnElement[bool], ...]:
    """R14: an active entry, checked in if it is a call-in (R12) and not locked up."""
    return (ListEntry.status == "active",
            or_(ListEntry.checkin_deadline.is_(None), ListEntry.checked_in_at.is_not(None)),
            ListEntry.locked_until.is_(None))


def anyone_waiting(session: Session, game_id: int, table_id: int, but: int) -> bool:
    """R14/R24: whether a player other than ``but`` could be offered a seat of the table now: an
    offerable entry on the game's waiting list or the table's reserve list."""
    return session.scalar(select(ListEntry.id).where(
        *_offerable(), ListEntry.game_id == game_id, ListEntry.player_id != but,
        or_(ListEntry.kind == "waiting", ListEntry.table_id == table_id)).limit(1)) is not None


def waiting_at(session: Session, tables: Collection[tuple[int, int]]) -> dict[int, int]:
    """R50: for each (game, table) of ``tables``, how many players could be offered a seat of the
    table now (on the game's waiting list or the table's reserve list); by table, one statement."""
    games = {game_id for game_id, _table in tables}
    if not games:
        return {}
    rows = session.execute(select(
        ListEntry.game_id, ListEntry.kind, ListEntry.table_id, ListEntry.player_id).where(
        *_offerable(), ListEntry.game_id.in_(games))).all()
    return {table_id: len({player for game, kind, table, player in rows
                           if game == game_id and (kind == "waiting" or table == table_id)})
            for game_id, table_id in tables}


def waiting_for(session: Session, game_id: int, table_id: int) -> int:
    """R50: how many players could be offered a seat of the table now."""
    return waiting_at(session, [(game_id, table_id)])[table_id]
