"""The jackpots page (R67-R70): the room's schemes with their pools as posted, the form that starts
one, a pool's ledger and its gaming days, the claims waiting to be verified and paid (with a
second staff member, who types their username and password as an approval at the cage), and each
prize's printable record. The supervisor's rights open it (``roomops.web.access``: the floor to
read, policy to set schemes up, authorise for money out); the services check them again."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from werkzeug.wrappers import Response

from roomops.actors import get_in_room
from roomops.auth import throttle
from roomops.desk.forms import to_bp, to_minor
from roomops.errors import Invalid
from roomops.games.models import Game
from roomops.jackpots import claims, reads, schemes
from roomops.jackpots import pool as pools
from roomops.jackpots.models import JackpotClaim, JackpotScheme
from roomops.jackpots.rules import PaidIn, Pool
from roomops.jackpots.shares import Split
from roomops.jackpots.terms import hands
from roomops.ledger.closing import parse_day
from roomops.rooms.gaming_day import gaming_day
from roomops.rooms.models import Room, Staff
from roomops.web.money import room_money
from roomops.web.routing import parse_id
from roomops.web.uow import actor, db, now, run

bp = Blueprint("jackpots", __name__)


@bp.get("/desk/jackpots")
def index() -> str:
    session = db()
    room = session.get_one(Room, current_user.room_id)
    games = list(session.scalars(select(Game).where(Game.room_id == room.id, Game.status == "open")
                                 .order_by(Game.variant, Game.id)))
    shown = reads.posted(session, room.id)
    ids = {g for p in shown for g in p.game_ids}
    runs_at = {g.id: g for g in session.scalars(select(Game).where(Game.id.in_(ids)))} if ids else {}
    return render_template("desk/jackpots.html", room=room, posted=shown, runs_at=runs_at,
                           waiting=reads.waiting(session, room.id), recent=reads.recent(session, room.id),
                           games=games, qualifying=hands(), posting=reads.posting)


@bp.get("/desk/jackpots/schemes/<int:scheme_id>")
def scheme(scheme_id: int) -> str:
    """R69: a scheme's pool ledger, newest first, and its gaming day's reconciliation."""
    session = db()
    room = session.get_one(Room, current_user.room_id)
    found = get_in_room(session, JackpotScheme, scheme_id, actor(), "jackpot scheme", "R69")
    day = gaming_day(now(), room.timezone, room.gaming_day_start)
    raw = request.args.get("day", "")
    if raw:
        day = parse_day(raw)
    return render_template("desk/jackpot_scheme.html", room=room, scheme=found,
                           pools=pools.amounts(session, [found.id])[found.id],
                           rows=reads.ledger(session, found.id), day=reads.day_pool(session, found.id, day),
                           previous=day - timedelta(days=1), following=day + timedelta(days=1),
                           others=[p.scheme for p in reads.posted(session, room.id)
                                   if p.scheme.id != found.id])


@bp.get("/desk/jackpots/claims/<int:claim_id>")
def prize(claim_id: int) -> str:
    """R70: the printable record of a claim and its prize."""
    session = db()
    get_in_room(session, JackpotClaim, claim_id, actor(), "jackpot claim", "R70")
    return render_template("desk/jackpot_prize.html", room=session.get_one(Room, current_user.room_id),
                           v=reads.claim_view(session, claim_id))


@bp.post("/desk/jackpots/schemes")
def start() -> Response:
    found = run(schemes.start, _terms())
    flash(f"{found.name} started: its rules are posted on the board and at its tables.", "ok")
    return _back()


@bp.post("/desk/jackpots/schemes/<int:scheme_id>/seed")
def seed(scheme_id: int) -> Response:
    amount = to_minor(request.form.get("amount", ""), rule="R69")
    run(pools.seed, scheme_id, amount, reason=request.form.get("reason"))
    flash(f"Seed of {room_money()(amount)} put into the pool.", "ok")
    return _back(scheme_id)


@bp.post("/desk/jackpots/schemes/<int:scheme_id>/adjust")
def adjust(scheme_id: int) -> Response:
    """R69: an adjustment up or down (``direction``), with the reason and a second person."""
    amount = to_minor(request.form.get("amount", ""), rule="R69")
    signed = -amount if request.form.get("direction") == "down" else amount
    pool: Pool = "backup" if request.form.get("pool") == "backup" else "main"
    second = _second("R69")
    run(pools.adjust, scheme_id, pool, signed, request.form.get("reason", ""), second)
    flash(f"Adjustment of {room_money()(signed)} recorded, confirmed by {second.display_name}.", "ok")
    return _back(scheme_id)


@bp.post("/desk/jackpots/rows/<int:row_id>/reverse")
def reverse(row_id: int) -> Response:
    rows = run(pools.reverse, row_id, request.form.get("reason", ""))
    flash(f"Pool row {row_id} reversed.", "ok")
    return _back(rows[0].scheme_id)


@bp.post("/desk/jackpots/schemes/<int:scheme_id>/end")
def end(scheme_id: int) -> Response:
    raw = request.form.get("successor_id", "").strip()
    successor = parse_id(raw) if raw else None
    if raw and successor is None:
        raise Invalid("name the scheme the pool goes to", "R69")
    run(schemes.end, scheme_id, successor, request.form.get("reason"))
    flash("The scheme has ended.", "ok")
    return _back()


@bp.post("/desk/jackpots/claims/<int:claim_id>/pay")
def pay(claim_id: int) -> Response:
    """R70: verified with a second person and paid; the prize record opens."""
    second = _second("R70")
    paid_in: PaidIn = "chips" if request.form.get("paid_in") == "chips" else "cash"
    paid = run(claims.pay, claim_id, second, paid_in=paid_in, camera_ref=request.form.get("camera_ref"))
    flash(f"Prize of {room_money()(paid.prize)} paid, verified with {second.display_name}.", "ok")
    return redirect(url_for("jackpots.prize", claim_id=claim_id), code=303)


@bp.post("/desk/jackpots/claims/<int:claim_id>/refuse")
def refuse(claim_id: int) -> Response:
    second = _second("R70")
    run(claims.refuse, claim_id, second, request.form.get("reason", ""))
    flash("The claim is refused; the pool stays as it was.", "ok")
    return _back()


def _second(rule: str) -> Staff:
    name = request.form.get("second", "").strip()
    if not name:
        raise Invalid("the second staff member types their username and password", rule)
    return throttle.approver(current_user.room_id, name, request.form.get("second_password", ""), rule)


def _back(scheme_id: int | None = None) -> Response:
    target = (url_for("jackpots.scheme", scheme_id=scheme_id) if scheme_id is not None
              else url_for("jackpots.index"))
    return redirect(target, code=303)


def _terms() -> schemes.Terms:
    """R67: the scheme's form, amounts in the room's currency and parts in percent."""
    form = request.form
    kind = form.get("kind", "bad_beat")
    cheque = form.get("cheque_threshold", "").strip()
    tables = tuple(t.strip() for t in form.get("tables", "").replace(";", ",").split(",") if t.strip())
    games = tuple(g for raw in form.getlist("game_id") if (g := parse_id(raw)) is not None)
    return schemes.Terms(
        name=form.get("name", ""), kind="high_hand" if kind == "high_hand" else "bad_beat",
        drop=to_minor(form.get("drop", ""), "the drop", "R68"),
        threshold=to_minor(form.get("threshold", "") or "0", "the pot a drop is taken from", "R68"),
        qualifying=form.get("qualifying", ""), games=games, tables=tables,
        min_dealt=_whole(form.get("min_dealt", "4"), "players dealt in"),
        flop_required=bool(form.get("flop_required")), both_cards_play=bool(form.get("both_cards_play")),
        split=Split(to_bp(form.get("losing", "50"), "the losing hand's share"),
                    to_bp(form.get("winning", "25"), "the winning hand's share"),
                    to_bp(form.get("table", "25"), "the table's share")) if kind == "bad_beat" else Split(),
        prize_bp=to_bp(form.get("prize", "100"), "the prize"), fee_bp=to_bp(form.get("fee", "0"), "the fee"),
        backup_bp=to_bp(form.get("backup", "0"), "the backup pool's share"),
        camera_threshold=to_minor(form.get("camera_threshold", "") or "500", "the camera threshold", "R70"),
        cheque_threshold=to_minor(cheque, "the cheque threshold", "R70") if cheque else None,
        away_table_share=bool(form.get("away_table_share")),
        not_eligible=form.get("not_eligible", schemes.NOT_ELIGIBLE))


def _whole(raw: str, field: str) -> int:
    try:
        return int(raw.strip())
    except ValueError:
        raise Invalid(f"{field}: a whole number is needed", "R68") from None
