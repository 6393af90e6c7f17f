"""The JSON API under /api/v1: thin views that validate a body with its pydantic model, call one
service through ``uow.run`` (the one commit point) and answer with a response model.

Every route is declared with ``@route`` so the OpenAPI document (``roomops.api.openapi``) is built
from the same table the URL map is: an undocumented route cannot exist."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Blueprint, request
from flask.typing import ResponseReturnValue
from pydantic import BaseModel, ValidationError
from werkzeug.wrappers import Response

from roomops.absences import expiry
from roomops.absences import services as absences
from roomops.actors import get_in_room
from roomops.api import models as out
from roomops.audit import reads as audit
from roomops.db import INT_MAX
from roomops.errors import Invalid, RoomopsError
from roomops.games import services as games
from roomops.games.models import Game
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms import services as rooms
from roomops.rooms.models import Player, Room
from roomops.schemas import (
    SCHEDULE_RULES,
    AbsenceNote,
    AuditQuery,
    BarPair,
    Claim,
    ComeBack,
    Decline,
    GameChange,
    GameConditions,
    GrantBreak,
    JoinList,
    Leave,
    LockUp,
    MarkAway,
    NewPlayer,
    NoPlayover,
    OfferSeat,
    OpenTable,
    Policy,
    RemoveEntry,
    ReorderEntry,
    ReturnQuery,
    SeatPlayer,
    StartPlayover,
    StopPlayover,
)
from roomops.seating import closing, offers, returns, seats, snapshot
from roomops.seating.return_rule import Requirement
from roomops.seating.suggest import apart_of
from roomops.web.errors import describe
from roomops.web.money import room_money
from roomops.web.uow import actor, db, now, run

bp = Blueprint("api", __name__, url_prefix="/api")
ID = f"int(min=1, max={INT_MAX})"
DAY = "string(length=10)"  # a gaming day in a path, YYYY-MM-DD (R2); documented as a date
PARAM = re.compile(r"<(?:[^:<>]+:)?([a-z_]+)>")  # a rule's parameter, e.g. <int(min=1):entry_id>
M = TypeVar("M", bound=BaseModel)
# the refusals every operation may answer with (roomops.api.openapi.REFUSALS says what each means)
REFUSED = (400, 401, 403, 404, 409, 422)


@dataclass(frozen=True)
class Operation:
    """One documented route: what the OpenAPI document says about it."""

    method: str
    rule: str  # Flask rule under /api, e.g. /v1/entries/<int(...):entry_id>/remove
    endpoint: str
    summary: str
    status: int
    response: type[BaseModel]
    body: type[BaseModel] | None = None
    query: type[BaseModel] | None = None
    refusals: tuple[int, ...] = REFUSED
    tags: tuple[str, ...] = field(default_factory=tuple)
    body_optional: bool = False  # the route reads it with ``optional_body``
    gives: tuple[str, ...] = ()  # the kinds of row the 2xx answer names (roomops.api.links)
    takes: tuple[tuple[str, str], ...] = ()  # (parameter or field, kind) where KINDS says otherwise
    # who may call it where that is not staff (bearer, cookie): [] for anyone, or a player's link
    security: tuple[str, ...] | None = None

    @property
    def operation_id(self) -> str:
        return self.endpoint.removeprefix("api.")


OPERATIONS: list[Operation] = []


def route(method: str, rule: str, *, summary: str, response: type[BaseModel], status: int = 200,
          body: type[BaseModel] | None = None, query: type[BaseModel] | None = None,
          tag: str, body_optional: bool = False, refusals: tuple[int, ...] = REFUSED,
          gives: str | tuple[str, ...] = (), takes: Mapping[str, str] | None = None,
          security: tuple[str, ...] | None = None,
          ) -> Callable[[Callable[..., ResponseReturnValue]], Callable[..., ResponseReturnValue]]:
    """Serve and document a route. ``gives``: the kinds of row its 2xx answer names (its ``id``,
    or the field named for the kind), which link it to the routes taking them; ``takes``: the kind
    a parameter or body field names where its name means something else than in
    ``roomops.api.links.KINDS``."""
    def register(view: Callable[..., ResponseReturnValue]) -> Callable[..., ResponseReturnValue]:
        OPERATIONS.append(Operation(method, "/v1" + rule, f"api.{view.__name__}", summary, status,
                                    response, body, query, refusals, tags=(tag,),
                                    body_optional=body_optional,
                                    gives=(gives,) if isinstance(gives, str) else gives,
                                    takes=tuple((takes or {}).items()), security=security))
        bp.add_url_rule("/v1" + rule, view_func=view, methods=[method])
        return view

    return register


class BadRequest(RoomopsError):
    status = 400


# The rule a body breaks when it does not fit its model (a field's own rule first).
BODY_RULES: dict[type[BaseModel], str] = {
    JoinList: "R10", RemoveEntry: "R16", ReorderEntry: "R13", OfferSeat: "R14", Claim: "R30",
    SeatPlayer: "R14", Leave: "R27", GameConditions: "R4", GameChange: "R6", OpenTable: "R5",
    Policy: "R3", LockUp: "R13", BarPair: "R15", GrantBreak: "R23", MarkAway: "R25", AbsenceNote: "R25",
    StartPlayover: "R29", NoPlayover: "R29", StopPlayover: "R29", ComeBack: "R29", Decline: "R17",
}
FIELD_RULES = {"buy_in": "R30", "reason": "R13", "seat_no": "R4", "override_reason": "R27",
               "overplayer_stack": "R29", "shifts": "R54", "rake_recorded": "R51",
               **SCHEDULE_RULES}
# bodies whose every field answers with the body's own rule (a reason here is not an R13 reason)
OWN_RULE: set[type[BaseModel]] = {RemoveEntry, BarPair, GrantBreak}
# a field of one body whose rule is not FIELD_RULES' (the coordinator's reason is R60's, not R13's)
BODY_FIELD_RULES: dict[tuple[type[BaseModel], str], str] = {}


def body(model: type[M]) -> M:
    """The request's JSON object validated by ``model``: 400 when it is not JSON, 422 naming the
    fields and the rule when it does not fit the model."""
    if not request.is_json:
        raise BadRequest(f"send a JSON object with Content-Type: application/json "
                         f"(got {request.mimetype or 'no content type'})")
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # json.loads on thousands of nested brackets; not a ValueError
        data = None
    if data is None:
        raise BadRequest("the request body is not valid JSON")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]["loc"]
        rule = BODY_RULES.get(model)
        if first and model not in OWN_RULE:
            name = str(first[0])
            rule = BODY_FIELD_RULES.get((model, name), FIELD_RULES.get(name, rule))
        raise Invalid(describe(err), rule) from None


def optional_body(model: type[M]) -> M:
    """``body``, or the model's defaults when the request sends no body at all (a body added to
    a route that had none: its old requests keep working)."""
    return body(model) if request.content_length or request.is_json else model()


def query(model: type[M], rule: str) -> M:
    """The request's query string validated by ``model``: 422 naming the fields and the rule."""
    try:
        return model.model_validate(request.args.to_dict())
    except ValidationError as err:
        raise Invalid(describe(err), rule) from None


def given(fields: BaseModel) -> dict[str, Any]:
    """Only the fields the client sent; null means "leave as it is" (R6 and R3 partial updates)."""
    sent = {k: v for k, v in fields.model_dump(exclude_unset=True).items() if v is not None}
    if not sent:
        raise Invalid("send at least one field to change")
    return sent


def answer(model: type[BaseModel], obj: Any, status: int = 200) -> Response:
    """``obj`` as ``model`` says, written by pydantic's own JSON encoder (half the cost of building
    a dict and handing it to ``jsonify``)."""
    return Response(model.model_validate(obj).model_dump_json(), status, mimetype="application/json")


# --- players -----------------------------------------------------------------------------------

@route("POST", "/players",
       summary="Add a player to the room; a name or phone the room knows answers 409 (R10) with "
               "the candidates unless create_anyway is sent",
       response=out.PlayerOut, status=201, body=NewPlayer, gives="player", tag="players")
def add_player() -> Response:
    return answer(out.PlayerOut, run(rooms.add_player, **body(NewPlayer).model_dump()), 201)


@route("POST", "/barred-pairs",
       summary="Bar two players from playing in the same game (R15); when they sit at one table "
               "now, `together` says who should move, and where to",
       response=out.BarredPairOut, status=201, body=BarPair, tag="players")
def bar_pair() -> Response:
    b = body(BarPair)
    pair = run(rooms.bar_pair, b.player_a, b.player_b, b.reason)
    session = db()
    together = apart_of(session, snapshot.load(session, pair.room_id, now()),
                        frozenset((pair.player_low_id, pair.player_high_id)))
    return answer(out.BarredPairOut, {**out.BarredPairOut.model_validate(pair).model_dump(),
                                      "together": together}, 201)


# --- lists -------------------------------------------------------------------------------------

@route("POST", "/entries", summary="Put a player on a waiting list or reserve list (R10-R12)",
       response=out.EntryOut, status=201, body=JoinList, gives="entry", tag="lists")
def join_list() -> Response:
    return answer(out.EntryOut, run(lists.join, **body(JoinList).model_dump()), 201)


@route("POST", f"/entries/<{ID}:entry_id>/remove", summary="Take an entry off its list (R16)",
       response=out.EntryOut, body=RemoveEntry, tag="lists")
def remove_entry(entry_id: int) -> Response:
    return answer(out.EntryOut, run(lists.remove, entry_id, body(RemoveEntry).reason))


@route("POST", f"/entries/<{ID}:entry_id>/reorder",
       summary="Move an entry to another position, with a written reason (R13)",
       response=out.EntryOut, body=ReorderEntry, gives="entry", tag="lists")
def reorder_entry(entry_id: int) -> Response:
    b = body(ReorderEntry)
    return answer(out.EntryOut, run(lists.reorder, entry_id, b.position, b.reason))


@route("POST", f"/entries/<{ID}:entry_id>/check-in", summary="Check in a phone entry (R12)",
       response=out.EntryOut, gives="entry", tag="lists")
def check_in(entry_id: int) -> Response:
    return answer(out.EntryOut, run(lists.check_in, entry_id))


@route("POST", f"/entries/<{ID}:entry_id>/lockup",
       summary="The player steps away and keeps their place for the room's lockup minutes (R13)",
       response=out.EntryOut, body=LockUp, tag="lists")
def lock_up(entry_id: int) -> Response:
    return answer(out.EntryOut, run(lists.lock_up, entry_id, body(LockUp).deposit))


@route("POST", f"/entries/<{ID}:entry_id>/lockup/end",
       summary="The locked-up player is back: offered in their place again (R13)",
       response=out.EntryOut, tag="lists")
def end_lockup(entry_id: int) -> Response:
    return answer(out.EntryOut, run(lists.end_lockup, entry_id))


@route("GET", f"/entries/<{ID}:entry_id>/history",
       summary="The audit rows of one list entry, oldest first (R13, R16)",
       response=out.EntryHistory, tag="lists")
def entry_history(entry_id: int) -> Response:
    who = actor()
    entry = get_in_room(db(), ListEntry, entry_id, who, "list entry")
    rows = list(db().scalars(audit.query(who.room_id, entity=("list_entry", entry_id), limit=1000)))
    return answer(out.EntryHistory, {"entry": entry, "events": rows[::-1]})


# --- offers and seats --------------------------------------------------------------------------

@route("POST", "/offers", summary="Offer a seat by hand; out of list order needs a reason (R13, R14)",
       response=out.HoldOut, status=201, body=OfferSeat, gives="offer", tag="seats")
def make_offer() -> Response:
    return answer(out.HoldOut, run(offers.offer_by_hand, **body(OfferSeat).model_dump()), 201)


@route("POST", f"/offers/<{ID}:offer_id>/claim",
       summary="Claim an offered seat before its deadline (R21, R22, R30)",
       response=out.HoldOut, body=Claim, gives="seat", tag="seats")
def claim_offer(offer_id: int) -> Response:
    b = body(Claim)
    return answer(out.HoldOut, run(seats.claim, offer_id, b.buy_in, b.override_reason, b.buy_in_method,
                                   overplayer_stack=b.overplayer_stack))


@route("POST", f"/offers/<{ID}:offer_id>/decline",
       summary="Decline an offer: a missed call (R22); refusing a forced must-move seat, the "
               "stack counted is the leave amount of the seat given up (R17, R27)",
       response=out.HoldOut, body=Decline, tag="seats")
def decline_offer(offer_id: int) -> Response:
    return answer(out.HoldOut, run(offers.decline, offer_id, optional_body(Decline).stack))


@route("POST", "/seats", summary="Seat a player in an open seat (R14, R15, R30)",
       response=out.HoldOut, status=201, body=SeatPlayer, gives="seat", tag="seats")
def seat_player() -> Response:
    return answer(out.HoldOut, run(seats.seat_directly, **body(SeatPlayer).model_dump()), 201)


@route("GET", f"/players/<{ID}:player_id>/return-requirement",
       summary="The buy-in range for a player sitting down in a game now: R27 when returning to "
               "the same game within the return window, otherwise R30",
       response=out.ReturnRequirementOut, query=ReturnQuery, tag="seats")
def return_requirement(player_id: int) -> Response:
    who, session = actor(), db()
    get_in_room(session, Player, player_id, who, "player")
    game = get_in_room(session, Game, query(ReturnQuery, "R27").game_id, who, "game")
    room = session.get_one(Room, who.room_id)
    required = returns.requirement(session, room, now(), player_id, game)
    return answer(out.ReturnRequirementOut,
                  requirement_view(player_id, game, required, room.timezone))


def requirement_view(player_id: int, game: Game, required: Requirement | None,
                     tz: str) -> dict[str, Any]:
    base = {"player_id": player_id, "game_id": game.id}
    if required is None:
        return {**base, "minimum": game.min_buyin, "maximum": game.max_buyin, "rule": "R30",
                "why": None, "left_amount": None, "left_at": None, "left_table": None,
                "left_game_id": None}
    return {**base, "minimum": required.minimum, "maximum": required.maximum, "rule": "R27",
            "why": required.why(tz, room_money()(required.minimum)), "left_amount": required.left_amount,
            "left_at": required.left_at, "left_table": required.left_table,
            "left_game_id": required.left_game_id, "left_cause": required.left_cause}


@route("POST", f"/seats/<{ID}:hold_id>/leave",
       summary="A seated player leaves with an amount (feeds R27)", response=out.HoldOut,
       body=Leave, gives=("seat", "leave_amount"), tag="seats")
def leave_seat(hold_id: int) -> Response:
    return answer(out.HoldOut, run(seats.leave, hold_id, body(Leave).leave_amount))


@route("POST", f"/seats/<{ID}:hold_id>/break",
       summary="Grant a seated player a break, with the stack left on the table (R23, R24)",
       response=out.AbsenceOut, status=201, body=GrantBreak, gives="seat", tag="seats")
def grant_break(hold_id: int) -> Response:
    b = body(GrantBreak)
    return answer(out.AbsenceOut, run(absences.grant_break, hold_id, b.stack, b.override_reason), 201)


@route("POST", f"/seats/<{ID}:hold_id>/away", summary="Mark a seated player away (R25, R26)",
       response=out.AbsenceOut, status=201, body=MarkAway, gives="seat", tag="seats")
def mark_away(hold_id: int) -> Response:
    return answer(out.AbsenceOut, run(absences.mark_away, hold_id, body(MarkAway).stack), 201)


@route("POST", f"/seats/<{ID}:hold_id>/back",
       summary="The player is back in time from a break or from away (R23-R26)",
       response=out.AbsenceOut, body=ComeBack, body_optional=True, tag="seats")
def come_back(hold_id: int) -> Response:
    return answer(out.AbsenceOut, run(absences.come_back, hold_id,
                                      optional_body(ComeBack).overplayer_stack))


@route("POST", f"/seats/<{ID}:hold_id>/missed-big-blind",
       summary="An absent player missed a big blind; away with max_missed_bb reached, the seat is "
               "picked up (R26)", response=out.AbsenceOut, tag="seats")
def missed_big_blind(hold_id: int) -> Response:
    return answer(out.AbsenceOut, run(expiry.record_missed_big_blind, hold_id))


@route("POST", f"/seats/<{ID}:hold_id>/note",
       summary="Record where an absent player is (R25)", response=out.AbsenceOut, body=AbsenceNote,
       tag="seats")
def absence_note(hold_id: int) -> Response:
    return answer(out.AbsenceOut, run(absences.record_note, hold_id, body(AbsenceNote).note))


# --- games and tables --------------------------------------------------------------------------

@route("POST", "/games", summary="Open a game at stakes (R4)", response=out.GameOut, status=201,
       body=GameConditions, gives="game", tag="games")
def open_game() -> Response:
    return answer(out.GameOut, run(games.open_game, **body(GameConditions).model_dump()), 201)


@route("PATCH", f"/games/<{ID}:game_id>",
       summary="Change a game's conditions: only the fields sent (R6)", response=out.GameOut,
       body=GameChange, tag="games")
def change_game(game_id: int) -> Response:
    return answer(out.GameOut, run(games.update_game, game_id, **given(body(GameChange))))


@route("POST", f"/games/<{ID}:game_id>/close", summary="Close a game whose tables are closed (R5)",
       response=out.GameOut, tag="games")
def close_game(game_id: int) -> Response:
    return answer(out.GameOut, run(closing.close_game, game_id))


@route("POST", "/tables", summary="Open a table for a game (R5)", response=out.TableOut, status=201,
       body=OpenTable, gives="table", tag="games")
def open_table() -> Response:
    b = body(OpenTable)
    return answer(out.TableOut, run(games.open_table, b.game_id, b.name), 201)


@route("POST", f"/tables/<{ID}:table_id>/close",
       summary="Close a table with nobody seated (R5, R19)", response=out.TableOut, tag="games")
def close_table(table_id: int) -> Response:
    return answer(out.TableOut, run(closing.close_table, table_id))


# --- room --------------------------------------------------------------------------------------

@route("GET", "/policy", summary="The room's policies (R3)", response=out.PolicyOut, tag="room")
def get_policy() -> Response:
    return answer(out.PolicyOut, db().get_one(Room, actor().room_id))


@route("PATCH", "/policy", summary="Change room policies: only the fields sent (R3)",
       response=out.PolicyOut, body=Policy, tag="room")
def change_policy() -> Response:
    return answer(out.PolicyOut, run(rooms.update_policy, **given(body(Policy))))


@route("GET", "/room", summary="The room at a glance: games, tables, seats and lists",
       response=out.RoomOut, tag="room")
def room_snapshot() -> Response:
    snap = snapshot.load(db(), actor().room_id, now())
    return answer(out.RoomOut, room_view(snap))


@route("GET", "/audit", summary="The audit trail, newest first (R60; supervisors and admins)",
       response=out.AuditPage, query=AuditQuery, tag="room")
def audit_trail() -> Response:
    who = actor()
    who.require("audit")
    q = query(AuditQuery, "R60")
    rows = list(db().scalars(audit.query(who.room_id, action=q.action, actor=q.actor,
                                         before_id=q.before_id, limit=q.limit)))
    more = len(rows) == q.limit
    return answer(out.AuditPage, {"events": rows, "next_before_id": rows[-1].id if more else None})


def room_view(snap: snapshot.RoomSnapshot) -> dict[str, Any]:
    def place(v: snapshot.EntryView) -> dict[str, Any]:
        return {"entry_id": v.entry.id, "position": v.position, "player_id": v.player.id,
                "player": v.player.full_name, "source": v.entry.source,
                "joined_at": v.entry.joined_at, "awaiting_checkin": v.awaiting_checkin,
                "checkin_deadline": v.entry.checkin_deadline,
                "offer_id": v.offer.id if v.offer else None}

    def seat(s: snapshot.SeatView) -> dict[str, Any]:
        return {"seat_no": s.seat_no, "state": s.state,
                "player_id": s.player.id if s.player else None,
                "player": s.player.full_name if s.player else None,
                "hold_id": s.hold.id if s.hold else None,
                "deadline": s.hold.deadline if s.hold and s.hold.kind == "offer" else None,
                "seconds_left": s.seconds_left, "absence": s.absence, "playover": s.playover,
                "text": {"state": s.hold.text_state, "error": s.hold.text_error}
                if s.hold and s.hold.kind == "offer" and s.hold.text_state else None}

    def game(gv: snapshot.GameView) -> dict[str, Any]:
        gm: Game = gv.game
        return {
            **{k: getattr(gm, k) for k in ("id", "variant", "small_blind", "big_blind", "ante",
                                           "min_buyin", "max_buyin", "seats_per_table")},
            "fees": {"kind": gm.fee_kind, "time_fee": gm.time_fee, "hourly_fee": gm.time_fee,
                     "time_fee_by_players": gm.time_fee_by_players or None,
                     "drop_fee": gm.drop_fee, "drop_by_players": gm.drop_by_players or None,
                     "rake_bp": gm.rake_bp, "rake_cap": gm.rake_cap,
                     "smallest_chip": gm.smallest_chip, "rake_min_one_chip": gm.rake_min_one_chip,
                     "rake_schedule": gm.rake_schedule or None,
                     "rake_caps_by_players": gm.rake_caps_by_players or None},
            "straddles": {"allowed": gm.straddle_allowed, "max_straddles": gm.max_straddles,
                          "button_straddle": gm.button_straddle,
                          "sanction": gm.straddle_sanction},
            "tables": [{"id": tv.table.id, "name": tv.table.name, "seated": tv.seated,
                        "feeds_table_id": tv.table.feeds_table_id,
                        "over_reason": tv.over_reason, "open_seats": tv.open_seats,
                        "seats": [seat(s) for s in tv.seats],
                        "reserve": [place(v) for v in tv.reserve]} for tv in gv.tables],
            "waiting": [place(v) for v in gv.waiting],
        }

    room = snap.room
    return {"id": room.id, "slug": room.slug, "name": room.name, "now": snap.now,
            "version": snap.version, "policy": room, "games": [game(gv) for gv in snap.games]}
