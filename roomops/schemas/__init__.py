"""Request bodies, validated the same way for the JSON API and the desk's forms.

The OpenAPI document's schemas are generated from these models, so it cannot drift from the code.
Amounts are integer minor units (R52); bounds keep out-of-range numbers away from the database.
"""

from __future__ import annotations

from functools import cache
from itertools import pairwise
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from roomops.blinds.missed import GamePosting, NewPlayerPosting
from roomops.blinds.penalties import PenaltyKind
from roomops.db import INT_MAX
from roomops.games.models import FeeKind, RakeRecorded
from roomops.ledger.rules import Method as LedgerMethod
from roomops.lists.models import DeskSource
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
from roomops.text import Invisible, check_shown

# R52: the largest amount accepted, in minor units. As large as any real table could see in any
# currency's minor units (10 billion in a two-decimal currency), and small enough that the sum of
# 9 million such rows still fits a signed 64-bit integer (9.2e18): neither SQLite's integer sum()
# (which raises on overflow) nor a BIGINT total (``roomops.db.Minor``) can overflow in a gaming day.
# Also exact as a JSON number in any client (below 2**53).
MAX_AMOUNT = 10**12
# R54: a count is of a table's or the day's total, a sum of many such amounts: anything its 64-bit
# column holds, so a day whose total passes MAX_AMOUNT is still counted exactly.
MAX_TOTAL = 2**63 - 1
Id = Annotated[int, Field(ge=1, le=INT_MAX)]
# Amounts are strict: true, 100.0 and "100" are refused, never coerced (R52). The desk's forms
# turn what is typed into integers first (roomops.desk.forms).
Money = Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT, description="integer minor units")]
MoneyOrZero = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT,
                                   description="integer minor units")]
# A yes or no is strict too: 0, 1 and "true" are refused, as the document says boolean (the
# desk's forms turn a checkbox into True or False first).
Flag = Annotated[bool, Field(strict=True)]


def _shown_note(text: str) -> str:
    return check_shown(text, note=True)


def _shown_name(text: str) -> str:
    try:
        return check_shown(text)
    except Invisible as err:  # its own type: a player's page says it in the player's words
        raise PydanticCustomError("invisible_characters", str(err)) from None


# Text others read (roomops.text): a name is one line without control characters, direction
# overrides or invisible characters, in NFC; a note may also hold tabs and line breaks.
ShownName = AfterValidator(_shown_name)
ShownNote = AfterValidator(_shown_note)
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500),
                   ShownNote]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60), ShownName]
# R4: seats 1..seats_per_table (9 or 10), and the next one while a table is one over its count
SeatNo = Annotated[int, Field(ge=1, le=11)]


def storable(value: object) -> object:
    """Text the databases can store: no NUL characters (PostgreSQL refuses them) and valid UTF-8
    (JSON may carry lone surrogates such as "\\ud800")."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("text may not contain NUL characters")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("text must be valid UTF-8") from None
    return value


def _types(annotation: Any) -> set[Any]:
    """The types a field's annotation takes, through Annotated, unions and optionals."""
    if get_origin(annotation) in (Annotated, Union, UnionType):
        return {t for arg in get_args(annotation) for t in _types(arg)}
    return {annotation}


@cache
def _max_lengths(model: type[BaseModel]) -> dict[str, int]:
    """Each text field's ``maxLength`` as the API's document gives it (the model's JSON schema)."""
    out = {}
    for name, prop in model.model_json_schema()["properties"].items():
        limits = [p["maxLength"] for p in (prop, *prop.get("anyOf", ())) if "maxLength" in p]
        if limits:
            out[name] = limits[0]
    return out


class Trimmed(BaseModel):
    """Text is stored without the spaces around it (``str_strip_whitespace``), but its length is
    counted as sent: the document's ``maxLength`` is of what the client sends, and a 61-character
    name that trims to 60 is refused like any other."""

    model_config = ConfigDict(str_strip_whitespace=True)  # merged into each subclass's

    @field_validator("*", mode="before")
    @classmethod
    def _not_too_long(cls, value: object, info: ValidationInfo) -> object:
        limit = _max_lengths(cls).get(info.field_name or "")
        if isinstance(value, str) and limit is not None and len(value) > limit:
            raise PydanticCustomError("string_too_long",
                                      "String should have at most {max_length} characters",
                                      {"max_length": limit})
        return value


class Body(Trimmed):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_as_number(cls, value: object, info: ValidationInfo) -> object:
        """JSON's true and false are no numbers, though pydantic would take them as 1 and 0 (an
        amount is strict anyway, R52; a count, a percent or a limit is not)."""
        if isinstance(value, bool) and info.field_name is not None:
            takes = _types(cls.model_fields[info.field_name].annotation)
            if int in takes and bool not in takes:
                raise PydanticCustomError("int_type", "Input should be a valid integer")
        return value

    @field_validator("*", mode="after")
    @classmethod
    def _storable(cls, value: object) -> object:
        return storable(value)


class NewPlayer(Body):
    first_name: Name
    last_name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=60), ShownName] = ""
    phone: Annotated[str, StringConstraints(max_length=40), ShownName] | None = None
    create_anyway: Flag = Field(False, description=(
        "R10: add a new player even though the name or phone matches a known one (otherwise "
        "409 with the candidates)"))


class PhoneJoin(Body):
    """R12: a player's own entry on one or more games' waiting lists, from the phone page."""

    game_ids: Annotated[list[Id], Field(min_length=1, max_length=20, description=(
        "the running games whose waiting lists to join"))]
    first_name: Name
    last_name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=60), ShownName] = ""
    phone: Annotated[str, StringConstraints(min_length=1, max_length=40), ShownName] = Field(
        description="R12: read in the room's country, or with its country code (+44 ...)")


class RemoteJoin(PhoneJoin):
    """R12: ``PhoneJoin`` through the API, naming the room by its board's slug."""

    room: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(
        description="the room's slug, as in its board's address /board/<slug>")


class ConfirmCode(Body):
    """R12: the code texted to the number of a join waiting for it."""

    room: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(
        description="the room's slug, as in its board's address /board/<slug>")
    code_token: Annotated[str, StringConstraints(min_length=1, max_length=64)] = Field(
        description="the join's code_token, as its 202 answered it")
    code: Annotated[str, StringConstraints(min_length=1, max_length=12)] = Field(
        description="the digits texted to the number")


class BlockPhone(Body):
    """R12: a number the desk refuses remote entries from, and why."""

    phone: Annotated[str, StringConstraints(min_length=1, max_length=40), ShownName]
    reason: Reason


class JoinList(Body):
    """R10/R11/R12: a game's waiting list or a table's reserve list, in person or by phone."""

    player_id: Id
    game_id: Id | None = None
    table_id: Id | None = None
    source: DeskSource = "in_person"

    @model_validator(mode="after")
    def _one_list(self) -> JoinList:
        if (self.game_id is None) == (self.table_id is None):
            raise ValueError("give either game_id (waiting list) or table_id (reserve list)")
        return self


class RemoveEntry(Body):
    reason: Reason  # R16


class LockUp(Body):
    """R13: a lockup, with the deposit taken for it if any."""

    deposit: Money | None = Field(None, description="integer minor units; none: no deposit")


class ReorderEntry(Body):
    position: Annotated[int, Field(ge=1, le=100000)]
    reason: Reason  # R13


OverReason = Annotated[Reason | None, Field(
    description="R4: the floor's written reason to seat a full table one over its count, in seat "
                "seats_per_table + 1 (refused without it, and for any other seat); audited")]


class OfferSeat(Body):
    """R14: offering by hand, to whoever is next for the seat (``entry_id`` left out: a seat
    change at the table, R36, a must-move player, R17, or the lists, as the sweep decides) or to a
    list entry; out of list order needs a reason (R13)."""

    table_id: Id
    seat_no: SeatNo
    entry_id: Id | None = None
    reason: Reason | None = None
    over_reason: OverReason = None


OverrideReason = Annotated[Reason | None, Field(
    description="R27: a supervisor's written reason to waive the return rule; the normal buy-in "
                "range (R30) applies instead and the reason is audited")]


Method = Annotated[LedgerMethod,
                  Field(description="R32: 'table' is cash at the table, for buy-ins and add-ons "
                                    "only; transits come from the cage")]
BuyInMethod = Annotated[Method, Field(description="R32: how the buy-in is paid; default 'table', "
                                                  "cash at the table; 'cash' is cash at the cage")]


# R29/R27: the chips a player playing over a seat leaves it with as they sit down, counted (their
# cash-out is tied to it); required when they play over one, refused when they do not
OverplayerStack = Annotated[MoneyOrZero | None, Field(description=(
    "R29: the counted chips of a player playing over a seat, who leaves it to sit here"))]


class Claim(Body):
    buy_in: Money  # R21/R30
    override_reason: OverrideReason = None
    buy_in_method: BuyInMethod = "table"
    overplayer_stack: OverplayerStack = None


class SeatPlayer(Body):
    table_id: Id
    seat_no: SeatNo
    player_id: Id
    buy_in: Money
    reason: Reason | None = None
    override_reason: OverrideReason = None
    buy_in_method: BuyInMethod = "table"
    over_reason: OverReason = None
    overplayer_stack: OverplayerStack = None


class Leave(Body):
    leave_amount: MoneyOrZero  # feeds R27


class Decline(Body):
    """R22; R17 with ``forced``: the refusing player's chips counted as they give up their seat
    (its leave amount, R27); only for a must-move offer."""

    stack: MoneyOrZero | None = None


# the schedule fields' rules, whatever the body: an error in one names its rule on the API and the desk
SCHEDULE_RULES = {"time_fee_by_players": "R50", "hourly_fee_by_players": "R50",
                  "drop_by_players": "R50", "rake_schedule": "R51", "rake_caps_by_players": "R51"}


class FeeStep(Body):
    """R50: from ``players`` (seated for a time fee, dealt in for a drop), the fee is ``fee``."""

    players: Annotated[int, Field(ge=1, le=10)]
    fee: MoneyOrZero


FeeSchedule = Annotated[list[FeeStep], Field(max_length=10, description=(
    "R50: the time fee by players seated; below the first step, time_fee; empty: none"))]
DropSchedule = Annotated[list[FeeStep], Field(max_length=10, description=(
    "R50: the drop by players dealt in; below the first step, drop_fee; empty: none"))]


def _fee_schedule(steps: list[FeeStep] | None) -> list[FeeStep] | None:
    if steps and len({s.players for s in steps}) != len(steps):
        raise ValueError("R50: a fee schedule has one step per number of players")
    return steps


# R50: the time fee was the hourly fee until half-hourly games came (migration 0026); the API
# still takes the old names
TIME_FEE = AliasChoices("time_fee", "hourly_fee")
TIME_FEE_BY_PLAYERS = AliasChoices("time_fee_by_players", "hourly_fee_by_players")
TimeFee = Annotated[MoneyOrZero, Field(description=(
    "R50: the fee for one period of an hourly or half-hourly game (hourly_fee: the same, the "
    "name it had before half-hourly games)"))]
DropFee = Annotated[MoneyOrZero, Field(description="R50: a drop game's amount taken from each hand dealt")]


class RakeStep(Body):
    """R51: from a pot of ``pot`` (after any uncalled bet was returned), the rake is ``rake``."""

    pot: Money
    rake: Money


class CapStep(Body):
    """R51: from ``players`` dealt in, the most a pot is raked is ``cap``."""

    players: Annotated[int, Field(ge=2, le=10)]
    cap: Money


RakeSchedule = Annotated[list[RakeStep], Field(max_length=50, description=(
    "R51: rake by pot size instead of rake_bp: from that pot, that rake; empty: none"))]
CapsByPlayers = Annotated[list[CapStep], Field(max_length=9, description=(
    "R51: the cap by players dealt in; below the first step, rake_cap"))]


def _rake_schedule(steps: list[RakeStep] | None) -> list[RakeStep] | None:
    """R51: one step per pot, each at most its pot, a larger pot never raked less."""
    if not steps:
        return steps
    ordered = sorted(steps, key=lambda s: s.pot)
    if len({s.pot for s in steps}) != len(steps):
        raise ValueError("R51: rake_schedule has one step per pot size")
    if any(s.rake > s.pot for s in steps):
        raise ValueError("R51: a rake_schedule step rakes more than its pot")
    if any(a.rake > b.rake for a, b in pairwise(ordered)):
        raise ValueError("R51: rake_schedule rakes a larger pot less than a smaller one")
    return steps


def _caps_by_players(steps: list[CapStep] | None) -> list[CapStep] | None:
    if steps and len({s.players for s in steps}) != len(steps):
        raise ValueError("R51: rake_caps_by_players has one step per number of players")
    return steps


class ScheduleFields(Body):
    """R50/R51: the fee and rake schedules shared by a new game and a change of conditions."""

    # R50: else time_fee whatever the count
    time_fee_by_players: FeeSchedule | None = Field(None, validation_alias=TIME_FEE_BY_PLAYERS)
    drop_by_players: DropSchedule | None = None  # R50: else drop_fee whatever the count
    rake_schedule: RakeSchedule | None = None
    rake_caps_by_players: CapsByPlayers | None = None

    _fees = field_validator("time_fee_by_players", "drop_by_players")(_fee_schedule)
    _schedule = field_validator("rake_schedule")(_rake_schedule)
    _caps = field_validator("rake_caps_by_players")(_caps_by_players)


RakeBp = Annotated[int, Field(ge=0, le=10_000, description=(
    "R51: the rake's percent in basis points, a whole number: 1000 is 10%, 550 is 5.5%"))]
SmallestChip = Annotated[Money, Field(description=(
    "R51: the game's smallest chip in minor units; rake rounds down to it"))]


class GameConditions(ScheduleFields):
    """R4/R6: variant and stakes, buy-in range, fees (R50/R51) and straddles (R40)."""

    variant: Name
    small_blind: Money
    big_blind: Money
    ante: MoneyOrZero = 0
    min_buyin: Money
    max_buyin: Money
    seats_per_table: Literal[9, 10] = 9
    fee_kind: FeeKind = "none"
    time_fee: TimeFee = Field(0, validation_alias=TIME_FEE)
    drop_fee: DropFee = 0
    rake_bp: RakeBp = 0
    rake_cap: MoneyOrZero = 0
    smallest_chip: SmallestChip | None = None  # R51: not given, the small blind
    rake_min_one_chip: Flag = False  # R51
    straddle_allowed: Flag = False
    max_straddles: Annotated[int, Field(ge=0, le=8)] = 0
    button_straddle: Flag = False
    straddle_sanction: Flag = False  # R40: straddles need the supervisor's sanction
    rake_no_flop_no_drop: Flag = True  # R51
    rake_recorded: RakeRecorded = "per_hand"  # R51: per hand or per dealer down
    new_player_posting: GamePosting = Field("room", description=(
        "R36: a new player waits for the big blind or posts one ('post_or_wait'), or pays only in "
        "turn ('free'); 'room': as the room's policy says"))

    @model_validator(mode="after")
    def _consistent(self) -> GameConditions:
        if self.big_blind < self.small_blind:
            raise ValueError("big_blind must be at least small_blind")
        if self.max_buyin < self.min_buyin:
            raise ValueError("max_buyin must be at least min_buyin")
        if self.smallest_chip is None:
            self.smallest_chip = self.small_blind
        return self


class GameChange(ScheduleFields):
    """R6: any subset of the conditions; checked against the rest when applied."""

    variant: Name | None = None
    small_blind: Money | None = None
    big_blind: Money | None = None
    ante: MoneyOrZero | None = None
    min_buyin: Money | None = None
    max_buyin: Money | None = None
    fee_kind: FeeKind | None = None
    time_fee: TimeFee | None = Field(None, validation_alias=TIME_FEE)
    drop_fee: DropFee | None = None
    rake_bp: RakeBp | None = None
    rake_cap: MoneyOrZero | None = None
    smallest_chip: SmallestChip | None = None
    rake_min_one_chip: Flag | None = None
    straddle_allowed: Flag | None = None
    max_straddles: Annotated[int, Field(ge=0, le=8)] | None = None
    button_straddle: Flag | None = None
    straddle_sanction: Flag | None = None
    rake_no_flop_no_drop: Flag | None = None
    rake_recorded: RakeRecorded | None = None
    new_player_posting: GamePosting | None = None  # R36


class OpenTable(Body):
    game_id: Id
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20),
                    ShownName]


class Policy(Body):
    """R3: the room's policies; any subset may be sent."""

    timezone: Annotated[str, StringConstraints(min_length=1, max_length=64)] | None = None
    locale: Annotated[str, StringConstraints(min_length=2, max_length=16)] | None = Field(
        None, description="R32: how amounts are written and typed, e.g. en_GB, de_DE, en_US")
    language: Language | None = Field(
        None, description="the players' board and phone pages' language when neither the player "
                          "nor the browser names one (issue 21)")
    display_name: DisplayName | None = None
    claim_minutes: Annotated[int, Field(ge=1, le=120)] | None = None
    seat_change_claim_minutes: Annotated[int, Field(ge=1, le=30)] | None = None  # R36
    on_claim_expiry: ExpiryPolicy | None = None
    checkin_minutes: Annotated[int, Field(ge=1, le=480)] | None = None
    auto_offer: Flag | None = None
    placement: Placement | None = None
    return_window: ReturnWindow | None = None  # R27
    return_window_minutes: Annotated[int, Field(ge=1, le=1440)] | None = None  # R27
    gaming_day_start: Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")] | None = (
        Field(None, description="R2: local time the gaming day starts, HH:MM"))
    break_minutes: Annotated[int, Field(ge=1, le=240)] | None = None  # R23
    break_after_play_minutes: Annotated[int, Field(ge=0, le=720)] | None = None  # R23
    breaks_per_gaming_day: Annotated[int, Field(ge=0, le=20)] | None = None  # R23
    max_breaks_per_table: Annotated[int, Field(ge=0, le=10)] | None = None  # R23
    away_notify_minutes: Annotated[int, Field(ge=1, le=240)] | None = None  # R25
    max_away_minutes: Annotated[int, Field(ge=0, le=480, description="R26; 0 turns it off")] | None = None
    max_missed_bb: Annotated[int, Field(
        ge=0, le=100, description="R26; 0 turns it off")] | None = None
    playover_needs_consent: Flag | None = None  # R29
    no_playover_max_minutes: Annotated[int, Field(ge=1, le=60)] | None = None  # R29
    new_player_posting: NewPlayerPosting | None = None  # R36
    must_move_refusal: MustMoveRefusal | None = None  # R17
    cash_out_approval_over: Annotated[MoneyOrZero, Field(description=(
        "R27/R28: a cash-out above this many minor units needs a supervisor's approval; 0 turns "
        "it off"))] | None = None
    reversal_two_person: Flag | None = Field(
        None, description="R52: nobody reverses a ledger row they posted themselves")
    close_while_running: Literal["warn", "refuse"] | None = Field(
        None, description="R54: a shift or day close with tables still running is warned of or "
                          "refused")
    shifts: Annotated[list[Annotated[str, StringConstraints(
        pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]], Field(max_length=12)] | None = Field(
        None, description="R54: local start times of the gaming day's shifts, HH:MM; the gaming "
                          "day's start is always shift 1's; [] or one time: one shift, the day")
    call_ins: Flag | None = Field(None, description="R12: phone entries (call-ins) are taken")
    break_expiry: BreakExpiry | None = Field(None, description=(
        "R24: a break that ran out loses the seat 'always', or 'if_waiting': only when somebody "
        "waits for a seat of the game"))
    must_move_when: MustMoveWhen | None = Field(None, description=(
        "R17: a must-move player moves 'at_once', or at 'big_blind': when the big blind reaches "
        "them at the must-move table (they then post a big blind at the main table)"))
    post_behind_button: Flag | None = Field(None, description=(
        "R35: a new or returning player between the button and the small blind may post there "
        "(what they owe, at least a big blind) to be dealt in at once; off: they wait until the "
        "button passes"))
    return_tolerance_unit: ToleranceUnit | None = Field(None, description=(
        "R27: return_tolerance is an 'amount' (minor units) or a 'percent' of the counted stack"))
    return_tolerance: MoneyOrZero | None = Field(None, description=(
        "R27: a returning buy-in this far below the counted stack is still accepted; 0: none"))
    lockup_minutes: Annotated[int, Field(ge=0, le=120)] | None = Field(None, description=(
        "R10-R14: a listed player who steps away keeps their place this long; 0: no lockups"))
    remote_entries: Flag | None = Field(None, description=(
        "R12: players may join waiting lists themselves from the phone page"))
    remote_entry_cap: Annotated[int, Field(ge=1, le=20)] | None = Field(None, description=(
        "R12: a phone number's active remote entries, at most"))
    dealer_rotation: Flag | None = Field(None, description=(
        "R62-R64: the room runs its dealers' roster and rotation in roomops (every open table has "
        "a dealer or is flagged; a hand is recorded only in a down)"))
    down_minutes: Annotated[int, Field(ge=10, le=120)] | None = Field(None, description=(
        "R63: how long a dealer deals at a table before the push"))
    downs_before_break: Annotated[int, Field(ge=1, le=8)] | None = Field(None, description=(
        "R64: downs a dealer deals before a break"))
    dealer_break_minutes: Annotated[int, Field(ge=5, le=120)] | None = Field(None, description=(
        "R64: a dealer's break"))
    start_at: Annotated[int, Field(ge=2, le=10)] | None = Field(None, description=(
        "R65: players waiting that start a new table"))
    toke_pool: Literal["pooled", "individual"] | None = Field(None, description=(
        "R66: tips pooled for the shift and shared by downs dealt, or each dealer's own"))
    time_collection: TimeCollection | None = Field(None, description=(
        "R50: time paid in advance at the collection times ('clock': every period from the "
        "gaming day's start) or for each player's own period from when they pay ('own')"))
    time_new_player_minutes: Annotated[int, Field(ge=0, le=30)] | None = Field(None, description=(
        "R50: a player sitting down this close before a collection is not charged it while the "
        "list is short; 0: off"))
    time_all_pay_waiting: Annotated[int, Field(ge=1, le=50)] | None = Field(None, description=(
        "R50: with this many waiting for a seat, everyone due pays before the next hand"))
    time_decline_until_bb: Flag | None = Field(None, description=(
        "R50: a player who declines to pay plays on until their big blind while nobody waits"))
    rake_split_pots: Flag | None = Field(None, description=(
        "R51: a pot split between winners is raked (once, capped once); off: not raked"))


class GrantBreak(Body):
    """R23/R24: the stack the player leaves on the table, counted when the break starts; a break
    the rules refuse is granted with a supervisor's written reason (audited, R60)."""

    stack: MoneyOrZero
    override_reason: Annotated[Reason | None, Field(
        description="R23: a supervisor's written reason to grant a break the room's break rules "
                    "refuse; audited")] = None


class MarkAway(Body):
    """R25: the stack left on the table if counted; otherwise the last known one (the buy-in)."""

    stack: MoneyOrZero | None = None


class AbsenceNote(Body):
    note: Reason  # R25: where the player is


class StartPlayover(Body):
    """R29: the overplayer's own buy-in (R30), paid as ``buy_in_method`` says (R32); the next in
    list order unless ``entry_id`` is given (out of list order needs a reason, R13); the owner's
    consent where the room requires it."""

    buy_in: Money
    entry_id: Id | None = None
    reason: Reason | None = None
    owner_consents: Flag = False
    buy_in_method: BuyInMethod = "table"


class StopPlayover(Body):
    """R29/R27: the overplayer leaves with ``stack``, counted now (their cash-out is tied to it)."""

    stack: MoneyOrZero


class ComeBack(Body):
    """R23/R25: the owner is back; ``overplayer_stack``: the counted chips of the player who was
    playing over the seat, who now leaves (R29; their cash-out is tied to it, R27)."""

    overplayer_stack: MoneyOrZero | None = None

class NoPlayover(Body):
    """R29: "no playover" for this many minutes, at most the room's ``no_playover_max_minutes``
    (all of it when not given)."""

    minutes: Annotated[int, Field(ge=1, le=60)] | None = None


class MovePlayer(Body):
    """R19: a floor-ordered move to an open seat of another table of the game, carrying the
    counted stack; chips may be added, never removed (R18, R28)."""

    table_id: Id
    seat_no: SeatNo
    stack: Money
    added: MoneyOrZero = 0
    reason: Reason | None = None


class ChangeSeat(Body):
    """R36: another open seat at the same table; the chips go with the player, counted now (R18,
    as a move's stack)."""

    seat_no: SeatNo
    stack: Money
    reason: Reason | None = None


class ClaimSeatChange(Body):
    """R36: the player on the table's seat-change list takes the seat called, with the stack
    counted now; ``during_hand``: the seat is held and the move made when the hand is recorded,
    carrying the seat's last known stack (no stack is given: the chips are in play)."""

    stack: Money | None = None
    during_hand: Flag = False


class SwapSeats(Body):
    """R36: the floor swaps two players of one table, each stack counted now."""

    other_hold_id: Id
    stack: Money
    other_stack: Money
    reason: Reason | None = None


class ClaimMove(Body):
    """R17/R18: a seated player takes the seat offered in the same game, carrying the stack."""

    stack: Money
    added: MoneyOrZero = 0


class BreakTable(Body):
    """R19: the stacks counted now, by seat hold id; a player not listed carries the last known
    stack (the seat's buy-in)."""

    stacks: dict[Id, Money] | None = None


class MustMove(Body):
    """R17: the main table this table feeds; null: not a must-move table any more."""

    feeds_table_id: Id | None = None


class BarPair(Body):
    player_a: Id
    player_b: Id
    reason: Reason  # R15


class ReturnQuery(BaseModel):
    """R27: the game a player is about to sit down in (query string)."""

    model_config = ConfigDict(extra="ignore")

    game_id: Id


class AuditQuery(Trimmed):
    """R60: filters of GET /api/v1/audit (query string); newest first, paged by ``before_id``."""

    model_config = ConfigDict(extra="ignore")

    action: Annotated[str, StringConstraints(max_length=40)] | None = None
    actor: Annotated[str, StringConstraints(max_length=60)] | None = None
    before_id: Id | None = None
    limit: Annotated[int, Field(ge=1, le=500)] = 100

    @field_validator("action", "actor", mode="after")
    @classmethod
    def _storable(cls, value: object) -> object:
        return storable(value)


class StraddleIn(Body):
    seat_no: SeatNo
    amount: Money


class RecordHand(Body):
    """R33-R35, R40: the dealer's new hand. ``hand_no`` is the number the dealer sees as next (a
    repeated tap is refused, not recorded twice); ``high_card_seat`` starts the table's first hand
    (or afresh); ``posting``: seats whose players post what they owe to play now; ``straddles`` in
    the order made."""

    hand_no: Annotated[int, Field(ge=1, le=INT_MAX)]
    high_card_seat: SeatNo | None = None
    posting: Annotated[list[SeatNo], Field(max_length=11)] = []
    straddles: Annotated[list[StraddleIn], Field(max_length=8)] = []
    floor_consent: Flag = False
    sanctioned: Flag = False  # R40: the supervisor sanctioned this hand's straddles


class GivePenalty(Body):
    """R55/R57: a warning, a sit-out of ``count`` hands or of ``count`` (1 or 2) rounds, or
    removal from the game (with the stack the player leaves with, if counted: R27)."""

    kind: PenaltyKind
    count: Annotated[int, Field(ge=0, le=100)] = 0
    reason: Annotated[str, StringConstraints(min_length=1, max_length=500), ShownNote]
    leave_amount: MoneyOrZero | None = None
