"""What happened on the floor: the events services raise (docs/architecture.md).

Each is a fact in the past tense; what follows from it is listed once, in the handler table
(``roomops.reactions``). Events carry ids and values, so that raising one needs nothing but
this module."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Self

# R21/R22: how an offer ended (claimed, declined or run out: missed calls; cancelled)
OfferOutcome = Literal["claimed", "declined", "expired", "cancelled"]
# R23-R25, R29: how a break or time away ended
AbsenceOutcome = Literal["returned", "released", "seat_ended"]


@dataclass(frozen=True)
class Event:
    """Something a service did that other parts of the floor react to."""


def games_named(event: Event) -> tuple[int, ...]:
    """The games an event names (its ``game_id`` or ``game_ids``): what the unit of work tells
    the screens its transaction touched (``roomops.floor.unit.Committed``)."""
    one = getattr(event, "game_id", None)
    return (one,) if isinstance(one, int) else tuple(getattr(event, "game_ids", ()))


@dataclass(frozen=True)
class Gathered(Event):
    """An event held back until the run's other events are handled, merged with those of its
    kind and ``key`` it meets there, and handled once (``roomops.floor.unit``)."""

    @property
    def key(self) -> object:
        raise NotImplementedError

    def merged(self, other: Self) -> Self:
        raise NotImplementedError


@dataclass(frozen=True)
class SeatsEnded(Event):
    """Seated players' holds of games ended (left, moved, released; the sweep's of several
    games at once): a break or time away on them ends (R23, R25), a must-move offer from them is
    void (R17), and the seats are free."""

    game_ids: tuple[int, ...]
    hold_ids: tuple[int, ...]


@dataclass(frozen=True)
class HandRecorded(Event):
    """The dealer recorded a hand at the table (R33): seat changes held for its end are made
    (R36)."""

    table_id: int


@dataclass(frozen=True)
class SeatsLostToBlinds(Event):
    """Away players of the game missed the room's ``max_missed_bb`` big blinds: their seats are
    released as in R24 (R26). ``hand_table_id``: the table whose recorded hand they missed it in;
    its ``HandRecorded`` follows the releases, so the seat changes held for the hand's end are
    made after the released seats' own events, as when the hand released them itself (R36)."""

    game_id: int
    absence_ids: tuple[int, ...]
    hand_table_id: int | None = None


@dataclass(frozen=True)
class AbsencesEnded(Event):
    """Breaks or time away on these seats ended (``outcome``: returned, released, seat_ended): a
    playover of the seat ends with them (R29)."""

    hold_ids: tuple[int, ...]
    outcome: AbsenceOutcome
    overplayer_stack: int | None = None  # R27/R29: counted as the owner came back (one seat)


@dataclass(frozen=True)
class PlayerSeated(Event):
    """A player sat down in a game with a buy-in (R21, R30): off that game's lists, a playover of
    theirs ends (R29), and the buy-in is on the books (R52), paid as ``method`` says (R32).
    ``claimed``: the seat was the player's own offer, claimed, so no other offer is left;
    ``overplayer_stack``: the chips the player leaves a seat they played over with, counted."""

    game_id: int
    hold_id: int
    player_id: int
    table_name: str
    buy_in: int
    method: str
    claimed: bool
    overplayer_stack: int | None = None  # R29: counted as the player left the seat they played over


@dataclass(frozen=True)
class PlayoverStarted(Event):
    """A waiting player plays over an absent owner's seat (R29) with a buy-in of their own chips:
    it is on the books as the overplayer's, on the owner's seat and table (R30, R32, R52)."""

    hold_id: int
    playover_id: int
    player_id: int
    buy_in: int
    method: str


@dataclass(frozen=True)
class Carried:
    """One stack carried by a move (R18): the player's seat left and the seat taken (each with its
    table), the chips carried and added; ``move`` is the kind of move (table_change, must_move,
    floor, broken, seat_change)."""

    player_id: int
    old_id: int
    old_table_id: int
    new_id: int
    new_table_id: int
    stack: int
    added: int
    move: str


@dataclass(frozen=True)
class StacksCarried(Event):
    """Seated players moved with their stacks (R17-R19, R36): the books follow the chips (R52)."""

    game_id: int
    moves: tuple[Carried, ...]


@dataclass(frozen=True)
class EntryJoined(Event):
    """A list entry was made (R10-R12): the wait its player is shown is kept on it, to be scored
    against the real one (R80)."""

    entry_id: int


@dataclass(frozen=True)
class EntriesLeft(Event):
    """List entries of a game ended: their players sat down (R21) or left the list (R16). A seat
    they were called to is given up, not missed (R22)."""

    game_id: int
    entry_ids: tuple[int, ...]


@dataclass(frozen=True)
class SeatsMayOpen(Gathered):
    """A change that can open or free a seat of the game, or change who is due one (R14, R17):
    its open seats are offered (R20), once per game and after every other reaction.

    ``skip``: players who just missed a call or lost their seat, not handed one straight back;
    ``only_if_open``: the change opened no seat (a claim), so the seats are read only if one was
    open already."""

    game_id: int
    skip: frozenset[int] = frozenset()
    only_if_open: bool = False

    @classmethod
    def each(cls, game_ids: Iterable[int], skip: Iterable[tuple[int, int]] = ()
             ) -> list[SeatsMayOpen]:
        """One for each game, in the order of their ids, each skipping its players among the
        (game, player) pairs of ``skip``."""
        skipped: dict[int, set[int]] = {game_id: set() for game_id in game_ids}
        for game_id, player_id in skip:
            skipped[game_id].add(player_id)
        return [cls(game_id, frozenset(skipped[game_id])) for game_id in sorted(skipped)]

    @property
    def key(self) -> int:
        return self.game_id

    def merged(self, other: SeatsMayOpen) -> SeatsMayOpen:
        return SeatsMayOpen(self.game_id, self.skip | other.skip,
                            self.only_if_open and other.only_if_open)


@dataclass(frozen=True)
class RotationMayMove(Gathered):
    """A change the dealers' rotation follows (R64): a table opened or closed, a dealer checked
    in or out, the coordinator's override. The steps due now are carried out once a room, after
    every other reaction."""

    room_id: int

    @property
    def key(self) -> int:
        return self.room_id

    def merged(self, other: RotationMayMove) -> RotationMayMove:
        return self


@dataclass(frozen=True)
class PlayerRemoved(Event):
    """R57: the floor removed a seated player from the game: the seat ends, with the stack they
    leave with if counted (R27), and so do their places on the game's lists (R16)."""

    game_id: int
    hold_id: int
    leave_amount: int | None
    reason: str


@dataclass(frozen=True)
class AutoOffersOn(Event):
    """The room turned automatic offers on (R3): every seat already open in its open games is
    offered now (R14, R20)."""

    room_id: int


@dataclass(frozen=True)
class OffersMade(Gathered):
    """Seats were offered, each held until its deadline (R20): told once a command, after its
    seats are offered (the sweep's offers in all its games at once)."""

    offer_ids: tuple[int, ...]

    @property
    def key(self) -> None:
        return None

    def merged(self, other: OffersMade) -> OffersMade:
        return OffersMade(self.offer_ids + other.offer_ids)


@dataclass(frozen=True)
class OffersEnded(Event):
    """Offers ended: ``outcome`` claimed (R21), declined or expired (missed calls, R22), or
    cancelled."""

    offer_ids: tuple[int, ...]
    outcome: OfferOutcome


@dataclass(frozen=True)
class MustMoveRefused(Event):
    """A player refused a must-move seat, or let its call run out, where the room's
    ``must_move_refusal`` is ``forced``: they give up the seat at the must-move table (R17),
    with ``stack`` as its leave amount when the desk counted it (R27)."""

    game_id: int
    hold_id: int
    player_id: int
    stack: int | None = None


@dataclass(frozen=True)
class CodeAsked(Event):
    """A join from the phone waits for the code texted to its number (R12): ``body`` is texted
    to ``number`` after the commit."""

    number: str
    body: str
