"""The JSON API of the ledger and chips in transit (R28, R30-R32, R52, R61), attached to the
API blueprint with ``@route`` so every route is in the OpenAPI document.

Idempotency (R52): the key comes from the ``Idempotency-Key`` header or the body's
``idempotency_key`` (both given, they must agree); a retry answers like the first request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import request
from pydantic import BaseModel
from werkzeug.wrappers import Response

from roomops.api import ledger_models as out
from roomops.api.views import DAY, ID, REFUSED, answer, body, query, route
from roomops.auth import throttle
from roomops.errors import Invalid
from roomops.ledger import cash_outs, dayclose, drops, fees, rake, transit
from roomops.ledger import services as ledger
from roomops.ledger.closing import parse_day
from roomops.rooms.models import Room
from roomops.schemas.ledger import (
    CancelSlip,
    CashOut,
    ChipsMovement,
    CloseDay,
    Counts,
    Drop,
    Movement,
    Rake,
    RakeDown,
    RakeLimitQuery,
    Rebuy,
    Reversal,
    SessionFee,
    ShiftQuery,
    TableFees,
)
from roomops.web.closes import close_counted
from roomops.web.uow import actor, db, now, run

B = TypeVar("B", bound=BaseModel)
# a posted row: reversed by its id, counted and closed on its gaming day (roomops.api.links)
ROW = ("ledger", "gaming_day")


def _body(model: type[B], rule: str) -> B:
    """``views.body``, naming this action's rule when the body does not fit (R28, R30, R31, R52)."""
    try:
        return body(model)
    except Invalid as err:
        raise Invalid(err.template, rule, amounts=err.amounts) from None


def _key(sent: str | None) -> str | None:
    header = request.headers.get("Idempotency-Key", "").strip() or None
    if header and sent and header != sent:
        raise Invalid("the Idempotency-Key header and idempotency_key differ", "R52")
    if header and len(header) > 100:
        raise Invalid("Idempotency-Key is longer than 100 characters", "R52")
    return header or sent


def _movement(service: Callable[..., Any], rule: str) -> Response:
    b = _body(ChipsMovement, rule)
    row = run(service, b.hold_id, b.amount, b.method, b.currency, _key(b.idempotency_key),
              playover_id=b.playover_id)
    return answer(out.LedgerEntryOut, row, 201)


@route("POST", "/ledger/buy-ins", summary="Log a seated player's buy-in, within the game's range, or "
       "an overplayer's whose buy-in row was reversed (R29, R30, R32, R52)",
       response=out.LedgerEntryOut, status=201, body=ChipsMovement, gives=ROW, tag="ledger")
def post_buy_in() -> Response:
    return _movement(ledger.buy_in, "R30")


@route("POST", "/ledger/add-ons", summary="Log chips added for a seated player, or for the "
       "overplayer of a live playover (playover_id); never negative (R28, R29, R32)",
       response=out.LedgerEntryOut, status=201, body=ChipsMovement, gives=ROW, tag="ledger")
def post_add_on() -> Response:
    return _movement(ledger.add_on, "R28")


@route("POST", "/ledger/rebuys", summary="Log chips bought again by a seated player with none left: "
       "the minimum unless stated; below it once per session after an all-in loss (R30)",
       response=out.LedgerEntryOut, status=201, body=Rebuy, gives=ROW, tag="ledger")
def post_rebuy() -> Response:
    b = _body(Rebuy, "R30")
    return answer(out.LedgerEntryOut, run(
        ledger.rebuy, b.hold_id, b.amount, after_all_in=b.after_all_in, method=b.method,
        currency=b.currency, key=_key(b.idempotency_key)), 201)


@route("POST", "/ledger/cash-outs", summary="Log the cash-out of a player who has left the seat, "
       "once per seat, or of the overplayer of its ended playover (playover_id, once per playover, "
       "R29); a supervisor's approval when the amount differs from the one recorded as "
       "they left or is above the room's threshold (R27, R28, R52)", response=out.LedgerEntryOut,
       status=201, body=CashOut, gives=ROW, takes={"amount": "leave_amount"}, tag="ledger",
       refusals=(*REFUSED, 429))
def post_cash_out() -> Response:
    b = _body(CashOut, "R28")
    by = throttle.approver(actor().room_id, b.approval.username, b.approval.password,
                  "R28") if b.approval else None
    return answer(out.LedgerEntryOut, run(cash_outs.cash_out, b.hold_id, b.amount, b.method,
                                          b.currency, _key(b.idempotency_key), approver=by,
                                          playover_id=b.playover_id), 201)


@route("POST", f"/ledger/<{ID}:entry_id>/reverse", summary="Reverse a ledger row with a reason; "
       "a reversal is never reversed (R52)", response=out.LedgerEntryOut, status=201, body=Reversal,
       gives=ROW, takes={"entry_id": "ledger"}, tag="ledger")
def reverse_entry(entry_id: int) -> Response:
    b = _body(Reversal, "R52")
    return answer(out.LedgerEntryOut, run(ledger.reverse, entry_id, b.reason,
                                          _key(b.idempotency_key)), 201)


@route("POST", "/ledger/session-fees", summary="Collect a seated player's session fee for the "
       "coming hour or half hour, in chips or cash at the cage (R50, R52)",
       response=out.LedgerEntryOut, status=201, body=SessionFee, gives=ROW, tag="ledger")
def collect_session_fee() -> Response:
    b = _body(SessionFee, "R50")
    row = run(fees.collect, b.hold_id, b.method, b.currency, _key(b.idempotency_key))
    return answer(out.LedgerEntryOut, row, 201)


@route("POST", f"/tables/<{ID}:table_id>/session-fees", summary="Collect the coming period's "
       "session fee from every player seated at the table who is due, in one go; covered players "
       "are skipped and counted (R50, R52)", response=out.TableFeesOut, status=201, body=TableFees,
       tag="ledger")
def collect_table_fees(table_id: int) -> Response:
    b = _body(TableFees, "R50")
    done = run(fees.collect_table, table_id, b.method, b.currency, _key(b.idempotency_key))
    return answer(out.TableFeesOut, done, 201)


@route("GET", "/ledger/fees-due", summary="Seated players of hourly and half-hourly games: paid "
       "until and how long due, longest first (R50)", response=out.FeesDue, tag="ledger")
def fees_due() -> Response:
    return answer(out.FeesDue, {"fees": fees.fees_due(db(), actor().room_id, now())})


# Only POST on this path (see roomops.api.hands: a path shared by two methods answers 405 for a bad id)
@route("POST", f"/tables/<{ID}:table_id>/hands/<{ID}:hand_no>/rake", summary="Record the rake of "
       "a hand, within the game's percent and cap; no flop, no drop (R51, R52, R61)",
       response=out.LedgerEntryOut, status=201, body=Rake, gives=ROW, tag="ledger")
def record_rake(table_id: int, hand_no: int) -> Response:
    b = _body(Rake, "R51")
    row = run(rake.record_rake, table_id, hand_no, pot=b.pot, flop=b.flop, rake=b.rake,
              players=b.players, split=b.split_seats, key=_key(b.idempotency_key))
    return answer(out.LedgerEntryOut, row, 201)


# Only POST on this path, as for the rake
@route("POST", f"/tables/<{ID}:table_id>/hands/<{ID}:hand_no>/drop", summary="Take the game's "
       "drop from a hand, in chips: the amount for its players dealt in; once a hand (R50, R52, "
       "R61)", response=out.LedgerEntryOut, status=201, body=Drop, gives=ROW, tag="ledger")
def record_drop(table_id: int, hand_no: int) -> Response:
    b = _body(Drop, "R50")
    row = run(drops.record_drop, table_id, hand_no, players=b.players, amount=b.amount,
              method=b.method, key=_key(b.idempotency_key))
    return answer(out.LedgerEntryOut, row, 201)


@route("GET", f"/tables/<{ID}:table_id>/hands/<{ID}:hand_no>/rake-limit", summary="The most "
       "rake a pot of the hand allows, with the cap for its players dealt in, as the dealer's "
       "screen shows it before the rake is typed (R51)", response=out.RakeLimitOut,
       query=RakeLimitQuery, tag="ledger")
def rake_limit(table_id: int, hand_no: int) -> Response:
    q = query(RakeLimitQuery, "R51")
    return answer(out.RakeLimitOut, rake.rake_limit(db(), actor(), table_id, hand_no, pot=q.pot,
                                                    flop=q.flop))


@route("POST", f"/tables/<{ID}:table_id>/downs", summary="Record the total rake of a dealer down: "
       "hands first..last at the table, each raked once, within their caps added up (R51, R52, "
       "R61)", response=out.LedgerEntryOut, status=201, body=RakeDown, gives=ROW, tag="ledger")
def record_down(table_id: int) -> Response:
    b = _body(RakeDown, "R51")
    row = run(rake.record_down, table_id, first_hand_no=b.first_hand_no,
              last_hand_no=b.last_hand_no, rake=b.rake, dealer_id=b.dealer_id,
              key=_key(b.idempotency_key))
    return answer(out.LedgerEntryOut, row, 201)


# GET on its own path (a path shared by two methods answers 405 for a bad id)
@route("GET", f"/tables/<{ID}:table_id>/rake-downs", summary="The table's dealer downs, newest "
       "first: hands, dealer, rake and whether it stands (R51, R52)", response=out.DownsOut,
       tag="ledger")
def list_downs(table_id: int) -> Response:
    return answer(out.DownsOut, {"downs": rake.downs_at(db(), actor(), table_id)})


@route("POST", "/transits", summary="Request chips from the cage for a seated player: a numbered "
       "slip (R31)", response=out.SlipOut, status=201, body=Movement, gives="slip", tag="ledger")
def request_transit() -> Response:
    b = _body(Movement, "R31")
    slip = run(transit.request, b.hold_id, b.amount, b.method, b.currency, _key(b.idempotency_key))
    return answer(out.SlipOut, slip, 201)


@route("POST", f"/transits/<{ID}:slip_id>/confirm-funds", summary="A supervisor confirms cheque "
       "or credit funds are available (R31)", response=out.SlipOut, gives="slip", tag="ledger")
def confirm_transit_funds(slip_id: int) -> Response:
    return answer(out.SlipOut, run(transit.confirm_funds, slip_id))


@route("POST", f"/transits/<{ID}:slip_id>/dispatch", summary="A supervisor authorises the "
       "transit; the chips leave the cage (R31)", response=out.SlipOut, gives="slip", tag="ledger")
def dispatch_transit(slip_id: int) -> Response:
    return answer(out.SlipOut, run(transit.dispatch, slip_id))


@route("POST", f"/transits/<{ID}:slip_id>/deliver", summary="Someone other than the authorising "
       "supervisor confirms delivery; posts the ledger row (R31, R52, R61)", response=out.SlipOut,
       tag="ledger")
def deliver_transit(slip_id: int) -> Response:
    return answer(out.SlipOut, run(transit.deliver, slip_id))


@route("POST", f"/tables/<{ID}:table_id>/transits/<{ID}:slip_id>/deliver", summary="The table's "
       "dealer or runner (the deal right) confirms delivery to a seat of that table; posts the "
       "ledger row (R31, R52, R61)", response=out.SlipOut, tag="ledger")
def deliver_transit_at_table(table_id: int, slip_id: int) -> Response:
    return answer(out.SlipOut, run(transit.deliver, slip_id, at_table=table_id))


@route("POST", f"/transits/<{ID}:slip_id>/cancel", summary="Cancel an open transit with a "
       "reason; it keeps its number (R31)", response=out.SlipOut, body=CancelSlip, tag="ledger")
def cancel_transit(slip_id: int) -> Response:
    return answer(out.SlipOut, run(transit.cancel, slip_id, _body(CancelSlip, "R31").reason))


@route("GET", "/transits/open", summary="Open transits, oldest first, with their age (R31)",
       response=out.OpenSlips, tag="ledger")
def open_transits() -> Response:
    rows = transit.open_slips(db(), actor().room_id, now())
    return answer(out.OpenSlips, {"slips": rows})


@route("GET", "/transits/numbers", summary="Every slip number issued, with its state (R31)",
       response=out.NumberReportOut, tag="ledger")
def transit_numbers() -> Response:
    return answer(out.NumberReportOut, transit.number_report(db(), actor().room_id))


# --- gaming-day close and report (R52, R54) -----------------------------------------------------
# Each path has one method: werkzeug answers 405 instead of 404 for a bad day on a shared path.

GAMING_DAY = f"<{DAY}:gaming_day>"


@route("GET", f"/ledger/days/{GAMING_DAY}/report", summary="The gaming day's report (or one "
       "shift's, ?shift=N) per table, game, kind, staff member and shift, its counts and closes; "
       "every breakdown adds up to the total (R52, R54)", response=out.DayReportOut,
       query=ShiftQuery, tag="ledger")
def day_report(gaming_day: str) -> Response:
    actor().require("cash")
    room = db().get_one(Room, actor().room_id)
    return answer(out.DayReportOut, dayclose.report(db(), room, parse_day(gaming_day),
                                                    query(ShiftQuery, "R54").shift))


@route("POST", f"/ledger/days/{GAMING_DAY}/counts", summary="Record the sender's counts for the day's "
       "shift (?shift=N; omitted: the day's only shift), per table and in total; a variance "
       "needs an explanation (R54)", response=out.DayCountsOut, status=201, body=Counts,
       query=ShiftQuery, tag="ledger")
def record_day_counts(gaming_day: str) -> Response:
    shift = query(ShiftQuery, "R54").shift
    b = _body(Counts, "R54")
    rows = run(dayclose.record_counts, parse_day(gaming_day),
               [dayclose.Count(c.table_id, c.counted, c.explanation) for c in b.counts], shift)
    return answer(out.DayCountsOut, {"counts": rows}, 201)


@route("POST", f"/ledger/days/{GAMING_DAY}/close", summary="Close the day's shift (?shift=N; "
       "omitted: the day's only shift): the sender and a second staff member, one a supervisor, "
       "both counted; once only, shifts in order; the last shift's close closes the day, once "
       "it has ended or, before, once no table is open (what is posted later goes to the next "
       "gaming day); tables still running are refused or named, as the room's policy says (R54)",
       response=out.ClosedOut, status=201, body=CloseDay, query=ShiftQuery, tag="ledger")
def close_day(gaming_day: str) -> Response:
    shift = query(ShiftQuery, "R54").shift
    b = _body(CloseDay, "R54")
    closed = run(close_counted, parse_day(gaming_day), b.second_staff_id, shift)
    return answer(out.ClosedOut, out.ClosedOut.model_validate(closed.row).model_copy(
        update={"running_tables": closed.running}), 201)
