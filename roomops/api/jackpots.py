"""The JSON API of the jackpots (R67-R70, R54): the schemes and their pools, a pool's ledger and
gaming day, the drop of a hand, claims and their payout or refusal with a second staff member, and
the jackpot drop box's count; as on the jackpots page (``roomops.desk.jackpots``) and the dealer's
tablet."""

from __future__ import annotations

from werkzeug.wrappers import Response

from roomops.actors import get_in_room
from roomops.api import jackpot_models as out
from roomops.api.views import BODY_RULES, DAY, ID, REFUSED, answer, body, query, route
from roomops.auth import throttle
from roomops.jackpots import boxes, claims, reads, schemes
from roomops.jackpots import pool as pools
from roomops.jackpots.drops import record_drop
from roomops.jackpots.models import JackpotScheme
from roomops.jackpots.shares import Split
from roomops.jackpots.terms import rules
from roomops.ledger.closing import parse_day
from roomops.rooms.gaming_day import gaming_day as day_of
from roomops.rooms.models import Room, Staff
from roomops.schemas.jackpots import (
    AdjustmentBody,
    BoxCountBody,
    ClaimBody,
    DayQuery,
    JackpotDropBody,
    PayoutBody,
    RefusalBody,
    ReversalBody,
    SchemeBody,
    SchemeEnd,
    SeedBody,
)
from roomops.schemas.ledger import Approval, ShiftQuery
from roomops.web.uow import actor, db, now, run

BODY_RULES.update({SchemeBody: "R67", SchemeEnd: "R69", SeedBody: "R69", AdjustmentBody: "R69",
                   ReversalBody: "R52", JackpotDropBody: "R68", ClaimBody: "R70", PayoutBody: "R70",
                   RefusalBody: "R70", BoxCountBody: "R54"})
APPROVALS = (*REFUSED, 429)


def _schemes() -> Response:
    session, room = db(), db().get_one(Room, actor().room_id)
    return answer(out.SchemesOut, {"currency": room.currency, "schemes": [
        _scheme(p) for p in reads.posted(session, room.id)]})


def _scheme(p: reads.Posted) -> dict[str, object]:
    s = p.scheme
    return {**{c: getattr(s, c) for c in out.SchemeOut.model_fields if hasattr(s, c)},
            "pool": p.pools.main, "backup": p.pools.backup, "games": p.game_ids, "tables": p.tables,
            "rules": rules(reads.posting(p), db().get_one(Room, s.room_id).money)}


@route("GET", "/jackpots", summary="The room's running jackpot schemes as posted, with their pools "
       "(R67, R69)", response=out.SchemesOut, tag="jackpots")
def jackpot_schemes() -> Response:
    actor().require("floor")
    return _schemes()


@route("POST", "/jackpots/schemes", summary="Start a jackpot scheme on games or tables, none already "
       "in one; its rules are posted as sent (R67)", response=out.SchemesOut, status=201, body=SchemeBody,
       tag="jackpots")
def start_scheme() -> Response:
    b = body(SchemeBody)
    run(schemes.start, schemes.Terms(
        name=b.name, kind=b.kind, drop=b.drop, threshold=b.threshold, qualifying=b.qualifying,
        games=tuple(b.games), tables=tuple(b.tables), min_dealt=b.min_dealt, flop_required=b.flop_required,
        both_cards_play=b.both_cards_play, split=Split(*b.split) if b.kind == "bad_beat" else Split(),
        prize_bp=b.prize_bp, fee_bp=b.fee_bp, backup_bp=b.backup_bp, camera_threshold=b.camera_threshold,
        cheque_threshold=b.cheque_threshold, away_table_share=b.away_table_share,
        not_eligible=b.not_eligible))
    resp = _schemes()
    resp.status_code = 201
    return resp


@route("POST", f"/jackpots/schemes/<{ID}:scheme_id>/end", summary="End a scheme, its pool going to "
       "the running scheme named (R69)", response=out.SchemesOut, body=SchemeEnd, tag="jackpots")
def end_scheme(scheme_id: int) -> Response:
    b = body(SchemeEnd)
    run(schemes.end, scheme_id, b.successor_id, b.reason)
    return _schemes()


def _scheme_here(scheme_id: int) -> JackpotScheme:
    return get_in_room(db(), JackpotScheme, scheme_id, actor(), "jackpot scheme", "R69")


@route("GET", f"/jackpots/schemes/<{ID}:scheme_id>/pool", summary="A scheme's pool ledger (newest "
       "first) and a gaming day's reconciliation (?day=; omitted: today's) (R69)", response=out.PoolOut,
       query=DayQuery, tag="jackpots")
def jackpot_pool(scheme_id: int) -> Response:
    actor().require("floor")
    scheme = _scheme_here(scheme_id)
    raw = query(DayQuery, "R69").day
    room = db().get_one(Room, scheme.room_id)
    day = parse_day(raw) if raw else day_of(now(), room.timezone, room.gaming_day_start)
    held = pools.amounts(db(), [scheme.id])[scheme.id]
    return answer(out.PoolOut, {"scheme_id": scheme.id, "pool": held.main, "backup": held.backup,
                                "day": reads.day_pool(db(), scheme.id, day),
                                "rows": reads.ledger(db(), scheme.id)})


@route("POST", f"/jackpots/schemes/<{ID}:scheme_id>/seed", summary="Put money into a pool: the "
       "house's seed or the backup pool's (R69)", response=out.RowsOut, status=201, body=SeedBody,
       tag="jackpots")
def seed_pool(scheme_id: int) -> Response:
    b = body(SeedBody)
    rows = run(pools.seed, scheme_id, b.amount, from_backup=b.from_backup, reason=b.reason)
    return answer(out.RowsOut, {"rows": rows}, 201)


def _second(approval: Approval, rule: str) -> Staff:
    return throttle.approver(actor().room_id, approval.username, approval.password, rule)


@route("POST", f"/jackpots/schemes/<{ID}:scheme_id>/adjustments", summary="Adjust a pool up or "
       "down, with the reason and a second staff member's username and password (R69)",
       response=out.RowsOut, status=201, body=AdjustmentBody, tag="jackpots", refusals=APPROVALS)
def adjust_pool(scheme_id: int) -> Response:
    b = body(AdjustmentBody)
    row = run(pools.adjust, scheme_id, b.pool, b.amount, b.reason, _second(b.confirmation, "R69"))
    return answer(out.RowsOut, {"rows": [row]}, 201)


@route("POST", f"/jackpots/rows/<{ID}:row_id>/reversal", summary="Reverse a pool row (a drop whole, "
       "its backup share and fee with it), with the reason (R52, R69)", response=out.RowsOut,
       status=201, body=ReversalBody, tag="jackpots")
def reverse_pool_row(row_id: int) -> Response:
    rows = run(pools.reverse, row_id, body(ReversalBody).reason)
    return answer(out.RowsOut, {"rows": rows}, 201)


@route("POST", f"/tables/<{ID}:table_id>/hands/<{ID}:hand_no>/jackpot-drop", summary="Record the "
       "jackpot drop of a hand, after its rake: the table's scheme's drop from a qualifying pot, 0 "
       "from one that does not; anything else is refused naming the rule (R68)", response=out.DropOut,
       status=201, body=JackpotDropBody, tag="jackpots")
def record_jackpot_drop(table_id: int, hand_no: int) -> Response:
    b = body(JackpotDropBody)
    taken = run(record_drop, table_id, hand_no, pot=b.pot, flop=b.flop, drop=b.drop, players=b.players)
    return answer(out.DropOut, {"scheme_id": taken.scheme.id, "amount": taken.amount, "rows": taken.rows},
                  201)


def _claim(claim_id: int) -> dict[str, object]:
    v = reads.claim_view(db(), claim_id)
    c = v.claim
    return {**{f: getattr(c, f) for f in out.ClaimOut.model_fields if hasattr(c, f)},
            "decision": v.decision, "payouts": v.payouts}


@route("POST", f"/tables/<{ID}:table_id>/hands/<{ID}:hand_no>/jackpot-claims", summary="Claim the "
       "table's jackpot for a hand: the qualifying hands' seats and cards; the players at the table "
       "are recorded with it (R70)", response=out.ClaimOut, status=201, body=ClaimBody, tag="jackpots")
def make_jackpot_claim(table_id: int, hand_no: int) -> Response:
    b = body(ClaimBody)
    claim = run(claims.make, table_id, hand_no, winning_seat=b.winning_seat, winning_cards=b.winning_cards,
                losing_seat=b.losing_seat, losing_cards=b.losing_cards)
    return answer(out.ClaimOut, _claim(claim.id), 201)


@route("GET", "/jackpots/claims", summary="The claims waiting to be verified, and the latest decided "
       "(R70)", response=out.ClaimsOut, tag="jackpots")
def jackpot_claims() -> Response:
    actor().require("floor")
    room_id = actor().room_id
    return answer(out.ClaimsOut, {"waiting": [_claim(v.claim.id) for v in reads.waiting(db(), room_id)],
                                  "recent": [_claim(v.claim.id) for v in reads.recent(db(), room_id)]})


@route("POST", f"/jackpots/claims/<{ID}:claim_id>/payout", summary="Verify a claim with a second "
       "staff member and pay it (and the claims at once with it), share by share (R70)",
       response=out.PaidOut, status=201, body=PayoutBody, tag="jackpots", refusals=APPROVALS)
def pay_jackpot_claim(claim_id: int) -> Response:
    b = body(PayoutBody)
    paid = run(claims.pay, claim_id, _second(b.confirmation, "R70"), paid_in=b.paid_in,
               camera_ref=b.camera_ref)
    return answer(out.PaidOut, {"prize": paid.prize,
                                "claims": [_claim(d.claim_id) for d in paid.decisions]}, 201)


@route("POST", f"/jackpots/claims/<{ID}:claim_id>/refusal", summary="Refuse a claim with a second "
       "staff member, with the reason; the pool stays as it was (R70)", response=out.ClaimOut,
       status=201, body=RefusalBody, tag="jackpots", refusals=APPROVALS)
def refuse_jackpot_claim(claim_id: int) -> Response:
    b = body(RefusalBody)
    run(claims.refuse, claim_id, _second(b.confirmation, "R70"), b.reason)
    return answer(out.ClaimOut, _claim(claim_id), 201)


@route("POST", f"/jackpots/box/days/<{DAY}:gaming_day>", summary="Count a shift's jackpot drop box "
       "(?shift=N; omitted: the day's only shift) with a second person, against the drops recorded "
       "(R54, R68)", response=out.BoxCountOut, status=201, body=BoxCountBody, query=ShiftQuery,
       tag="jackpots", refusals=APPROVALS)
def count_jackpot_box(gaming_day: str) -> Response:
    day, shift = parse_day(gaming_day), query(ShiftQuery, "R54").shift
    b = body(BoxCountBody)
    row = run(boxes.count_box, day, shift, b.counted, _second(b.confirmation, "R54"), b.explanation)
    return answer(out.BoxCountOut, row, 201)

