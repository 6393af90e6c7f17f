"""The dealer's table screen (R33-R36, R40): a tablet at the table, one tap per hand; the chips in
transit to its seats, confirmed delivered from here (R31, R61), its played-over seats (R29) and
called seats (R20, R22), and whose down it is (R63). The live part polls ``/dealer/tables/<id>/live``
(``roomops.web.live``). The table picker shows the dealer their own state and next steps, with
their check in / check out (R62, R64)."""

from __future__ import annotations

from typing import Any
from uuid import uuid4

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.actors import get_in_room
from roomops.blinds.straddles import straddle_order
from roomops.board.names import public_name
from roomops.dealers import roster
from roomops.dealers.pushes import room_plan
from roomops.dealers.reads import states
from roomops.dealers.screen import down_at, upcoming
from roomops.desk.forms import to_minor
from roomops.errors import Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games.models import Game, Table
from roomops.hands import services as hands
from roomops.hands.models import Hand
from roomops.jackpots import claims
from roomops.jackpots import drops as jackpot_drops
from roomops.jackpots import reads as jackpot_reads
from roomops.jackpots.schemes import scheme_of_table
from roomops.ledger import drops, transit
from roomops.ledger import rake as rakes
from roomops.ledger.hand_rows import hand_at
from roomops.playovers.services import played_over_at
from roomops.rooms.models import Player, Room
from roomops.rooms.roles import roles_in
from roomops.schemas.ledger import Drop, Rake, RakeDown
from roomops.seating.queries import called_at
from roomops.web.live import POLL_SECONDS, fragment, screen_tag, stamp
from roomops.web.money import room_money
from roomops.web.uow import actor, db, now, run

bp = Blueprint("dealer", __name__)


@bp.get("/dealer")
def index() -> str:
    """The room's open tables, to pick the one this tablet sits at."""
    session = db()
    rows = list(session.execute(select(Table, Game).join(Game, Game.id == Table.game_id).where(
        Table.room_id == current_user.room_id, Table.status == "open").order_by(Table.name)))
    room = session.get_one(Room, current_user.room_id)
    return render_template("dealer/index.html", tables=rows, room=room,
                           names={t.id: t.name for t, _game in rows}, **_my_shift(session, room))


def _my_shift(session: Session, room: Room) -> dict[str, Any]:
    """R62/R64: the dealer's own state and, where the room runs its rotation, their next steps."""
    if "dealer" not in roles_in(session, current_user.id, room.id):
        return {"me": None, "steps": []}
    at = now()
    [me] = states(session, room.id, [current_user.id])
    if not room.dealer_rotation or me.state == "out":
        return {"me": me, "steps": []}
    plan, _running = room_plan(session, room, at)
    return {"me": me, "steps": upcoming(plan, me.dealer_id, me.until or at)}


@bp.post("/dealer/check-in")
def check_in() -> Response:
    """R62: the dealer checks themselves in; the rotation may send them to a table at once."""
    run(roster.check_in)
    flash("You are checked in.", "ok")
    return redirect(url_for("dealer.index"), code=303)


@bp.post("/dealer/check-out")
def check_out() -> Response:
    run(roster.check_out)
    flash("You are checked out.", "ok")
    return redirect(url_for("dealer.index"), code=303)


@bp.get("/dealer/tables/<int:table_id>")
def table(table_id: int) -> Response:
    session, at = db(), now()
    tag = _tag(session, table_id)  # before the reads: a change made meanwhile moves the next poll's
    live = _live(session, table_id)
    page = render_template("dealer/table.html", **live, rake_key=uuid4().hex, poll=POLL_SECONDS,
                           live_url=url_for("dealer.live", table_id=table_id), etag=tag,
                           server_now=int(at.timestamp() * 1000), **_down(live["game"], table_id),
                           drop=_drop(live["game"], table_id, live["last"]),
                           **_jackpot(live["table"], live["last"]))
    return stamp(make_response(page), at)


@bp.get("/dealer/tables/<int:table_id>/live")
def live(table_id: int) -> Response:
    """The screen's live part (seats, slips, playovers, called seats) for its poll: 304 while
    nothing of the room has changed."""
    session = db()
    return fragment(_tag(session, table_id), now(),
                    lambda: render_template("dealer/_live.html", **_live(session, table_id)))


@bp.post("/dealer/tables/<int:table_id>/transits/<int:slip_id>/deliver")
def deliver(table_id: int, slip_id: int) -> Response:
    """R31/R61: the dealer (or a runner) confirms chips in transit reached a seat of this table."""
    slip = run(transit.deliver, slip_id, at_table=table_id)
    flash(f"Slip {slip.number}: delivered.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


def _tag(session: Session, table_id: int) -> str:
    return screen_tag(f"dealer-{table_id}", session, current_user.room_id, current_user.id)


def _live(session: Session, table_id: int) -> dict[str, Any]:
    """What the screen's live part shows: the hand to deal and the seats (R33-R36), chips playing
    behind and the open slips (R31), played-over seats (R29) and called seats (R20, R22), with
    players named as the room shows names (R61)."""
    at, who = now(), actor()
    view = hands.preview(session, who, table_id)
    plan, seats = view.plan, view.seats
    tbl = session.get_one(Table, table_id)
    ids = [s.player_id for s in seats if s.player_id]
    names = {p.id: p.full_name for p in session.scalars(select(Player).where(Player.id.in_(ids)))}
    waiting = {w.seat_no: w for w in plan.waiting} if plan else {}
    room = session.get_one(Room, tbl.room_id)
    policy = room.display_name
    return {"table": tbl, "game": session.get_one(Game, tbl.game_id), "last": view.last, "plan": plan,
            "seats": seats, "names": names, "waiting": waiting, "dealt_out": view.dealt_out,
            "straddlers": straddle_order(plan) if plan else (),
            "behind": transit.behind_at_table(session, table_id),
            "slips": transit.open_slips(session, who.room_id, at, table_id),
            "played_over": played_over_at(session, table_id),
            "called": called_at(session, table_id, at),
            "shown": lambda p: public_name(p.first_name, p.last_name, policy),
            "rotating": room.dealer_rotation, "split_raked": room.rake_split_pots,
            "down": down_at(session, table_id) if room.dealer_rotation else None,
            "at": at, "room_tz": room.timezone}


@bp.post("/dealer/tables/<int:table_id>/hands")
def record(table_id: int) -> Response:
    form = request.form
    hand = run(hands.record_hand, table_id, hand_no=_number(form.get("hand_no"), "hand_no"),
               posting=[_number(v, "posting") for v in form.getlist("posting")],
               straddles_in_turn=_number(form.get("straddles") or "0", "straddles"),
               high_card_seat=_number(form["high_card_seat"], "high_card_seat")
               if form.get("high_card_seat") else None,
               floor_consent=bool(form.get("floor_consent")), sanctioned=bool(form.get("sanctioned")))
    flash(f"Hand {hand.hand_no}: button {hand.button}, small blind {hand.small_blind_seat}, "
          f"big blind {hand.big_blind_seat}.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


@bp.post("/dealer/tables/<int:table_id>/rake")
def rake(table_id: int) -> Response:
    """R51: the rake of the last hand (pot and rake typed in major units); a form sent twice
    records once (its idempotency key, R52)."""
    form = request.form
    b = Rake.model_validate({"pot": to_minor(form.get("pot", ""), "pot", "R51"),
                             "flop": bool(form.get("flop")),
                             "rake": to_minor(form.get("rake", ""), "rake", "R51"),
                             "split_seats": [_number(s, "split_seats", "R51")
                                             for s in form.getlist("split_seats")],
                             "idempotency_key": form.get("idempotency_key") or None})
    hand_no = _number(form.get("hand_no"), "hand_no")
    dropped = bool(form.get("jackpot_drop")) if form.get("jackpot_scheme") else None
    shares, taken = run(rake_and_drop, table_id, hand_no, pot=b.pot, flop=b.flop, rake=b.rake,
                        split=b.split_seats, dropped=dropped, key=b.idempotency_key)
    flash(f"Rake of hand {hand_no} recorded{_drop_words(taken)}.{_split_words(shares)}", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


def rake_and_drop(unit: UnitOfWork, table_id: int, hand_no: int, *, pot: int, flop: bool, rake: int,
                  split: list[int], dropped: bool | None,
                  key: str | None) -> tuple[dict[int, int], jackpot_drops.DropTaken | None]:
    """R51 then R68: the hand's rake and, where the form offered it (``dropped`` not None), its
    jackpot drop (the scheme's, or none when the dealer took none), in one transaction: all or
    nothing. Returns a split pot's shares by seat, and the drop."""
    rakes.record_rake(unit, table_id, hand_no, pot=pot, flop=flop, rake=rake, split=split, key=key)
    table = get_in_room(unit.session, Table, table_id, unit.actor, "table")
    shares = rakes.split_shares(unit.session, hand_at(unit.session, table, hand_no),
                                unit.session.get_one(Game, table.game_id),
                                split, pot - rake)
    if dropped is None:
        return shares, None
    return shares, _jackpot_drop(unit, table_id, hand_no, pot, flop, dropped)


def _split_words(shares: dict[int, int]) -> str:
    """R51: a split pot's shares, for the dealer to push (the odd chips clockwise from the button)."""
    money = room_money()
    return "".join([" Split pot: ", ", ".join(f"seat {seat} {money(amount)}"
                                              for seat, amount in shares.items()), "."]) if shares else ""


def _jackpot_drop(unit: UnitOfWork, table_id: int, hand_no: int, pot: int, flop: bool,
                  dropped: bool) -> jackpot_drops.DropTaken:
    scheme = scheme_of_table(unit.session, get_in_room(unit.session, Table, table_id, unit.actor, "table"))
    drop = scheme.drop_amount if scheme is not None and dropped else 0
    return jackpot_drops.record_drop(unit, table_id, hand_no, pot=pot, flop=flop, drop=drop)


def _drop_words(taken: jackpot_drops.DropTaken | None) -> str:
    if taken is None:
        return ""
    return (f", and the jackpot drop of {room_money()(taken.amount)}" if taken.amount
            else ", no jackpot drop")


@bp.post("/dealer/tables/<int:table_id>/jackpot-drop")
def jackpot_drop(table_id: int) -> Response:
    """R68: the jackpot drop of the last hand where the rake is not recorded hand by hand: the
    pot (major units) and whether there was a flop, and whether the drop was taken."""
    form = request.form
    hand_no = _number(form.get("hand_no"), "hand_no", "R68")
    pot = to_minor(form.get("pot", ""), "pot", "R68")
    taken = run(_jackpot_drop, table_id, hand_no, pot, bool(form.get("flop")), bool(form.get("jackpot_drop")))
    flash(f"Hand {hand_no}: {_drop_words(taken)[2:]}.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


@bp.post("/dealer/tables/<int:table_id>/jackpot-claims")
def jackpot_claim(table_id: int) -> Response:
    """R70: the claim of the last hand; a supervisor verifies it with a second staff member."""
    form = request.form
    losing = form.get("losing_seat", "").strip()
    claim = run(claims.make, table_id, _number(form.get("hand_no"), "hand_no", "R70"),
                winning_seat=_number(form.get("winning_seat"), "the winning hand's seat", "R70"),
                winning_cards=form.get("winning_cards", ""),
                losing_seat=_number(losing, "the losing hand's seat", "R70") if losing else None,
                losing_cards=form.get("losing_cards") or None)
    flash(f"Jackpot claimed for hand {claim.hand_no}: a supervisor comes to verify it.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


@bp.post("/dealer/tables/<int:table_id>/downs")
def down(table_id: int) -> Response:
    """R51: the total rake of the dealer's down (hands first..last, rake in major units), for the
    dealer picked (a dealer: themselves); a form sent twice records once (R52)."""
    form = request.form
    b = RakeDown.model_validate({
        "first_hand_no": _number(form.get("first_hand_no"), "first_hand_no", "R51"),
        "last_hand_no": _number(form.get("last_hand_no"), "last_hand_no", "R51"),
        "rake": to_minor(form.get("rake", ""), "rake", "R51"),
        "dealer_id": _number(form["dealer_id"], "dealer_id", "R51") if form.get("dealer_id") else None,
        "idempotency_key": form.get("idempotency_key") or None})
    run(rakes.record_down, table_id, first_hand_no=b.first_hand_no, last_hand_no=b.last_hand_no,
        rake=b.rake, dealer_id=b.dealer_id, key=b.idempotency_key)
    flash(f"Rake of the down, hands {b.first_hand_no} to {b.last_hand_no}: {room_money()(b.rake)} "
          "recorded.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


@bp.post("/dealer/tables/<int:table_id>/drop")
def drop(table_id: int) -> Response:
    """R50: the drop of the last hand, one tap: the amount shown (major units) must be the game's
    drop for the players dealt in; a form sent twice records once (R52)."""
    form = request.form
    b = Drop.model_validate({
        "players": _number(form["players"], "players", "R50") if form.get("players") else None,
        "amount": to_minor(form["amount"], "amount", "R50") if form.get("amount") else None,
        "idempotency_key": form.get("idempotency_key") or None})
    hand_no = _number(form.get("hand_no"), "hand_no", "R50")
    row = run(drops.record_drop, table_id, hand_no, players=b.players, amount=b.amount,
              key=b.idempotency_key)
    flash(f"Drop of hand {hand_no}: {room_money()(-row.amount)} taken.", "ok")
    return redirect(url_for("dealer.table", table_id=table_id), code=303)


def _drop(game: Game, table_id: int, last: Hand | None) -> drops.DropDue | None:
    """R50: for a drop game, the last hand's drop as the screen offers it."""
    if game.fee_kind != "drop" or last is None:
        return None
    return drops.drop_due(db(), actor(), table_id, last)


def _jackpot(table: Table, last: Hand | None) -> dict[str, Any]:
    """R67/R68: the table's scheme as posted (its pool and rules) and the last hand's drop."""
    session = db()
    shown = jackpot_reads.for_table(session, table, jackpot_reads.posted(session, table.room_id))
    return {"jackpot": jackpot_drops.offer(session, shown.scheme, last) if shown else None,
            "jackpot_posting": jackpot_reads.posting(shown) if shown else None}


DOWNS_SHOWN = 8  # the dealer screen's list of the table's last downs


def _down(game: Game, table_id: int) -> dict[str, Any]:
    """R51: for a raked game, the hand after the last one raked (per hand: the last hand's form
    gives way to "raked"); for one raked per dealer down also who may be named as its dealer (a
    dealer: only themselves) and the table's last downs."""
    if game.fee_kind != "rake":
        return {"down_from": None, "dealers": [], "downs": [], "tz": None}
    if game.rake_recorded != "per_down":
        return {"down_from": rakes.next_unraked(db(), table_id), "dealers": [], "downs": [], "tz": None}
    return {"down_from": rakes.next_unraked(db(), table_id),
            "dealers": rakes.dealers_for(db(), actor()),
            "downs": rakes.downs_at(db(), actor(), table_id, limit=DOWNS_SHOWN),
            "tz": db().get_one(Room, game.room_id).timezone}


def _number(raw: str | None, field: str, rule: str = "R33") -> int:
    try:
        return int((raw or "").strip())
    except ValueError:
        raise Invalid(f"{field}: a whole number is needed", rule) from None
