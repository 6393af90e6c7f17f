"""Taking and leaving seats (R14, R15, R21, R27, R30). Services never commit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import Integer, bindparam, case, cast
from sqlalchemy.orm import Session

from roomops.absences.rules import check_overplayer_stack
from roomops.actors import get_in_room
from roomops.db import Change, end_live, end_live_by, insert_one, update_returning
from roomops.errors import Conflict, Invalid, NotFound
from roomops.floor.events import OffersEnded, PlayerSeated, SeatsEnded
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game, table_in_room
from roomops.games.models import Game, Table
from roomops.holds import queries as hold_reads
from roomops.holds.models import OFFER, ReleaseCause, SeatHold
from roomops.holds.queries import hold_in_room
from roomops.holds.refusals import require_next
from roomops.holds.rules import check_buy_in, check_claimable
from roomops.ledger.rules import AT_TABLE, check_method
from roomops.lists.history import record_end
from roomops.lists.models import ListEntry
from roomops.rooms.models import Player, Room
from roomops.seating import returns
from roomops.seating.offers import (
    live_offer,
    next_for_seat,
    offer_entity,
    require_seat_for,
)
from roomops.seating.return_rule import Requirement, check_return_buy_in


@dataclass(frozen=True)
class Override:
    """R27 waived by a supervisor with a written reason: the normal range (R30) applied instead."""

    requirement: Requirement
    reason: str


def check_sitting_down(unit: UnitOfWork, game: Game, player_id: int,
                       buy_in: int, override_reason: str | None) -> tuple[SeatHold | None, Override | None]:
    """Before a player sits down in ``game`` (nothing is written until this passes), from one read
    of their seats (``returns.stints``):

    - R18: a player seated in the game who takes another of its seats changes tables, carrying the
      stack: that is a move (``roomops.seating.moves``), not a buy-in;
    - R21: the buy-in satisfies R30, or R27 when the player returns to the same game within the
      window; with a written reason a supervisor overrides R27 (R30 still applies).

    Returns the player's live seat in another game of the room, which sitting down here ends
    (R21), and the override for the audit trail (R60), None when nothing was overridden."""
    room = unit.session.get_one(Room, unit.actor.room_id)
    history = returns.stints(unit.session, room, unit.now, [player_id]).get(player_id, [])
    live = next((stint for stint in history if stint.ended_at is None), None)
    if live is not None and live.game_id == game.id:
        raise Conflict(f"the player is seated at table {live.table_name} of this game: a table "
                       "change carries the stack, record it as a move", "R18")
    if override_reason is not None and not override_reason.strip():
        raise Invalid("overriding the return rule needs a written reason", "R27")
    required = returns.required_of(history, room, unit.now, game)
    if required is None or override_reason is not None:
        check_buy_in(buy_in, game.min_buyin, game.max_buyin)
    else:
        check_return_buy_in(buy_in, required, room.timezone)
    elsewhere = unit.session.get_one(SeatHold, live.hold_id) if live is not None else None
    if required is None or override_reason is None or required.allows(buy_in):
        return elsewhere, None
    return elsewhere, Override(required, override_reason.strip())


def check_overplayer_leaving(session: Session, room_id: int, player_id: int,
                             stack: int | None) -> None:
    """R29/R27/R52: a player playing over a seat who sits down leaves it with their chips
    counted (``stack``, 0 or more): the playover's leave amount, which its cash-out is tied to.
    Required then, and refused for a player who plays over no seat."""
    check_overplayer_stack(stack)
    where = hold_reads.playover_seat(session, room_id, player_id)
    if (where is None) == (stack is None):
        return
    name = session.get_one(Player, player_id).full_name
    if where is None:
        raise Conflict(f"{name} is not playing over a seat: there is no overplayer's stack to "
                       "record", "R29")
    table, seat_no = where
    raise Invalid(f"{name} is playing over seat {seat_no} at table {table}: count the chips they "
                  "leave it with (their stack, 0 or more) before seating them", "R29")


def claim(unit: UnitOfWork, offer_id: int, buy_in: int,
          override_reason: str | None = None, buy_in_method: str = AT_TABLE, *,
          overplayer_stack: int | None = None) -> SeatHold:
    """R21: taking the seat before the deadline (R22) seats the player, with a buy-in that
    satisfies R30, or R27 unless overridden with a reason, paid as ``buy_in_method`` says (R32:
    cash at the table unless told otherwise); a player playing over a seat leaves it with
    ``overplayer_stack``, counted (R29, ``check_overplayer_leaving``)."""
    unit.actor.require("floor")
    check_method(buy_in_method, "R30", "buy_in")
    offer, table, game = live_offer(unit.session, unit.actor, offer_id)
    assert offer.deadline is not None  # every offer has one (ck_seat_holds_offer_fields)
    check_claimable(offer.deadline, unit.now)
    elsewhere, override = check_sitting_down(unit, game, offer.player_id, buy_in,
                                             override_reason)
    check_overplayer_leaving(unit.session, game.room_id, offer.player_id, overplayer_stack)
    if not end_live(unit.session, SeatHold, [offer.id], unit.now, "claimed"):
        raise Conflict("the offer was already taken", "R20")
    unit.audit("offer.claimed", offer_entity(offer),
               offer_id=offer.id, player_id=offer.player_id)
    unit.emit(OffersEnded((offer.id,), "claimed"))
    return sit(unit, table, game, offer.seat_no, offer.player_id, buy_in,
               override=override, elsewhere=elsewhere, method=buy_in_method, claimed=True,
               over_reason=offer.over_reason, overplayer_stack=overplayer_stack)


def seat_directly(unit: UnitOfWork, *, table_id: int, seat_no: int,
                  player_id: int, buy_in: int, reason: str | None = None,
                  override_reason: str | None = None, buy_in_method: str = AT_TABLE,
                  over_reason: str | None = None, overplayer_stack: int | None = None) -> SeatHold:
    """Seat a player in an open seat; ahead of the list only with a written reason (R13, R14); the
    buy-in as for a claim (R27, R30, R32), and the stack of a seat played over as for a claim
    (R29). Seat N+1 of a full table, one over its count, only with ``over_reason``, the floor's
    written consent (R4)."""
    unit.actor.require("floor")
    check_method(buy_in_method, "R30", "buy_in")
    table = table_in_room(unit.session, unit.actor, table_id)
    get_in_room(unit.session, Player, player_id, unit.actor, "player")
    game = locked_game(unit.session, table.game_id)
    seat = require_seat_for(unit.session, table, game, seat_no, player_id, over_reason)
    require_next(unit.session, next_for_seat(unit.session, game, seat), player_id, reason, "R13")
    elsewhere, override = check_sitting_down(unit, game, player_id, buy_in,
                                             override_reason)
    check_overplayer_leaving(unit.session, game.room_id, player_id, overplayer_stack)
    return sit(unit, table, game, seat_no, player_id, buy_in, reason,
               override=override, elsewhere=elsewhere, method=buy_in_method,
               over_reason=seat.over_reason, overplayer_stack=overplayer_stack)


def sit(unit: UnitOfWork, table: Table, game: Game, seat_no: int,
        player_id: int, buy_in: int, reason: str | None = None, *,
        override: Override | None = None, elsewhere: SeatHold | None,
        method: str = AT_TABLE, claimed: bool = False, over_reason: str | None = None,
        overplayer_stack: int | None = None) -> SeatHold:
    """R21: seat the player and end the seat they held elsewhere in the room (``elsewhere``, from
    ``check_sitting_down``: one seat per player). The caller has checked the buy-in with
    ``check_sitting_down`` (R27, R30) before writing anything; what follows a player sitting down
    (the buy-in on the books, off this game's lists; other games' lists keep them, R10) is the
    handlers' (``PlayerSeated``). ``claimed``: the seat is the player's offer, claimed;
    ``over_reason``: the seat is N+1, one over the table's count, with the floor's reason (R4);
    ``overplayer_stack``: checked by ``check_overplayer_leaving``."""
    if elsewhere is not None:  # one live seat per player, enforced by the database
        end_seat(unit, elsewhere, "moved", None)
    hold = insert_one(unit.session, SeatHold, {
        "room_id": table.room_id, "table_id": table.id, "seat_no": seat_no, "player_id": player_id,
        "kind": "seated", "started_at": unit.now, "buy_in": buy_in, "over_reason": over_reason})
    unit.audit("seat.taken", ("seat_hold", hold.id), reason=reason,
               table_id=table.id, seat_no=seat_no, player_id=player_id, buy_in=buy_in)
    if over_reason is not None:
        unit.audit("seat.one_over", ("seat_hold", hold.id), reason=over_reason,
                   table_id=table.id, seat_no=seat_no, player_id=player_id, rule="R4")
    if override is not None:
        req = override.requirement
        unit.audit("seat.return_rule_overridden", ("seat_hold", hold.id),
                   reason=override.reason, player_id=player_id, buy_in=buy_in,
                   required=req.minimum, left_amount=req.left_amount, left_at=req.left_at.isoformat(),
                   left_table=req.left_table, rule="R27")
    unit.emit(PlayerSeated(game.id, hold.id, player_id, table.name, buy_in, method, claimed,
                           overplayer_stack))
    return hold


_OFF_LISTS = Change.of(ListEntry, "player_id", "players", [
    ListEntry.game_id == bindparam("game"), ListEntry.status == "active"], {
    "status": "seated", "ended_at": bindparam("at"), "end_reason": bindparam("why")}, ("player_id",))


def leave_game_lists(unit: UnitOfWork, game: Game,
                     player_ids: list[int], why: str) -> list[int]:
    """R21: players seated in the game come off its lists (status ``seated``), in one UPDATE;
    returns the ended entries' ids."""
    ended = update_returning(unit.session, _OFF_LISTS, {"game": game.id, "players": player_ids,
                                                        "at": unit.now, "why": why})
    for entry_id, player_id in ended:
        record_end(unit, "entry.seated", entry_id, player_id, why)
    return [entry_id for entry_id, _ in ended]


def leave(unit: UnitOfWork, hold_id: int,
          leave_amount: int | None) -> SeatHold:
    """A player leaves: the amount they leave with is recorded (it feeds R27) and the seat is
    offered to the next player (R14)."""
    unit.actor.require("floor")
    hold = hold_in_room(unit.session, unit.actor, hold_id, "seat")
    if hold.kind != "seated":
        raise NotFound(f"no seated player with id {hold_id} in this room")
    end_seat(unit, hold, "left", leave_amount)
    return hold


def end_seat(unit: UnitOfWork, hold: SeatHold, outcome: str,
             leave_amount: int | None, cause: ReleaseCause | None = None) -> Game:
    """End one seated player's hold (left, moved, released for ``cause``) with the amount they
    leave with (R27), its game locked first."""
    game = locked_game(unit.session, unit.session.get_one(Table, hold.table_id).game_id, reread=hold)
    if not end_seats(unit, [game], [hold], outcome, {hold.id: leave_amount},
                     cause=cause):
        raise Conflict("the player has already left that seat", "R21")
    return game


def end_seats(unit: UnitOfWork, games: Sequence[Game],
              holds: list[SeatHold], outcome: str,
              leave_amounts: dict[int, int | None] | None = None, *,
              reason: str | None = None, cause: ReleaseCause | None = None,
              detail: dict[int, dict[str, object]] | None = None) -> list[SeatHold]:
    """End seated players' holds of ``games``, whose locks the caller holds, in one UPDATE, each
    with the amount its player leaves with (R27) and, when the room released them, its ``cause``
    (the return rule names it), audited with ``detail[hold id]``. Returns the
    holds this transaction ended (a sweep racing a desk action never ends one twice); what sat on
    them ends and the seats are offered (``SeatsEnded``)."""
    left = leave_amounts or {}
    amounts = {hold_id: a for hold_id, a in left.items() if a is not None}
    caused = {} if cause is None else {"release_cause": cause}
    ended = set(end_live(unit.session, SeatHold, [h.id for h in holds], unit.now, outcome,
                         **_leave_amounts(amounts, len(holds)), **caused))
    mine = [h for h in holds if h.id in ended]
    for hold in mine:
        unit.audit(f"seat.{outcome}", ("seat_hold", hold.id), reason=reason,
                   player_id=hold.player_id, table_id=hold.table_id, seat_no=hold.seat_no,
                   leave_amount=left.get(hold.id), **caused, **(detail or {}).get(hold.id, {}))
    if mine:
        unit.emit(SeatsEnded(tuple(g.id for g in games), tuple(h.id for h in mine)))
    return mine


def _leave_amounts(amounts: dict[int, int], holds: int) -> dict[str, object]:
    """The leave amounts to set: one value when every hold left with the same (a player leaving:
    the UPDATE is then the one built once), else a CASE by hold id (a sweep's released stacks)."""
    if not amounts:
        return {}
    same = set(amounts.values())
    if len(amounts) == holds and len(same) == 1:
        return {"leave_amount": same.pop()}
    return {"leave_amount": cast(case(amounts, value=SeatHold.id), Integer)}


def cancel_must_move_offers(unit: UnitOfWork, hold_ids: list[int]) -> None:
    """R17/R36: a must-move or seat-change offer is void once the seat to move from has ended (not
    a missed call); one conditional UPDATE."""
    for offer_id, from_hold_id, player_id, table_id, seat_no in end_live_by(
            unit.session, SeatHold, "from_hold_id", hold_ids, unit.now, "cancelled",
            ("from_hold_id", "player_id", "table_id", "seat_no"), kind=OFFER):
        unit.audit("offer.cancelled", ("seat_hold", from_hold_id), offer_id=offer_id,
                   player_id=player_id, table_id=table_id, seat_no=seat_no,
                   why="the seat to move from ended")
