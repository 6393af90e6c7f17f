"""The seat-change list of a table (R14, R36): a seated player asks for another seat of their
table; when one opens, the requesters are offered it first, oldest request first, each with the
room's own short claim timer (``seat_change_claim_minutes``). A request ends when the player
moves, declines or lets the call run out, takes it back, or leaves the seat they asked from.
Services never commit."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.db import end_live, end_live_by, insert_one
from roomops.errors import Conflict
from roomops.floor.events import OffersEnded, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game
from roomops.games.models import Table
from roomops.holds import queries
from roomops.holds.models import OFFER, SeatChangeRequest, SeatHold
from roomops.rooms.models import Player

_LIVE_OF_HOLD = select(SeatChangeRequest).where(SeatChangeRequest.hold_id == bindparam("hold_id"),
                                                SeatChangeRequest.ended_at.is_(None))
_LIST = select(SeatChangeRequest, SeatHold.seat_no, Player).join(
    SeatHold, SeatHold.id == SeatChangeRequest.hold_id).join(
    Player, Player.id == SeatChangeRequest.player_id).where(
    SeatChangeRequest.room_id == bindparam("room_id"),
    SeatChangeRequest.ended_at.is_(None)).order_by(SeatChangeRequest.asked_at, SeatChangeRequest.id)
_OFFER_OF = select(SeatHold).where(SeatHold.seat_change_id == bindparam("request_id"),
                                   SeatHold.kind == OFFER, SeatHold.ended_at.is_(None))


def ask(unit: UnitOfWork, hold_id: int) -> SeatChangeRequest:
    """R14/R36: the player seated on ``hold_id`` goes on their table's seat-change list, at its
    bottom (request order); an open seat of the table is offered at once (``SeatsMayOpen``)."""
    unit.actor.require("floor")
    hold, table, game = queries.seated_hold(unit.session, unit.actor, hold_id, "R36")
    if unit.session.scalar(_LIVE_OF_HOLD, {"hold_id": hold.id}) is not None:
        raise Conflict(f"the player already asked for a seat change at table {table.name}", "R36")
    request = insert_one(unit.session, SeatChangeRequest, {
        "room_id": hold.room_id, "table_id": table.id, "hold_id": hold.id,
        "player_id": hold.player_id, "asked_at": unit.now})
    unit.audit("seat_change.asked", ("seat_change", request.id),
               hold_id=hold.id, player_id=hold.player_id, table_id=table.id, seat_no=hold.seat_no)
    unit.emit(SeatsMayOpen(game.id))
    return request


def withdraw(unit: UnitOfWork, request_id: int) -> SeatChangeRequest:
    """R36: the player takes the request back; a seat they were called to, or held for them until
    the hand's end, is offered on (R14)."""
    unit.actor.require("floor")
    request = get_in_room(unit.session, SeatChangeRequest, request_id, unit.actor, "seat-change request")
    game = locked_game(unit.session, unit.session.get_one(Table, request.table_id).game_id, reread=request)
    if request.ended_at is not None:
        raise Conflict(f"the seat-change request already ended ({request.outcome})", "R36")
    offer = unit.session.scalar(_OFFER_OF, {"request_id": request.id})
    end_requests(unit, [request.id], "withdrawn")
    if offer is not None and end_live(unit.session, SeatHold, [offer.id], unit.now, "cancelled"):
        unit.audit("offer.cancelled", ("seat_change", request.id),
                   offer_id=offer.id, player_id=offer.player_id, table_id=offer.table_id,
                   seat_no=offer.seat_no)
        unit.emit(OffersEnded((offer.id,), "cancelled"))
        unit.emit(SeatsMayOpen(game.id))
    return request


def end_requests(unit: UnitOfWork, request_ids: list[int],
                 outcome: str) -> list[int]:
    """End the live requests among ``request_ids`` (one UPDATE), audited; returns those ended."""
    ended = end_live(unit.session, SeatChangeRequest, request_ids, unit.now, outcome)
    for request_id in ended:
        unit.audit(f"seat_change.{outcome}", ("seat_change", request_id))
    return ended


def end_requests_of_seats(unit: UnitOfWork,
                          hold_ids: list[int]) -> None:
    """R36: a request ends with the seat it was asked from (the player left, moved or was
    swapped): one UPDATE."""
    for request_id, hold_id in end_live_by(unit.session, SeatChangeRequest, "hold_id", hold_ids, unit.now,
                                           "seat_ended", ("hold_id",)):
        unit.audit("seat_change.seat_ended", ("seat_change", request_id),
                   hold_id=hold_id)


@dataclass(frozen=True)
class Asking:
    """One place on a table's seat-change list, for the desk and the dealer's screen."""

    request_id: int
    table_id: int
    seat_no: int
    player: Player
    asked_at: datetime


def seat_change_lists(session: Session, room_id: int) -> dict[int, list[Asking]]:
    """The room's live seat-change lists by table, each in request order (R36): one statement."""
    lists: dict[int, list[Asking]] = {}
    for request, seat_no, player in session.execute(_LIST, {"room_id": room_id}):
        lists.setdefault(request.table_id, []).append(
            Asking(request.id, request.table_id, seat_no, player, request.asked_at))
    return lists
