"""Seat offers and the claim timer (R14, R20-R22). Services never commit."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import bindparam, case, literal, select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.db import Change, UTCDateTime, end_live, end_live_by, insert_rows, update_returning
from roomops.errors import Conflict, Invalid, NotFound
from roomops.floor.events import MustMoveRefused, OfferOutcome, OffersEnded, OffersMade, SeatsMayOpen
from roomops.floor.unit import UnitOfWork
from roomops.games.locks import locked_game, table_in_room
from roomops.games.models import Game, Table
from roomops.hands.seats import next_big_blind
from roomops.holds import queries as hold_reads
from roomops.holds.allocation import Assignment, Candidate, TableState, allocate, is_barred
from roomops.holds.extra_seat import check_seat
from roomops.holds.models import OFFER, SeatHold
from roomops.holds.refusals import player_name, require_next, seat_taken
from roomops.holds.rules import claim_deadline
from roomops.lists import reads as lists
from roomops.lists.endings import MISSED_CALL
from roomops.lists.history import record_end
from roomops.lists.models import ListEntry
from roomops.lists.ordering import TICK
from roomops.playovers.rules import PLAYING_OVER
from roomops.rooms.models import Room
from roomops.seating import queries
from roomops.seating.seat_changes import end_requests

_DUE = select(SeatHold, Table.game_id).join(Table, Table.id == SeatHold.table_id).where(
    Table.game_id.in_(bindparam("game_ids", expanding=True)), SeatHold.kind == OFFER,
    SeatHold.ended_at.is_(None),
    SeatHold.deadline <= bindparam("now"), SeatHold.reserved_at.is_(None))
# The allocation's first read, in entries for each open seat: more than one, as some are passed
# over (barred, already at the table, a table change that would leave their table short, just
# missed a call).
_PER_SEAT = 8


def plan(session: Session, game: Game, *, skip: Set[int] = frozenset()) -> list[Assignment]:
    """R14/R17: who the open seats of the game go to: players due a must-move seat first, then
    in list order. ``skip``: players not to be offered a seat now."""
    seats = queries.table_states(session, game)
    if not any(state.open_seats for state in seats.states):
        return []  # no seat to give: the lists need not be read
    return _allocate(session, game, seats, hold_reads.barred_pairs(session, game.room_id), skip)


def _allocate(session: Session, game: Game, seats: queries.GameSeats, barred: set[frozenset[int]],
              skip: Set[int], *, lists_only: bool = False) -> list[Assignment]:
    """The R14 allocation of ``seats``' open seats. It reads the first entries that could take
    one (``_PER_SEAT`` for each open seat: on the waiting list or the reserve list of a table with
    one, and holding no offer: the head of a list is often called already), and the whole lists
    only if those run out before every seat is given: the allocation goes in list order and stops
    once the seats are given, so what it gives from the first entries is what it would give from
    all of them."""
    room = session.get_one(Room, game.room_id)
    movers, moving = queries.must_movers(session, game) if seats.must_move and not lists_only else (
        [], set())
    if movers and room.must_move_when == "big_blind":
        movers = _big_blind_reached(session, game, room, seats, movers, moving)
    open_seats = sum(len(state.open_seats) for state in seats.states)
    with_seats = [state.table_id for state in seats.states if state.open_seats]
    askers, asking = queries.requesters(session, [] if lists_only else with_seats)
    first_asked = askers + movers

    def give(first: tuple[int, list[int]] | None) -> tuple[list[Assignment], int]:
        entries, busy = lists.candidates(session, game, first)
        entries = [replace(e, seated_at=seats.seated_at[e.player_id])
                   if e.player_id in seats.seated_at else e for e in entries]
        return allocate(seats.states, first_asked + entries, barred, busy | moving | asking | skip,
                        room.placement), len(entries)

    n = _PER_SEAT * open_seats
    found, read = give((n, with_seats))
    if len(found) < open_seats and read == n:  # the first entries ran out: read the whole lists
        found, _ = give(None)
    return found


def _big_blind_reached(session: Session, game: Game, room: Room, seats: queries.GameSeats,
                       movers: list[Candidate], moving: set[int]) -> list[Candidate]:
    """R17 ``must_move_when`` 'big_blind': a main table's next must-move player (the longest
    seated at its must-move tables, holding no offer yet) moves when the big blind reaches them
    there, instead of posting it; until then the main table's open seats wait for them (nobody
    behind them, on a must-move table or a list, takes their place). Before the must-move table's
    first hand there is no blind to dodge: they move at once."""
    holds = {h.id: h for h in session.scalars(select(SeatHold).where(
        SeatHold.id.in_([m.from_hold_id for m in movers])))}
    tables = {t.id: t for t in session.scalars(select(Table).where(
        Table.id.in_({h.table_id for h in holds.values()})))}
    posting = game.posting(room.new_player_posting)
    checked: set[int | None] = set()
    waiting: set[int | None] = set()
    for mover in sorted((m for m in movers if m.player_id not in moving), key=Candidate.order):
        if mover.table_id in checked or mover.from_hold_id is None:
            continue
        checked.add(mover.table_id)
        hold = holds[mover.from_hold_id]
        if next_big_blind(session, tables[hold.table_id], game, posting) not in (None, hold.seat_no):
            waiting.add(mover.table_id)
    for state in seats.states:
        if state.table_id in waiting:
            state.open_seats = []
    return [m for m in movers if m.table_id not in waiting]


@dataclass
class OpenSeat:
    """One seat of one table with the game's seats as read for it (that seat the only one left
    open, none if the table closed) and the room's barred pairs: the seat checks (R4, R20, R14,
    R15) and the list-order check (R13) share one read of each. ``over_reason``: the floor's
    reason for seat N+1, one over the table's count (R4)."""

    table_id: int
    seat_no: int
    seats: queries.GameSeats
    barred: set[frozenset[int]]
    over_reason: str | None = None

    @property
    def state(self) -> TableState | None:
        return next((s for s in self.seats.states if s.table_id == self.table_id), None)


def open_seat(session: Session, game: Game, table_id: int, seat_no: int) -> OpenSeat:
    """The seat as ``OpenSeat`` reads it: two statements (the game's seats, the barred pairs)."""
    seats = queries.table_states(session, game)
    for state in seats.states:
        state.open_seats = [seat_no] if state.table_id == table_id else []
    return OpenSeat(table_id, seat_no, seats, hold_reads.barred_pairs(session, game.room_id))


def next_for_seat(session: Session, game: Game, seat: OpenSeat) -> Assignment | None:
    """R14: the next eligible entry for the seat, if any; for the extra seat (R4) the lists'
    only: a must-move or a seat change never moves into it (R17, R36)."""
    found = _allocate(session, game, seat.seats, seat.barred, set(),
                      lists_only=seat.over_reason is not None)
    return found[0] if found else None


def next_at(session: Session, actor: Actor, table_id: int, seat_no: int) -> Assignment | None:
    """R14: who a seat of the actor's room would be offered to now (``next_for_seat``), for the
    desk's offer dialog: read only, no lock; None at a closed table. Seat N+1 of a full table is
    the lists' only (R4), as when it is offered."""
    table = table_in_room(session, actor, table_id)
    game = session.get_one(Game, table.game_id)
    seat = open_seat(session, game, table.id, seat_no)
    if table.status != "open" or seat.state is None:
        return None
    if seat_no > game.seats_per_table:
        seat.over_reason = ""  # its reason is the floor's, typed as it is offered
    return next_for_seat(session, game, seat)


def fill_open_seats(unit: UnitOfWork, game: Game,
                    skip: Set[int] = frozenset(), *, only_if_open: bool = False) -> list[SeatHold]:
    """R14/R20: with the room's ``auto_offer`` on, offer every open seat of the game at once.

    ``skip``: players who just missed a call are not handed the seat straight back.
    ``only_if_open``: no seat opened (a claim seated a player where their offer held the seat),
    so the game's seats are read only if one was open already (one more player seated may let a
    table change go ahead, R18); in a busy game none is."""
    room = unit.session.get_one(Room, game.room_id)
    if not room.auto_offer or game.status != "open":
        return []
    if only_if_open and not queries.any_open_seat(unit.session, game):
        return []
    return make_offers(unit, room, plan(unit.session, game, skip=skip))


def make_offers(unit: UnitOfWork, room: Room, assignments: list[Assignment],
                reason: str | None = None) -> list[SeatHold]:
    """R20: each offer holds its seat until its deadline; all are written in one batch.

    One INSERT ... RETURNING (``insert_rows``); each player holds at most one live offer (R14),
    which is how the returned rows, in no promised order, are matched to the assignments. A
    must-move offer (R17) names the seat the player moves from instead of a list entry."""
    if not assignments:
        return []
    deadlines = {False: claim_deadline(unit.now, room.claim_minutes),
                 True: claim_deadline(unit.now, room.seat_change_claim_minutes)}
    made = {o.player_id: o for o in insert_rows(unit.session, SeatHold, [
        {"room_id": room.id, "table_id": a.table_id, "seat_no": a.seat_no, "player_id": a.player_id,
         "kind": "offer", "entry_id": a.entry_id, "from_hold_id": a.from_hold_id,
         "seat_change_id": a.seat_change_id, "over_reason": a.over_reason, "started_at": unit.now,
         "deadline": deadlines[a.seat_change_id is not None]}
        for a in assignments])}
    offers = [made[a.player_id] for a in assignments]
    for offer in offers:
        assert offer.deadline is not None  # every offer has one (ck_seat_holds_offer_fields)
        unit.audit("offer.made", offer_entity(offer), reason=reason,
                   offer_id=offer.id, table_id=offer.table_id, seat_no=offer.seat_no,
                   deadline=offer.deadline.isoformat(), player_id=offer.player_id,
                   **_moving_from(offer), **one_over(offer.over_reason))
    for a in assignments:
        for entry_id, because in a.passed:  # R13-R18: the players passed over are told why
            unit.audit("entry.passed_over", ("list_entry", entry_id),
                       offer_id=made[a.player_id].id, table_id=a.table_id, seat_no=a.seat_no,
                       because=because)
    unit.emit(OffersMade(tuple(o.id for o in offers)))
    return offers


def one_over(over_reason: str | None) -> dict[str, str]:
    """The audit's words for a hold in the extra seat (R4): the floor's reason."""
    return {} if over_reason is None else {"one_over": over_reason}


def _moving_from(offer: SeatHold) -> dict[str, int]:
    """The audit's words for a seated player's offer: a seat change (R36) or a must-move (R17)."""
    if offer.seat_change_id is not None:
        return {"seat_change_from": offer.from_hold_id or 0}
    return {"must_move_from": offer.from_hold_id} if offer.from_hold_id else {}


def offer_entity(offer: SeatHold) -> tuple[str, int]:
    """What an offer's audit rows belong to: its list entry, its seat-change request (R36), or
    the must-move seat (R17)."""
    if offer.seat_change_id is not None:
        return "seat_change", offer.seat_change_id
    return ("list_entry", offer.entry_id) if offer.entry_id else ("seat_hold", offer.from_hold_id or 0)


def offer_by_hand(unit: UnitOfWork, *, table_id: int, seat_no: int,
                  entry_id: int | None = None, reason: str | None = None,
                  over_reason: str | None = None) -> SeatHold:
    """R14: the supervisor offers a seat to whoever is next for it, decided as the sweep decides
    (``next_for_seat``: a seat-change request at the table first, R36, then a must-move player,
    R17, then the lists in order), when ``entry_id`` is None; or to that list entry, out of
    order only with a written reason (R13). Seat N+1 of a full table, one over its count, only
    with ``over_reason`` (R4)."""
    unit.actor.require("floor")
    table = table_in_room(unit.session, unit.actor, table_id)
    game = locked_game(unit.session, table.game_id)
    seat = require_open_seat(unit.session, table, game, seat_no, over_reason)
    nxt = next_for_seat(unit.session, game, seat)
    if entry_id is None:
        if nxt is None:
            raise Conflict(f"nobody can be offered seat {seat_no} at table {table.name} now: "
                           "nobody eligible is on its lists, at a table that must move to it or "
                           "on its seat-change list", "R14")
        chosen = nxt
    else:
        entry = _offerable_entry(unit.session, unit.actor, table, game, entry_id)
        require_player_fits(unit.session, seat, table, entry.player_id)
        require_next(unit.session, nxt, entry.player_id, reason, "R13")
        chosen = Assignment(table.id, seat_no, entry.id, entry.player_id)
    return make_offers(unit, unit.session.get_one(Room, unit.actor.room_id),
                       [replace(chosen, over_reason=seat.over_reason)], reason)[0]


def _offerable_entry(session: Session, actor: Actor, table: Table, game: Game,
                     entry_id: int) -> ListEntry:
    """R12-R14: an entry the desk may offer a seat of ``table``: on its reserve list or its
    game's waiting list, checked in, not locked up, holding no offer."""
    entry, offered = lists.entry_in_room(session, actor, entry_id)
    name = player_name(session, entry.player_id)
    if entry.status != "active" or entry.game_id != game.id or entry.table_id not in (None, table.id):
        raise Conflict(f"{name} is not on the reserve list of table {table.name} or its game's "
                       "waiting list", "R14")
    if entry.checkin_deadline is not None and entry.checked_in_at is None:
        raise Conflict(f"{name} has not checked in at the desk yet", "R12")
    if entry.locked_until is not None:
        raise Conflict(f"{name} stepped away (locked up): end the lockup when they are back", "R13")
    if offered:
        raise Conflict(f"{name} already holds an open offer", "R14")
    return entry


def require_seat_for(session: Session, table: Table, game: Game, seat_no: int,
                     player_id: int, over_reason: str | None = None) -> OpenSeat:
    """``require_open_seat`` and ``require_player_fits``: the seat is free and the player may
    sit in it. One read of the game's seats and one of the barred pairs, returned for the
    list-order check (``next_for_seat``)."""
    seat = require_open_seat(session, table, game, seat_no, over_reason)
    require_player_fits(session, seat, table, player_id)
    return seat


def require_open_seat(session: Session, table: Table, game: Game, seat_no: int,
                      over_reason: str | None = None) -> OpenSeat:
    """R5/R20: the seat exists at an open table and is neither taken nor called; R4: the table is
    under its count, or the seat is N+1 of a full table with the floor's ``over_reason``
    (``extra_seat.check_seat``)."""
    if table.status != "open":
        raise Conflict(f"table {table.name} is closed", "R5")
    seat = open_seat(session, game, table.id, seat_no)
    if seat.state is None:  # closed since it was read, before the game's lock was taken
        raise Conflict(f"table {table.name} is closed", "R5")
    if seat_no in seat.seats.taken[table.id]:
        raise seat_taken(session, table, seat_no)
    seat.over_reason = check_seat(game.seats_per_table, seat_no, seat.seats.taken[table.id],
                                  seat.seats.seated_nos(table.id), over_reason, table.name)
    return seat


def require_player_fits(session: Session, seat: OpenSeat, table: Table, player_id: int) -> None:
    """R14/R15: the player is not already at the table, nor barred from anyone there."""
    state = seat.state
    assert state is not None  # require_open_seat found the table open
    if player_id in state.players:
        raise Conflict(f"{player_name(session, player_id)} is already at table {table.name}", "R14")
    if is_barred(player_id, state.players, seat.barred):
        raise Conflict(f"{player_name(session, player_id)} is barred from playing with someone at "
                       f"table {table.name}", "R15")


def live_offer(session: Session, actor: Actor, offer_id: int) -> tuple[SeatHold, Table, Game]:
    """The offer with its game locked, re-read after the lock so concurrent changes are seen."""
    offer = hold_reads.hold_in_room(session, actor, offer_id, "offer")
    if offer.kind != "offer":
        raise NotFound(f"no offer with id {offer_id} in this room")
    table = session.get_one(Table, offer.table_id)
    game = locked_game(session, table.game_id, reread=offer)
    if offer.ended_at is not None:
        raise Conflict(f"the offer was already {offer.outcome}", "R20")
    return offer, table, game


def cancel_entry_offers(unit: UnitOfWork,
                        entry_ids: list[int]) -> list[int]:
    """An entry that leaves its list (R16) or whose player sits down in the game (R21) gives up the
    seat it was called to; not a missed call. Returns the offers cancelled."""
    ended = end_live_by(unit.session, SeatHold, "entry_id", entry_ids, unit.now, "cancelled",
                        ("entry_id", "player_id", "table_id", "seat_no"), kind=OFFER)
    for offer_id, entry_id, player_id, table_id, seat_no in ended:
        unit.audit("offer.cancelled", ("list_entry", entry_id or 0),
                   offer_id=offer_id, player_id=player_id, table_id=table_id, seat_no=seat_no)
    cancelled = sorted(row[0] for row in ended)
    if cancelled:
        unit.emit(OffersEnded(tuple(cancelled), "cancelled"))
    return cancelled


def release_offers(unit: UnitOfWork,
                   offers: Sequence[tuple[SeatHold, Game]], outcome: OfferOutcome,
                   stack: int | None = None) -> list[SeatHold]:
    """R22: a declined or expired offer (with its game) is a missed call; the entry is removed or
    sent to the bottom per ``on_claim_expiry`` (a must-move seat refused: ``must_move_refusal``,
    R17, with the ``stack`` the desk counted; a seat change: the request ends, R36), and the seat
    goes to the next player. The offers of several games (the sweep's) in one UPDATE each.
    R29: a player playing over a seat, who cannot leave it mid-hand, is no no-show: their entry
    keeps its place (docs/decisions.md, "A call missed while playing over")."""
    ended = set(end_live(unit.session, SeatHold, [o.id for o, _ in offers], unit.now, outcome))
    mine = sorted(((o, g) for o, g in offers if o.id in ended), key=lambda pair: pair[0].started_at)
    room = unit.session.get_one(Room, unit.actor.room_id)
    busy = hold_reads.playing_over(unit.session, room.id, {o.player_id for o, _ in mine if o.entry_id})
    changed = _missed_calls(unit.session, unit.now, room,
                            [o for o, _ in mine if o.player_id not in busy], outcome)
    for offer, game in mine:
        if offer.seat_change_id is not None:
            unit.audit(f"offer.{outcome}", offer_entity(offer), offer_id=offer.id,
                       missed_call=True, player_id=offer.player_id)
        elif offer.entry_id is None:
            refuse_must_move(unit, room, game, offer, outcome, stack)
        elif offer.player_id in busy:
            unit.audit(f"offer.{outcome}", ("list_entry", offer.entry_id),
                       offer_id=offer.id, missed_call=False, policy=PLAYING_OVER, rule="R29")
        else:
            unit.audit(f"offer.{outcome}", ("list_entry", offer.entry_id),
                       offer_id=offer.id, missed_call=True, policy=room.on_claim_expiry)
            if offer.entry_id in changed and room.on_claim_expiry != "bottom":
                record_end(unit, "entry.removed", offer.entry_id, offer.player_id,
                           _missed(outcome))
    end_requests(unit, [o.seat_change_id for o, _ in mine if o.seat_change_id],
                 outcome)
    if mine:
        unit.emit(OffersEnded(tuple(o.id for o, _ in mine), outcome))
    for seats in SeatsMayOpen.each({g.id for _, g in offers}, [(g.id, o.player_id) for o, g in mine]):
        unit.emit(seats)
    return [o for o, _ in mine]


_STILL_LISTED = [ListEntry.status == "active"]
_OFF_THE_LIST = Change.of(ListEntry, "id", "entries", _STILL_LISTED, {
    "status": "removed", "ended_at": bindparam("at"), "end_reason": bindparam("why")})
_TO_THE_BOTTOM = Change.of(ListEntry, "id", "entries", _STILL_LISTED, {})  # queue_at: a CASE each run


def _missed_calls(session: Session, now: datetime, room: Room, offers: list[SeatHold],
                  outcome: OfferOutcome) -> set[int]:
    """R22: the entries of these missed calls still on their list go to its bottom, keeping the
    calls' order, or come off it, per ``on_claim_expiry``: one UPDATE; returns their ids."""
    at = {o.entry_id: now + i * TICK for i, o in enumerate(offers) if o.entry_id}
    if not at:
        return set()
    params = {"entries": list(at)}
    if room.on_claim_expiry != "bottom":
        rows = update_returning(session, _OFF_THE_LIST, params | {"at": now, "why": _missed(outcome)})
    else:
        rows = update_returning(session, _TO_THE_BOTTOM, params, queue_at=case(
            {entry_id: literal(when, UTCDateTime()) for entry_id, when in at.items()},
            value=ListEntry.id))
    return {row.id for row in rows}


def _missed(outcome: OfferOutcome) -> str:
    return f"{MISSED_CALL} ({outcome})"


def refuse_must_move(unit: UnitOfWork, room: Room, game: Game,
                     offer: SeatHold, outcome: OfferOutcome, stack: int | None = None) -> None:
    """R17: a player who declines a must-move seat, or lets its call run out, with ``forced``
    gives up the seat at the must-move table: it is released, with ``stack`` (counted by the desk
    as the player declined; none when the call ran out) feeding R27 as leaving does, and the
    player goes to the bottom of the waiting list, as when a seat is lost (R24;
    ``MustMoveRefused``). With ``skip`` they keep their seat and the next player at the must-move
    table is offered the main table's seat."""
    unit.audit(f"offer.{outcome}", offer_entity(offer), offer_id=offer.id,
               missed_call=True, policy=room.must_move_refusal, player_id=offer.player_id,
               stack=stack)
    if room.must_move_refusal == "forced" and offer.from_hold_id is not None:
        unit.emit(MustMoveRefused(game.id, offer.from_hold_id, offer.player_id, stack))


def decline(unit: UnitOfWork, offer_id: int,
            stack: int | None = None) -> SeatHold:
    """R22: the player declines, a missed call. ``stack``: the player's chips counted as they
    refuse a must-move seat under ``forced`` (R17), the leave amount of the seat they give up
    (R27); refused for any other offer, where no seat is given up."""
    unit.actor.require("floor")
    offer, _table, game = live_offer(unit.session, unit.actor, offer_id)
    if stack is not None:
        _check_refusal_stack(unit.session, offer, stack)
    release_offers(unit, [(offer, game)], "declined", stack)
    return offer


def _check_refusal_stack(session: Session, offer: SeatHold, stack: int) -> None:
    if stack < 0:
        raise Invalid("a counted stack cannot be negative", "R17")
    room = session.get_one(Room, offer.room_id)
    if offer.from_hold_id is None or room.must_move_refusal != "forced":
        raise Invalid("a stack is counted only when a player refuses a forced must-move seat and "
                      "gives up their own", "R17")


def expire_due(unit: UnitOfWork,
               games: Sequence[Game]) -> list[SeatHold]:
    """R22: every offer of the games whose deadline has come, to the second; the caller holds
    their locks."""
    by_id = {g.id: g for g in games}
    due = [(offer, by_id[game_id]) for offer, game_id in unit.session.execute(
        _DUE, {"game_ids": list(by_id), "now": unit.now}).tuples()]
    return release_offers(unit, due, "expired") if due else []
