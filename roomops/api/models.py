"""Response bodies of the JSON API. The views build them from rows, and the OpenAPI document's
response schemas are generated from them, so answers and document cannot drift apart."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from roomops.absences.models import AbsenceKind
from roomops.blinds.missed import GamePosting, NewPlayerPosting
from roomops.blinds.penalties import PenaltyKind
from roomops.blinds.state import OwedPost, PostKind
from roomops.blinds.state import Status as BlindStatus
from roomops.floor.events import AbsenceOutcome
from roomops.games.models import FeeKind, OpenClosed, RakeRecorded
from roomops.holds.models import HoldKind
from roomops.holds.playovers import PlayoverOutcome
from roomops.lists.models import EntryStatus, ListKind, Source
from roomops.messages.rules import MessageState
from roomops.rooms.languages import Language
from roomops.rooms.models import (
    BreakExpiry,
    DisplayName,
    ExpiryPolicy,
    MustMoveRefusal,
    MustMoveWhen,
    Placement,
    ReturnWindow,
    TimeCollection,
    ToleranceUnit,
)


class Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class Error(Out):
    """Every refusal: what is wrong and, where a room rule refused it, the rule id (R1..R61)."""

    error: str
    rule: str | None = Field(description="the rule id from ROOM_RULES.md, e.g. R22")


class PlayerOut(Out):
    id: int
    first_name: str
    last_name: str
    full_name: str
    phone: str | None
    created_at: datetime


class EntryOut(Out):
    """A place on a game's waiting list (``kind=waiting``) or a table's reserve list (R10/R11)."""

    id: int
    player_id: int
    kind: ListKind
    game_id: int
    table_id: int | None
    source: Source
    status: EntryStatus
    joined_at: datetime
    queue_at: datetime
    checkin_deadline: datetime | None
    checked_in_at: datetime | None
    locked_until: datetime | None = Field(description=(
        "R13: locked up (the player stepped away) until then: keeps the place, not offered"))
    lockup_deposit: int | None = Field(description="R13: the deposit recorded for the lockup")
    ended_at: datetime | None
    end_reason: str | None


class HoldOut(Out):
    """A seat offer (``kind=offer``, R20) or a player sitting in a seat (``kind=seated``)."""

    id: int
    kind: HoldKind
    table_id: int
    seat_no: int
    player_id: int
    entry_id: int | None
    started_at: datetime
    deadline: datetime | None
    ended_at: datetime | None
    outcome: str | None
    buy_in: int | None
    leave_amount: int | None
    from_hold_id: int | None = Field(description="R17-R19: the seat a moved player came from, or "
                                                 "a must-move offer's seat to move from")
    no_blind_owed: bool = Field(description="R19: moved by the floor or from a broken table")
    seat_change_id: int | None = Field(None, description="R36: a seat-change offer's request")
    reserved_at: datetime | None = Field(None, description=(
        "R36: a seat change claimed during a hand: held until the dealer records it"))
    over_reason: str | None = Field(None, description=(
        "R4: the floor's reason for seat seats_per_table + 1, one over the table's count"))


class HoldsOut(Out):
    holds: list[HoldOut]


class SeatChangeOut(Out):
    """R36: a place on a table's seat-change list."""

    id: int
    table_id: int
    hold_id: int
    player_id: int
    asked_at: datetime
    ended_at: datetime | None
    outcome: str | None


class GameOut(Out):
    id: int
    variant: str
    small_blind: int
    big_blind: int
    ante: int
    min_buyin: int
    max_buyin: int
    seats_per_table: int
    fee_kind: FeeKind = Field(description="R50/R51: time paid per hour or half hour in advance, a "
                                          "drop from each hand dealt, or rake")
    time_fee: int = Field(description="R50: the fee for one period of an hourly or half-hourly game")
    hourly_fee: int = Field(validation_alias="time_fee", deprecated=True,
                            description="R50: time_fee, under the name it had before half-hourly games")
    drop_fee: int = Field(description="R50: a drop game's amount taken from each hand dealt")
    rake_bp: int = Field(description="R51: the rake's percent in basis points: 550 is 5.5%")
    rake_cap: int
    smallest_chip: int = Field(description="R51: the game's smallest chip; rake rounds down to it")
    rake_min_one_chip: bool = Field(
        description="R51: a pot that qualifies for rake is raked one smallest chip at least")
    straddle_allowed: bool
    max_straddles: int
    button_straddle: bool
    straddle_sanction: bool
    time_fee_by_players: list[dict[str, int]] | None = Field(
        None, description="R50: [{players, fee}]: from that many players seated, that time fee")
    drop_by_players: list[dict[str, int]] | None = Field(
        None, description="R50: [{players, fee}]: from that many players dealt in, that drop")
    rake_no_flop_no_drop: bool = True
    rake_schedule: list[dict[str, int]] | None = Field(
        None, description="R51: [{pot, rake}]: from that pot, that rake (instead of the percent)")
    rake_caps_by_players: list[dict[str, int]] | None = Field(
        None, description="R51: [{players, cap}]: from that many players dealt in, that cap")
    rake_recorded: RakeRecorded = Field(
        "per_hand", description="R51: rake recorded hand by hand or per dealer down")
    new_player_posting: GamePosting = Field(description=(
        "R36: the game's new-player posting, or 'room': the room's policy"))
    status: OpenClosed
    opened_at: datetime
    closed_at: datetime | None


class TableOut(Out):
    id: int
    game_id: int
    name: str
    status: OpenClosed
    opened_at: datetime
    closed_at: datetime | None
    feeds_table_id: int | None = Field(description="R17: a must-move table feeds this main table")


class BrokenOut(Out):
    """R19: a broken table, the seats its players moved to and the waiting-list entries of those
    who found no seat (at the top of the list)."""

    table: TableOut
    moved: list[HoldOut]
    listed: list[EntryOut]


class SuggestionOut(Out):
    """R19: who should move to balance the game (a suggestion: the floor moves them)."""

    hold_id: int
    player_id: int
    from_table: int
    to_table: int
    seat_no: int
    why: Literal["transfer list", "last to join"]


class ApartOut(Out):
    """R15: two barred players seated at one table: the later to sit down (``hold_id``,
    ``player_id``) should move to ``to_table`` seat ``seat_no``; both null when no seat is free
    (a reserve list or a must-move, the floor decides)."""

    hold_id: int
    player_id: int
    barred_from: int
    table_id: int
    to_table: int | None
    seat_no: int | None


class BalanceOut(Out):
    game_id: int
    suggestion: SuggestionOut | None
    barred_together: list[ApartOut]  # R15


class PolicyOut(Out):
    """R3: the room's policies."""

    timezone: str
    display_name: DisplayName
    claim_minutes: int
    seat_change_claim_minutes: int = Field(description="R36: a seat-change requester's claim time")
    on_claim_expiry: ExpiryPolicy
    checkin_minutes: int
    auto_offer: bool
    placement: Placement
    return_window: ReturnWindow
    return_window_minutes: int
    gaming_day_start: str = Field(description="R2: local time the gaming day starts, HH:MM")
    break_minutes: int
    break_after_play_minutes: int
    breaks_per_gaming_day: int
    max_breaks_per_table: int
    away_notify_minutes: int
    max_away_minutes: int | None = Field(description="null: off (R26)")
    max_missed_bb: int | None = Field(
        description="null: off; an away player who misses this many big blinds loses the seat (R26)")
    playover_needs_consent: bool = Field(description="R29: the owner must consent to a playover")
    no_playover_max_minutes: int = Field(description="R29: the longest \"no playover\" an owner may ask")
    new_player_posting: NewPlayerPosting = Field(
        description="R36: a new player waits for the big blind or posts one, or pays only in turn")
    must_move_refusal: MustMoveRefusal
    call_ins: bool = Field(description="R12: phone entries (call-ins) are taken")
    language: Language = Field(description=(
        "the players' board and phone pages' language when neither the player nor the browser "
        "names one (issue 21)"))
    break_expiry: BreakExpiry = Field(description=(
        "R24: a break that ran out loses the seat always, or only if somebody waits"))
    must_move_when: MustMoveWhen = Field(description=(
        "R17: a must-move player moves at once (and comes in free), or when the big blind "
        "reaches them (and posts a big blind at the main table)"))
    post_behind_button: bool = Field(description=(
        "R35: a player between the button and the small blind may post there to be dealt in"))
    return_tolerance_unit: ToleranceUnit
    return_tolerance: int = Field(description=(
        "R27: how far below the counted stack a returning buy-in is accepted, in minor units or "
        "percent (return_tolerance_unit)"))
    lockup_minutes: int = Field(description="R10-R14: how long a lockup keeps a place; 0: none")
    remote_entries: bool = Field(description="R12: players may join lists from the phone page")
    remote_entry_cap: int = Field(description="R12: a phone number's active remote entries, at most")
    time_collection: TimeCollection = Field(description=(
        "R50: time paid at the collection times, or for each player's own period"))
    time_new_player_minutes: int = Field(description=(
        "R50: a player sitting down this close before a collection skips it while the list is short"))
    time_all_pay_waiting: int = Field(description=(
        "R50: with this many waiting, everyone due pays before the next hand"))
    time_decline_until_bb: bool = Field(description=(
        "R50: a player who declines plays on until their big blind while nobody waits"))
    rake_split_pots: bool = Field(description="R51: a pot split between winners is raked")
    shifts: list[str] = Field(description=(
        "R54: local start times of the gaming day's shifts, HH:MM, in gaming-day order; the "
        "first is the gaming day's start (one time: one shift, the gaming day)"))

    @field_validator("shifts", mode="before")
    @classmethod
    def _hh_mm_list(cls, value: object) -> object:
        return [t.strftime("%H:%M") if isinstance(t, time) else t for t in value] if isinstance(
            value, list) else value

    @field_validator("gaming_day_start", mode="before")
    @classmethod
    def _hh_mm(cls, value: object) -> object:
        return value.strftime("%H:%M") if isinstance(value, time) else value


class ReturnRequirementOut(Out):
    """R27/R30: the buy-in range for this player sitting down in this game now. ``rule`` is R27
    when the player returns to the same game (R4) within the room's return window with more than
    the table minimum, and ``left_*`` say when and where they left; otherwise R30 and nulls."""

    player_id: int
    game_id: int
    minimum: int = Field(description="integer minor units")
    maximum: int = Field(description="integer minor units")
    rule: Literal["R27", "R30"]
    why: str | None = Field(description='e.g. "returning within 2 h: at least 65000 (left table 3 '
                                        'at 21:14)", in the room\'s time zone')
    left_amount: int | None
    left_at: datetime | None
    left_table: str | None
    left_game_id: int | None
    left_cause: Literal["break", "away", "missed_bb", "must_move", "broken"] | None = Field(
        None, description="the seat was lost, not left: a break ran out (R24), away too long or "
                          "missed big blinds (R26), a forced must-move refused (R17), a broken "
                          "table (R19); null when the player left")


class AbsenceOut(Out):
    """A break (R23) or time away (R25) of a seated player; ``deadline``: when the seat is lost
    (R24/R26), null for away with ``max_away_minutes`` off."""

    id: int
    hold_id: int
    player_id: int
    kind: AbsenceKind
    started_at: datetime
    deadline: datetime | None
    gaming_day: date
    ended_at: datetime | None
    outcome: AbsenceOutcome | None
    note: str | None
    stack: int
    missed_bb: int = Field(description="big blinds missed while absent (R26)")
    no_playover_until: datetime | None = Field(description="R29: no playover before this time")


class PlayoverOut(Out):
    """R29: a waiting player playing over the seat hold ``hold_id`` of an absent owner, whose stack
    is the absence's; ``buy_in`` is the overplayer's own chips."""

    id: int
    hold_id: int
    absence_id: int
    player_id: int
    entry_id: int
    started_at: datetime
    buy_in: int
    reason: str | None
    ended_at: datetime | None
    outcome: PlayoverOutcome | None
    leave_amount: int | None = Field(description="R27/R29: the overplayer's counted stack as they "
                                                 "left; their cash-out is tied to it")


class BarredPairOut(Out):
    id: int
    player_low_id: int
    player_high_id: int
    reason: str
    created_at: datetime
    together: list[ApartOut] = []  # R15: the two sit at one table now: who should move, where


class AuditOut(Out):
    """One row of the audit trail (R60)."""

    id: int
    at: datetime
    actor: str
    actor_id: int | None
    action: str
    entity_type: str
    entity_id: int
    reason: str | None
    detail: dict[str, Any]


class AuditPage(Out):
    events: list[AuditOut]
    next_before_id: int | None = Field(description="pass as before_id for the next (older) page")


class EntryHistory(Out):
    """R13/R16: what happened to one list entry, oldest first."""

    entry: EntryOut
    events: list[AuditOut]


class SeatAbsence(Out):
    """R23-R26 on a seat: ``running`` is false once the deadline has passed (the seat is lost)."""

    id: int
    kind: AbsenceKind
    started_at: datetime
    deadline: datetime | None
    running: bool
    seconds_left: int | None
    seconds_away: int
    note: str | None
    note_needed: bool = Field(description="R25: away over away_notify_minutes with no note")
    no_playover_until: datetime | None = Field(description="R29: while the owner's \"no playover\" runs")


class SeatPlayover(Out):
    """R29: who plays over the absent owner's seat, with their own buy-in."""

    id: int
    player_id: int
    player: str
    buy_in: int
    started_at: datetime


class OfferTextOut(Out):
    """R20: the text to the player offered the seat (docs/messages.md)."""

    state: MessageState = Field(description=(
        "queued, sending, sent, delivered, failed, cancelled, or not_sent (no number, or no "
        "text-message provider)"))
    error: str | None = Field(description="why it failed, is retried or was not sent")


class SeatOut(Out):
    seat_no: int
    state: Literal["empty", "offered", "expired", "held", "seated"] = Field(description=(
        "held: a seat change claimed during a hand, made when the dealer records it (R36)"))
    player_id: int | None
    player: str | None
    hold_id: int | None
    deadline: datetime | None
    seconds_left: int
    absence: SeatAbsence | None
    playover: SeatPlayover | None
    text: OfferTextOut | None = Field(None, description="R20: an offered seat's text to the player")


class ListPlace(Out):
    entry_id: int
    position: int
    player_id: int
    player: str
    source: Source
    joined_at: datetime
    awaiting_checkin: bool
    checkin_deadline: datetime | None
    offer_id: int | None


class TableView(Out):
    id: int
    name: str
    feeds_table_id: int | None
    seated: int
    over_reason: str | None = Field(None, description=(
        "R4: the floor's reason while someone sits in seat seats_per_table + 1, one over the "
        "table's count (its seats then run to that seat)"))
    open_seats: list[int] = Field(default_factory=list, description=(
        "R14/R20: the seats to offer; none while the table holds seats_per_table or more"))
    seats: list[SeatOut]
    reserve: list[ListPlace]


class Straddles(Out):
    allowed: bool
    max_straddles: int
    button_straddle: bool
    sanction: bool = Field(description="R40: straddles only when the supervisor sanctions them")


class Fees(Out):
    kind: FeeKind
    time_fee: int = Field(description="R50/R53: see GameOut")
    hourly_fee: int = Field(deprecated=True, description="R50: time_fee, under its old name")
    time_fee_by_players: list[dict[str, int]] | None = Field(None, description="R50/R53")
    drop_fee: int = Field(description="R50/R53: see GameOut")
    drop_by_players: list[dict[str, int]] | None = Field(None, description="R50/R53")
    rake_bp: int = Field(description="R51/R53: the rake's percent in basis points: 550 is 5.5%")
    rake_cap: int
    smallest_chip: int = Field(description="R51/R53: rake rounds down to it")
    rake_min_one_chip: bool = Field(description="R51/R53: see GameOut")
    rake_schedule: list[dict[str, int]] | None = Field(None, description="R51/R53: see GameOut")
    rake_caps_by_players: list[dict[str, int]] | None = Field(None, description="R51/R53")


class GameView(Out):
    id: int
    variant: str
    small_blind: int
    big_blind: int
    ante: int
    min_buyin: int
    max_buyin: int
    seats_per_table: int
    fees: Fees
    straddles: Straddles
    tables: list[TableView]
    waiting: list[ListPlace]


class RoomOut(Out):
    """The room at a glance; ``version`` moves whenever anything in the room changes."""

    id: int
    slug: str
    name: str
    now: datetime
    version: int
    policy: PolicyOut
    games: list[GameView]


class PostOut(Out):
    seat_no: int
    kind: PostKind
    amount: int


class StraddleOut(Out):
    seat_no: int
    amount: int


class HandOut(Out):
    """A hand recorded at a table (R33-R35, R40): positions, who was dealt in, what was posted."""

    id: int
    table_id: int
    hand_no: int
    at: datetime
    button: int
    small_blind_seat: int
    big_blind_seat: int
    dealt_in: list[int]
    posts: list[PostOut]
    straddles: list[StraddleOut]


class SeatBlindsOut(Out):
    """R35/R36: a seat as the dealer sees it; ``owes``: what the player posts to play before the
    big blind reaches them."""

    seat_no: int
    player_id: int | None
    status: BlindStatus
    missed_sb: bool
    missed_bb: bool
    owes_bb: bool
    owes: list[OwedPost]
    hands_dealt_out: int = Field(description="R55: hands the seat still sits out, this one included")


class WaitingOut(Out):
    seat_no: int
    reason: str
    rule: str
    posts: list[OwedPost] = Field(description=(
        "what the player may post to be dealt in this hand (R35, R36, R17): empty, they wait"))


class NextHandOut(Out):
    """The next hand if nobody posts (R33-R35): positions, who is dealt in, who waits and why."""

    hand_no: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    dealt_in: list[int]
    posts: list[PostOut]
    waiting: list[WaitingOut]
    straddle_order: list[int] = Field(description="R40: who may straddle, in turn")


class TableHandsOut(Out):
    """The dealer's view of a table: the last hand, the next (null before the first hand, or when
    it cannot be dealt without a fresh draw for the button, R33) and every seat."""

    table_id: int
    last: HandOut | None
    next: NextHandOut | None
    seats: list[SeatBlindsOut]




class PenaltyOut(Out):
    """R55/R57: a penalty given at a seat; a sit-out runs for ``hands_out`` hands recorded at the
    table after hand ``from_hand_no``."""

    id: int
    hold_id: int
    player_id: int
    table_id: int
    kind: PenaltyKind
    count: int
    players_at_table: int
    hands_out: int
    from_hand_no: int
    reason: str
    given_at: datetime


class PenaltyAdviceOut(Out):
    """R55: the next step on the ladder for this player (the supervisor decides)."""

    kind: PenaltyKind
    count: int
    players_at_table: int


RESPONSE_MODELS: list[type[BaseModel]] = [
    Error, PlayerOut, EntryOut, HoldOut, GameOut, TableOut, PolicyOut, BarredPairOut, AuditPage,
    EntryHistory, RoomOut, ReturnRequirementOut, AbsenceOut, PlayoverOut,
    HandOut, TableHandsOut, PenaltyOut, PenaltyAdviceOut, BrokenOut, BalanceOut,
]
