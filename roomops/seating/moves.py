"""Moving seated players between tables of their game (R17-R19), respecting barred pairs (R15).
Services never commit.

Every move carries the player's whole stack (R18): the new seat's buy-in is the stack plus any
chips added, never less (R28), and neither R27 nor the table's range (R30) applies to the stack
carried. The old seat ends ``moved`` and is offered to the next player (R14). The ledger follows
the stack: a transfer pair out of the old table and into the new (``ledger.table_changes``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from roomops.actors import get_in_room
from roomops.blinds.missed import arrive, must_move_arrival
from roomops.db import end_live, insert_rows
from roomops.errors import Conflict, Invalid
from roomops.floor.events import Carried, EntriesLeft, OffersEnded, SeatsMayOpen, StacksCarried
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game
from roomops.games.models import Game, Table
from roomops.hands.models import SeatBlinds
from roomops.holds import queries as hold_reads
from roomops.holds.allocation import Candidate, allocate, leaves_short
from roomops.holds.models import SEATED, SeatHold
from roomops.holds.refusals import player_name, seat_name
from roomops.holds.rules import check_claimable
from roomops.lists.entries import to_top_of_waiting_list
from roomops.lists.models import ListEntry
from roomops.rooms.models import Room
from roomops.seating import queries
from roomops.seating.balance import check_added
from roomops.seating.closing import shut_table
from roomops.seating.offers import live_offer, offer_entity, require_seat_for
from roomops.seating.seats import end_seat, end_seats, leave_game_lists

NO_BLIND = frozenset({"must_move", "floor", "broken"})  # R19/R36: no blind to come in


@dataclass(frozen=True)
class Move:
    """One seated player to a seat of another table of the game, or another seat of theirs
    (``seat_change``, R36); ``kind``: table_change (R18), must_move (R17), floor (R19), broken
    (R19) or seat_change; ``counted``: the stack was counted now; ``over_reason``: the seat is
    N+1 of a table one over its count (R4: a swap into the extra seat keeps its reason)."""

    hold: SeatHold
    table: Table
    seat_no: int
    stack: int
    added: int = 0
    kind: str = "floor"
    counted: bool = True
    over_reason: str | None = None


@dataclass(frozen=True)
class Broken:
    table: Table
    moved: list[SeatHold]
    listed: list[ListEntry]


def carry(unit: UnitOfWork, game: Game, moves: list[Move],
          reason: str | None = None, *, leave_lists: bool = True) -> list[SeatHold]:
    """R18/R19: end the old seats (``moved``) and seat the players at once, each with the stack
    carried plus chips added (the books follow them: ``StacksCarried``); players moved by the
    floor or from a broken table owe no blind (R19). A fixed number of statements for any number
    of players. The caller checked the seats (``require_seat_for`` or the allocation) and holds
    the game's lock."""
    detail: dict[int, dict[str, object]] = {m.hold.id: {
        "to_table_id": m.table.id, "to_seat_no": m.seat_no, "stack": m.stack, "added": m.added,
        "move": m.kind, "stack_counted": m.counted} for m in moves}
    if len(end_seats(unit, [game], [m.hold for m in moves], "moved",
                     reason=reason, detail=detail)) != len(moves):
        raise Conflict("the player has already left that seat", "R21")
    when = unit.session.get_one(Room, game.room_id).must_move_when
    owing = {m.hold.id for m in moves if m.kind == "must_move"
             and must_move_arrival(when) == "moved_at_big_blind"}
    new = {h.from_hold_id: h for h in insert_rows(unit.session, SeatHold, [
        {"room_id": m.hold.room_id, "table_id": m.table.id, "seat_no": m.seat_no,
         "player_id": m.hold.player_id, "kind": "seated", "started_at": unit.now,
         "buy_in": m.stack + m.added, "from_hold_id": m.hold.id,
         "no_blind_owed": m.kind in NO_BLIND and m.hold.id not in owing, "over_reason": m.over_reason}
        for m in moves])}
    _owe_big_blind(unit.session, unit.now, [new[i] for i in owing])
    ended = leave_game_lists(unit, game, [m.hold.player_id for m in moves],
                             "moved to another table of the game") if leave_lists else []
    for m in moves:
        hold = new[m.hold.id]
        unit.audit("seat.taken", ("seat_hold", hold.id), reason=reason,
                   table_id=m.table.id, seat_no=m.seat_no, player_id=hold.player_id,
                   buy_in=hold.buy_in, moved_from=m.hold.id, from_table_id=m.hold.table_id,
                   from_seat_no=m.hold.seat_no, no_blind_owed=hold.no_blind_owed)
    unit.emit(StacksCarried(game.id, tuple(
        Carried(m.hold.player_id, m.hold.id, m.hold.table_id, new[m.hold.id].id, m.table.id, m.stack,
                m.added, m.kind) for m in moves)))
    if ended:
        unit.emit(EntriesLeft(game.id, tuple(ended)))
    return [new[m.hold.id] for m in moves]


def _owe_big_blind(session: Session, now: datetime, holds: list[SeatHold]) -> None:
    """R17: a must-move player moved as the big blind reached them at the must-move table posts a
    big blind at the main table, or waits for it (``blinds.missed.arrive``), stored as their
    seat's blind state so no new-player policy (R36) lets them in free."""
    for hold in holds:
        seat = arrive(hold.seat_no, hold.player_id, "moved_at_big_blind")
        session.add(SeatBlinds(hold_id=hold.id, status=seat.status, missed_sb=seat.missed_sb,
                               missed_bb=seat.missed_bb, owes_bb=seat.owes_bb, updated_at=now))


def move_player(unit: UnitOfWork, hold_id: int, *, table_id: int,
                seat_no: int, stack: int, added: int = 0, reason: str | None = None) -> SeatHold:
    """R19: the floor moves a seated player to an open seat of another table of the game (to
    balance the game, or for any reason the supervisor gives, audited). A floor-ordered move is
    never refused for leaving the table short (R18) and the player owes no blind (R19); barred
    pairs are respected (R15)."""
    unit.actor.require("floor")
    hold, _table, game = hold_reads.seated_hold(unit.session, unit.actor, hold_id, "R19")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    if table.game_id != game.id:
        raise Conflict("that table plays another game: changing games is a new buy-in", "R18")
    if table.id == hold.table_id:
        raise Conflict(f"{player_name(unit.session, hold.player_id)} already sits at table {table.name}",
                       "R18")
    require_seat_for(unit.session, table, game, seat_no, hold.player_id)
    check_added(stack, added, game.max_buyin)
    return carry(unit, game, [Move(hold, table, seat_no, stack, added)], reason)[0]


def claim_move(unit: UnitOfWork, offer_id: int, stack: int,
               added: int = 0) -> SeatHold:
    """R17/R18: a player seated in the game takes the seat they were offered, from the table's
    reserve list (a table change) or as the next to move from a must-move table, carrying the
    stack. A voluntary table change that would leave the player's table with fewer players than
    the table joined is refused; a must-move is ordered by the rule and owes no blind (R19)."""
    unit.actor.require("floor")
    offer, table, game = live_offer(unit.session, unit.actor, offer_id)
    if offer.seat_change_id is not None:
        raise Conflict("a seat change at the player's own table: claim it as a seat change", "R36")
    assert offer.deadline is not None  # every offer has one (ck_seat_holds_offer_fields)
    check_claimable(offer.deadline, unit.now)
    hold = hold_reads.seated_in(unit.session, game, offer.player_id)
    if hold is None:
        raise Conflict(f"{player_name(unit.session, offer.player_id)} is not seated in this game: claim "
                       "the seat with a buy-in", "R18")
    check_added(stack, added, game.max_buyin)
    if offer.from_hold_id is None:
        _require_not_short(unit.session, hold, table)
    if not end_live(unit.session, SeatHold, [offer.id], unit.now, "claimed"):
        raise Conflict("the offer was already taken", "R20")
    unit.audit("offer.claimed", offer_entity(offer), offer_id=offer.id,
               player_id=offer.player_id)
    unit.emit(OffersEnded((offer.id,), "claimed"))
    kind = "table_change" if offer.from_hold_id is None else "must_move"
    return carry(unit, game, [Move(hold, table, offer.seat_no, stack, added, kind)])[0]


def set_must_move(unit: UnitOfWork, table_id: int,
                  feeds_table_id: int | None) -> Table:
    """R17: make a table a must-move table feeding a main table of the same game (None: no
    more); its longest-seated players are then offered the main table's open seats first."""
    unit.actor.require("floor")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    game = locked_game(unit.session, table.game_id)
    main = None if feeds_table_id is None else get_in_room(unit.session, Table, feeds_table_id,
                                                           unit.actor, "table")
    if table.status != "open" or (main is not None and main.status != "open"):
        raise Conflict("a must-move table and its main table must both be open", "R5")
    if main is not None:
        _require_main(unit.session, table, main)
    before, table.feeds_table_id = table.feeds_table_id, feeds_table_id
    unit.audit("table.must_move_set", ("table", table.id),
               feeds_table_id=feeds_table_id, before=before)
    unit.emit(SeatsMayOpen(game.id))
    return table


def break_table(unit: UnitOfWork, table_id: int,
                stacks: dict[int, int] | None = None) -> Broken:
    """R19: break a table. Its players, longest seated first, move into open seats of the game's
    other tables, each to the table that most needs a player and never beside someone they are
    barred from (R15), carrying their stacks (``stacks`` by seat hold id, counted now; otherwise
    the last known, the buy-in) and owing no blind. Those who find no seat lose it and go to the
    top of the waiting list, in that order; then the table closes (R5). All or nothing."""
    unit.actor.require("floor")
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    game = locked_game(unit.session, table.game_id)
    if table.status != "open":
        raise Conflict(f"table {table.name} is already closed: there is nothing to break", "R19")
    holds = list(unit.session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None))
        .order_by(SeatHold.started_at, SeatHold.id)))
    counted = _counted_stacks(unit.session, table, holds, stacks or {}, game.max_buyin)
    others = [s for s in queries.table_states(unit.session, game).states if s.table_id != table.id]
    placed = {a.from_hold_id: a for a in allocate(
        others, [Candidate(None, h.player_id, h.started_at, from_hold_id=h.id) for h in holds],
        hold_reads.barred_pairs(unit.session, table.room_id), set())}
    targets = {t.id: t for t in unit.session.scalars(select(Table).where(
        Table.id.in_({a.table_id for a in placed.values()})))}
    why = f"table {table.name} broken (R19)"
    moves = [Move(h, targets[placed[h.id].table_id], placed[h.id].seat_no,
                  counted.get(h.id, h.buy_in or 0), 0, "broken", h.id in counted)
             for h in holds if h.id in placed]
    moved = carry(unit, game, moves, why) if moves else []
    left = [h for h in holds if h.id not in placed]
    for hold in left:
        end_seat(unit, hold, "released", counted.get(hold.id), "broken")
    listed = to_top_of_waiting_list(unit, game, [h.player_id for h in left], why)
    unit.audit("table.broken", ("table", table.id), reason=why,
               moved=[h.id for h in moved], listed=[e.id for e in listed])
    shut_table(unit, table, game)
    return Broken(table, moved, listed)


def _require_not_short(session: Session, hold: SeatHold, table: Table) -> None:
    """R18: a voluntary move may not leave the player's table with fewer players than the table
    joined will have."""
    counts = hold_reads.seated_counts(session, [hold.table_id, table.id])
    if leaves_short(counts.get(hold.table_id, 0), counts.get(table.id, 0)):
        raise Conflict(f"the move would leave the player's table with {counts.get(hold.table_id, 0) - 1}"
                       f" players and table {table.name} with {counts.get(table.id, 0) + 1}: a "
                       "voluntary table change may not leave a table short", "R18")


def _require_main(session: Session, table: Table, main: Table) -> None:
    """R17: a main table of the same game, and no table feeding itself, even round a chain."""
    if main.id == table.id:
        raise Invalid("a table cannot feed itself", "R17")
    if main.game_id != table.game_id:
        raise Conflict("a must-move table feeds a main table of the same game", "R17")
    seen, step = {table.id}, main
    while step.feeds_table_id is not None:
        if step.feeds_table_id in seen:
            raise Conflict(f"table {main.name} already feeds table {table.name}: no circle", "R17")
        seen.add(step.id)
        step = session.get_one(Table, step.feeds_table_id)


def _counted_stacks(session: Session, table: Table, holds: list[SeatHold], stacks: dict[int, int],
                    max_buyin: int) -> dict[int, int]:
    """The stacks counted for a break, by seat hold; each must be one of the table's seats (a
    refusal names the players of the room's seats given, the ids of the others)."""
    unknown = set(stacks) - {h.id for h in holds}
    if unknown:
        found = {h.id: h for h in session.scalars(select(SeatHold).where(
            SeatHold.id.in_(unknown), SeatHold.room_id == table.room_id))}
        named = [f"{player_name(session, found[i].player_id)} ({seat_name(session, found[i])})"
                 if i in found else f"seat hold {i}" for i in sorted(unknown)]
        raise Invalid(f"{', '.join(named)}: not seated at table {table.name}", "R19")
    for stack in stacks.values():
        check_added(stack, 0, max_buyin)
    return stacks
