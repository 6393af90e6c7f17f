"""The handler table: what follows each event, listed once (cosmicpython's ``EVENT_HANDLERS``).

The top of the tree, beside the application factory: the reactions call the domain packages'
services, which raise the events (``roomops.floor.events``) knowing nothing of who reacts.
Handlers take the unit of work and run in its transaction, in the order listed; ``SeatsMayOpen``
comes last for each game (``roomops.floor.unit``). Work that must wait for the commit (messages,
screen pushes) is queued with ``unit.after_commit``."""

from __future__ import annotations

from roomops.absences.ending import end_seat_absences
from roomops.absences.models import Absence
from roomops.dealers.pushes import carry_out
from roomops.errors import Conflict
from roomops.floor.events import (
    AbsencesEnded,
    AutoOffersOn,
    CodeAsked,
    EntriesLeft,
    EntryJoined,
    HandRecorded,
    MustMoveRefused,
    OffersEnded,
    OffersMade,
    PlayerRemoved,
    PlayerSeated,
    PlayoverStarted,
    RotationMayMove,
    SeatsEnded,
    SeatsLostToBlinds,
    SeatsMayOpen,
    StacksCarried,
)
from roomops.floor.unit import Handlers, UnitOfWork
from roomops.games.models import Game
from roomops.games.services import offer_open_games
from roomops.holds.models import SeatHold
from roomops.ledger import playover_rows
from roomops.ledger import services as ledger
from roomops.lists.entries import to_bottom_of_waiting_list
from roomops.lists.history import end_player_entries
from roomops.messages.codes import text_code
from roomops.messages.courier import LOG_ONLY, Courier
from roomops.messages.outbox import cancel_offer_texts, queue_offer_texts
from roomops.playovers.services import end_playovers
from roomops.seating.offers import cancel_entry_offers, fill_open_seats
from roomops.seating.releases import release_lost_to_blinds
from roomops.seating.seat_change import on_hand_recorded
from roomops.seating.seat_changes import end_requests_of_seats
from roomops.seating.seats import cancel_must_move_offers, end_seat, leave_game_lists
from roomops.waits.services import WaitsCache, keep_wait_shown

# R29: why a playover ends when the owner's absence does
_PLAYOVER_ENDS = {"returned": "owner_back", "released": "seat_released", "seat_ended": "seat_ended"}


def end_what_sat_on_seats(unit: UnitOfWork, event: SeatsEnded) -> None:
    """A break or time away ends with its seat (R23, R25); a must-move or seat-change offer from
    it is void (R17, R36), and so is a seat-change request; the seats are free (R14)."""
    end_seat_absences(unit, list(event.hold_ids), "seat_ended")
    cancel_must_move_offers(unit, list(event.hold_ids))
    end_requests_of_seats(unit, list(event.hold_ids))
    for game_id in event.game_ids:
        unit.emit(SeatsMayOpen(game_id))


def end_playovers_of_absences(unit: UnitOfWork, event: AbsencesEnded) -> None:
    """R29: the overplayer leaves when the owner comes back or loses the seat, with their stack
    when the desk counted it (R27); a stack given for a seat nobody played over is refused."""
    stack = event.overplayer_stack
    if not end_playovers(unit, _PLAYOVER_ENDS[event.outcome], "hold_id",
                         event.hold_ids, leave_amount=stack) and stack is not None:
        raise Conflict("nobody was playing over the seat: there is no overplayer's stack to "
                       "record", "R29")


def end_playovers_of_player(unit: UnitOfWork, event: PlayerSeated) -> None:
    """R29: a player who sits down plays over no one's seat any more: a seat of their own; the
    stack they leave it with, counted, is the playover's (R27, R52)."""
    end_playovers(unit, "seated", "player_id", [event.player_id],
                  leave_amount=event.overplayer_stack)


def post_buy_in(unit: UnitOfWork, event: PlayerSeated) -> None:
    """R30/R27/R32: the buy-in the desk accepted is on the books, in the same transaction."""
    ledger.at_desk(unit, unit.session.get_one(SeatHold, event.hold_id),
                   event.buy_in, event.method)


def post_playover_buy_in(unit: UnitOfWork, event: PlayoverStarted) -> None:
    """R29/R30/R32: the overplayer's buy-in is on the books, theirs, on the owner's seat."""
    playover_rows.at_start(unit, unit.session.get_one(SeatHold, event.hold_id),
                           event.playover_id, event.player_id, event.buy_in, event.method)


def take_off_lists(unit: UnitOfWork, event: PlayerSeated) -> None:
    """R21: a player seated in a game comes off its lists (other games' lists keep them, R10);
    one more player seated may let a table change go ahead (R18). A claim leaves no other offer to
    cancel (one live offer per player, R14) and opens no seat."""
    ended = leave_game_lists(unit, unit.session.get_one(Game, event.game_id),
                             [event.player_id], f"seated at table {event.table_name}")
    if ended and not event.claimed:
        unit.emit(EntriesLeft(event.game_id, tuple(ended)))
    unit.emit(SeatsMayOpen(event.game_id, only_if_open=event.claimed))


def post_transfers(unit: UnitOfWork, event: StacksCarried) -> None:
    """R18/R52: each stack carried is a transfer pair between the tables, chips added an add-on."""
    ledger.table_changes(unit, event.game_id, event.moves)


def cancel_offers_of_entries(unit: UnitOfWork, event: EntriesLeft) -> None:
    """R16/R21: a seat the entry was called to is given up, and offered again (R14)."""
    if cancel_entry_offers(unit, list(event.entry_ids)):
        unit.emit(SeatsMayOpen(event.game_id))


def release_refused_seat(unit: UnitOfWork, event: MustMoveRefused) -> None:
    """R17 (``forced``): the seat at the must-move table is released with the stack the desk
    counted as its leave amount (it feeds R27, which names R17; none when the call ran out), and
    the player goes to the bottom of the waiting list, as when a seat is lost (R24). A seat that
    has ended already (the player left it meanwhile) has nothing left to release."""
    seat = unit.session.get_one(SeatHold, event.hold_id)
    if seat.ended_at is None:
        game = end_seat(unit, seat, "released", event.stack, "must_move")
        to_bottom_of_waiting_list(unit, [(game, event.player_id, "refused a must-move seat (R17)")])


def release_seats_lost_to_blinds(unit: UnitOfWork, event: SeatsLostToBlinds) -> None:
    """R26: a seat whose player missed too many big blinds while away is released, as in R24;
    the recorded hand they missed the last in ends after (R36)."""
    release_lost_to_blinds(unit, unit.session.get_one(Game, event.game_id),
                           [unit.session.get_one(Absence, i) for i in event.absence_ids])
    if event.hand_table_id is not None:
        unit.emit(HandRecorded(event.hand_table_id))


def remove_from_game(unit: UnitOfWork, event: PlayerRemoved) -> None:
    """R57: a player removed from the game leaves the seat and the game's lists."""
    hold = unit.session.get_one(SeatHold, event.hold_id)
    end_seat(unit, hold, "left", event.leave_amount)
    end_player_entries(unit, event.game_id, hold.player_id,
                       f"removed from the game (R57): {event.reason}")


def make_held_seat_changes(unit: UnitOfWork, event: HandRecorded) -> None:
    """R36: a seat change claimed during the hand is made once the dealer records it."""
    on_hand_recorded(unit, event.table_id)


def offer_open_seats(unit: UnitOfWork, event: SeatsMayOpen) -> None:
    """R14/R20: the game's open seats are offered, once, after every other change."""
    fill_open_seats(unit, unit.session.get_one(Game, event.game_id), event.skip,
                    only_if_open=event.only_if_open)


def offer_seats_of_open_games(unit: UnitOfWork, event: AutoOffersOn) -> None:
    """R14/R20: automatic offers turned on offer every seat already open."""
    offer_open_games(unit, event.room_id)


def move_rotation(unit: UnitOfWork, event: RotationMayMove) -> None:
    """R64: the dealers' steps due now are carried out (a table that opened takes a dealer, one
    that closed frees its own)."""
    carry_out(unit)


def cancel_texts(unit: UnitOfWork, event: OffersEnded) -> None:
    """R21/R22: an offer over before its text went out is not texted."""
    cancel_offer_texts(unit.session, unit.now, event.offer_ids)


def handlers(courier: Courier = LOG_ONLY, waits: WaitsCache | None = None) -> Handlers:
    """The table, its texts sent by ``courier`` (the application's; none given: nobody sends),
    the waits shown worked out from ``waits`` (the application's; none given: a cache of its own)."""
    cache = WaitsCache() if waits is None else waits

    def keep_the_wait_shown(unit: UnitOfWork, event: EntryJoined) -> None:
        """R10-R14, R80: the wait the player is shown as they join, kept to be scored."""
        keep_wait_shown(unit.session, cache, event.entry_id, unit.now)

    def queue_texts(unit: UnitOfWork, event: OffersMade) -> None:
        """R20: a text to each player offered a seat, written with the offer, sent after the
        commit."""
        queue_offer_texts(unit, courier, event.offer_ids)

    def text_the_code(unit: UnitOfWork, event: CodeAsked) -> None:
        """R12: the code a join from the phone waits for, texted after the commit."""
        text_code(unit, courier, event.number, event.body)

    return {
        SeatsEnded: [end_what_sat_on_seats],
        AbsencesEnded: [end_playovers_of_absences],
        PlayerSeated: [end_playovers_of_player, post_buy_in, take_off_lists],
        PlayoverStarted: [post_playover_buy_in],
        StacksCarried: [post_transfers],
        EntryJoined: [keep_the_wait_shown],
        EntriesLeft: [cancel_offers_of_entries],
        MustMoveRefused: [release_refused_seat],
        PlayerRemoved: [remove_from_game],
        SeatsLostToBlinds: [release_seats_lost_to_blinds],
        HandRecorded: [make_held_seat_changes],
        SeatsMayOpen: [offer_open_seats],
        OffersMade: [queue_texts],
        OffersEnded: [cancel_texts],
        AutoOffersOn: [offer_seats_of_open_games],
        CodeAsked: [text_the_code],
        RotationMayMove: [move_rotation],
    }
