"""Playovers (R29): starting one, the owner's "no playover", and ending them. Services never commit.

Every service locks the seat's game first (``locked_game``) and writes an audit row (R60).
Playovers end in one place, ``end_playovers``: when the owner comes back, when the owner's seat is
released by the sweep (R24/R26) or ends any other way, when the overplayer sits down anywhere
(R21), and when the supervisor stops one."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from roomops.absences.models import Absence
from roomops.absences.reads import live_absences
from roomops.absences.rules import Refusal, check_overplayer_stack, is_running
from roomops.actors import Actor, get_in_room
from roomops.db import end_live_by
from roomops.errors import Conflict
from roomops.floor.events import PlayoverStarted
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.holds import queries
from roomops.holds.allocation import Assignment, TableState, allocate, is_barred
from roomops.holds.models import SEATED, SeatHold
from roomops.holds.playovers import Playover
from roomops.holds.refusals import require_next
from roomops.holds.rules import check_buy_in
from roomops.ledger.models import LedgerEntry
from roomops.ledger.rules import AT_TABLE, check_method
from roomops.lists import reads as lists
from roomops.lists.models import ListEntry
from roomops.playovers.rules import (
    Overplayer,
    no_playover_deadline,
    no_playover_refusal,
    overplayer_refusal,
    owner_refusal,
)
from roomops.rooms.models import Player, Room


def start_playover(unit: UnitOfWork, hold_id: int, *, buy_in: int,
                   entry_id: int | None = None, reason: str | None = None,
                   owner_consents: bool = False, buy_in_method: str = AT_TABLE) -> Playover:
    """R29: the next eligible entry of the game's waiting list or the table's reserve list (R14)
    plays over the seat of an owner on a break or away, with ``buy_in`` of their own chips (R30),
    paid as ``buy_in_method`` says (R32: cash at the table unless the desk says otherwise), on the
    books as the overplayer's (``PlayoverStarted``); ``entry_id`` out of list order only with a
    written reason (R13)."""
    unit.actor.require("floor")
    check_method(buy_in_method, "R30", "buy_in")
    hold, table, game = queries.seated_hold(unit.session, unit.actor, hold_id, "R29")
    absence = _absent_owner(unit.session, hold, unit.now)
    room = unit.session.get_one(Room, unit.actor.room_id)
    _refuse(owner_refusal(absence.no_playover_until, unit.now, room.playover_needs_consent, owner_consents,
                          _played_over(unit.session, hold.id)))
    check_buy_in(buy_in, game.min_buyin, game.max_buyin)
    present = {h.player_id for h in queries.live_holds(unit.session, [table.id])} | _overplayers_at(
        unit.session, table.id)
    barred = queries.barred_pairs(unit.session, room.id)
    nxt = _next_in_order(unit.session, game, table, hold.seat_no, present, barred)
    entry = _entry(unit.session, unit.actor, entry_id, nxt)
    _refuse(overplayer_refusal(_overplayer(unit.session, game, table, entry, present, barred)))
    require_next(unit.session, nxt, entry.player_id, reason, "R29")
    playover = Playover(room_id=room.id, hold_id=hold.id, absence_id=absence.id,
                        player_id=entry.player_id, entry_id=entry.id, started_at=unit.now, buy_in=buy_in,
                        reason=reason.strip() if reason and reason.strip() else None)
    unit.session.add(playover)
    unit.session.flush()
    unit.audit("playover.started", ("seat_hold", hold.id), reason=playover.reason,
               playover_id=playover.id, player_id=entry.player_id, entry_id=entry.id,
               owner_id=hold.player_id, table_id=table.id, seat_no=hold.seat_no, buy_in=buy_in,
               owner_stack=absence.stack, owner_consented=owner_consents, buy_in_method=buy_in_method)
    unit.emit(PlayoverStarted(hold.id, playover.id, entry.player_id, buy_in, buy_in_method))
    return playover


def ask_no_playover(unit: UnitOfWork, hold_id: int,
                    minutes: int | None = None) -> Absence:
    """R29: an absent owner asks for no playover for up to ``no_playover_max_minutes`` (the whole
    of it when ``minutes`` is not given). The deadline is stored on the absence; no job ends it."""
    unit.actor.require("floor")
    hold, _table, _game = queries.seated_hold(unit.session, unit.actor, hold_id, "R29")
    absence = _absent_owner(unit.session, hold, unit.now)
    room = unit.session.get_one(Room, unit.actor.room_id)
    minutes = room.no_playover_max_minutes if minutes is None else minutes
    _refuse(no_playover_refusal(minutes, room.no_playover_max_minutes,
                                absence.no_playover_until is not None, _played_over(unit.session, hold.id)))
    absence.no_playover_until = no_playover_deadline(unit.now, minutes)
    unit.audit("no_playover.requested", ("seat_hold", hold.id),
               absence_id=absence.id, player_id=hold.player_id, minutes=minutes,
               until=absence.no_playover_until.isoformat())
    return absence


def stop_playover(unit: UnitOfWork, hold_id: int, stack: int) -> Playover:
    """R29: the supervisor ends a playover (the overplayer leaves with ``stack``, counted: their
    cash-out is tied to it, R27); their list entry keeps its place."""
    unit.actor.require("floor")
    check_overplayer_stack(stack)
    hold, _table, _game = queries.seated_hold(unit.session, unit.actor, hold_id, "R29")
    ended = end_playovers(unit, "stopped", "hold_id", [hold.id], leave_amount=stack)
    if not ended:
        raise Conflict("nobody is playing over this seat", "R29")
    return unit.session.get_one(Playover, ended[0])


def end_playovers(unit: UnitOfWork, outcome: str,
                  key: Literal["hold_id", "player_id"], ids: Collection[int], *,
                  leave_amount: int | None = None) -> list[int]:
    """End the live playovers on the owners' seat holds (``key`` "hold_id") or by the
    overplayers ("player_id") ``ids``: one conditional UPDATE ... RETURNING (``end_live_by``;
    nothing read first: usually there is none) and their audit rows, however many there are.
    Returns the ids of those this transaction ended. The overplayer vacates at the end of the
    hand; their list entry was never ended, so it keeps its place (R29).

    Every playover ends with a leave amount (R27, R52; ck_playovers_ended_counted): the
    overplayer's counted stack, ``leave_amount``, where a person ends one seat's playover and
    counts it; otherwise (the sweep, R24/R26, or the owner leaving or moving) the chips the books
    hold for the playover (``ON_THE_BOOKS``: its buy-in and add-ons), the last known stack, as a
    break's release records the owner's. The cage's cash-out is tied to it; a different count
    there needs a supervisor's approval (R27, R28). The audit row says which (``stack_counted``)."""
    ended = sorted(end_live_by(unit.session, Playover, key, list(ids), unit.now, outcome,
                               ("hold_id", "player_id", "entry_id", "buy_in", "leave_amount"),
                               leave_amount=ON_THE_BOOKS if leave_amount is None else leave_amount))
    for p in ended:
        unit.audit("playover.ended", ("seat_hold", p.hold_id), playover_id=p.id,
                   player_id=p.player_id, entry_id=p.entry_id, outcome=outcome, buy_in=p.buy_in,
                   leave_amount=p.leave_amount, stack_counted=leave_amount is not None,
                   leave_at_end_of_hand=outcome in ("owner_back", "stopped"))
    return [p.id for p in ended]


# R29/R52: the chips on the books for a playover as it ends (its rows are its buy-in and add-ons,
# with any reversal; no cash-out while it runs), the leave amount where nobody counted
ON_THE_BOOKS = func.coalesce(select(func.sum(LedgerEntry.amount)).where(
    LedgerEntry.playover_id == Playover.id).scalar_subquery(), 0)


def told_to_leave(session: Session, absence_id: int) -> Player | None:
    """The overplayer told to leave at the end of the hand because the owner came back from this
    absence (R29)."""
    return session.scalar(select(Player).join(Playover, Playover.player_id == Player.id).where(
        Playover.absence_id == absence_id, Playover.outcome == "owner_back"))


def _refuse(refusal: Refusal | None) -> None:
    if refusal is not None:
        raise Conflict(refusal.reason, refusal.rule)


def _absent_owner(session: Session, hold: SeatHold, now: datetime) -> Absence:
    """The owner's running break or time away; refused when there is none (past its deadline the
    seat is being released, R24/R26)."""
    absence = next(iter(live_absences(session, [hold.id])), None)
    if absence is None or not is_running(absence.deadline, now):
        raise Conflict("the seat's owner is not on a break or away: only a vacant seat is played "
                       "over", "R29")
    return absence


def _played_over(session: Session, hold_id: int) -> bool:
    return session.scalar(select(Playover.id).where(Playover.hold_id == hold_id,
                                                    Playover.ended_at.is_(None))) is not None


def _overplayers_at(session: Session, table_id: int) -> set[int]:
    """Players playing over a seat at the table: they are at it for R14 and R15."""
    return set(session.scalars(select(Playover.player_id).join(
        SeatHold, SeatHold.id == Playover.hold_id).where(
        SeatHold.table_id == table_id, Playover.ended_at.is_(None))))


def _seated(session: Session, room_id: int, player_ids: Collection[int]) -> set[int]:
    return set(session.scalars(select(SeatHold.player_id).where(
        SeatHold.room_id == room_id, SeatHold.kind == SEATED, SeatHold.ended_at.is_(None),
        SeatHold.player_id.in_(list(player_ids)))))


def _next_in_order(session: Session, game: Game, table: Table, seat_no: int, present: set[int],
                   barred: set[frozenset[int]]) -> Assignment | None:
    """R14/R29: the earliest eligible entry for the seat, as for an opened seat (R14), and neither
    seated in the room nor playing over already."""
    candidates, busy = lists.candidates(session, game)
    ids = {c.player_id for c in candidates}
    busy |= _seated(session, game.room_id, ids) | queries.playing_over(session, game.room_id, ids)
    found = allocate([TableState(table.id, [seat_no], set(present))], candidates, barred, busy)
    return found[0] if found else None


def _entry(session: Session, actor: Actor, entry_id: int | None, nxt: Assignment | None) -> ListEntry:
    if entry_id is not None:
        return get_in_room(session, ListEntry, entry_id, actor, "list entry")
    if nxt is None:
        raise Conflict("nobody on the waiting list or the table's reserve list may play over this "
                       "seat", "R29")
    return session.get_one(ListEntry, nxt.entry_id)


def _overplayer(session: Session, game: Game, table: Table, entry: ListEntry, present: set[int],
                barred: set[frozenset[int]]) -> Overplayer:
    pid = entry.player_id
    return Overplayer(
        on_the_list=entry.status == "active" and entry.game_id == game.id
        and entry.table_id in (None, table.id),
        awaiting_checkin=entry.checkin_deadline is not None and entry.checked_in_at is None,
        holds_offer=queries.holds_offer(session, game.room_id, pid),
        at_the_table=pid in present,
        barred_at_the_table=is_barred(pid, present, barred),
        seated_in_room=bool(_seated(session, game.room_id, [pid])),
        playing_over=bool(queries.playing_over(session, game.room_id, [pid])),
    )


@dataclass(frozen=True)
class PlayedOver:
    """R29: a seat of the table played over: who plays it (with their own chips) and whose box it
    is (the owner, and the owner's stack kept in the play-over box)."""

    seat_no: int
    player: Player
    buy_in: int
    owner: Player
    box: int


_OWNER = aliased(Player, name="owner")


def played_over_at(session: Session, table_id: int) -> list[PlayedOver]:
    """R29: the table's running playovers, by seat, in one statement."""
    rows = session.execute(
        select(SeatHold.seat_no, Player, Playover.buy_in, _OWNER, Absence.stack)
        .join(SeatHold, SeatHold.id == Playover.hold_id).join(Player, Player.id == Playover.player_id)
        .join(_OWNER, _OWNER.id == SeatHold.player_id).join(Absence, Absence.id == Playover.absence_id)
        .where(SeatHold.table_id == table_id, Playover.ended_at.is_(None)).order_by(SeatHold.seat_no))
    return [PlayedOver(*row) for row in rows]
