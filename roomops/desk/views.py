"""The supervisor's desk: the whole room on one screen and every floor action as a form.

Each POST validates its form with the request models of ``roomops.schemas`` (see
``roomops.desk.forms`` for how strings become ints, bools and minor units), calls one service
through ``roomops.web.uow.run`` (the request's one commit point) and says what happened: to
desk.js as JSON (it re-reads the live part), or as a flash on the desk again (303) when sent
without JavaScript or when the page outside the live part changed. Refusals are rendered by
``roomops.web.errors``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask_login import current_user
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.absences import expiry
from roomops.absences import services as absences
from roomops.absences.models import Absence
from roomops.actors import get_in_room
from roomops.audit.reads import query as audit_query
from roomops.desk import parts
from roomops.desk.forms import from_steps, money_input, parse, to_minor
from roomops.desk.players import typed_player, with_player_ids
from roomops.desk.shared import KEY as DRAWINGS
from roomops.desk.shared import Drawing, Drawings
from roomops.errors import Invalid
from roomops.floor.unit import UnitOfWork
from roomops.games import services as games
from roomops.games.marks import Mark, change_mark
from roomops.games.models import Game, Table
from roomops.heartbeat.rules import SweepState
from roomops.holds.models import SeatHold
from roomops.holds.refusals import who_is
from roomops.ledger.rules import METHODS, method_name
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.messages.rules import desk_label
from roomops.playovers.rules import PLAYING_OVER
from roomops.playovers.services import told_to_leave
from roomops.rooms import services as rooms
from roomops.rooms.languages import NAMES
from roomops.rooms.models import Player, Room
from roomops.rooms.twins import LikelyTwin
from roomops.runtime import ext
from roomops.schemas import (
    AbsenceNote,
    BarPair,
    Claim,
    ComeBack,
    Decline,
    GameChange,
    GameConditions,
    GrantBreak,
    Leave,
    LockUp,
    MarkAway,
    NewPlayer,
    OfferSeat,
    OpenTable,
    Policy,
    RemoveEntry,
    ReorderEntry,
    SeatPlayer,
)
from roomops.seating import closing, offers, returns, seats, snapshot
from roomops.seating.snapshot import RoomSnapshot
from roomops.seating.suggest import apart_of
from roomops.web.compression import encode_once, encoded_response
from roomops.web.errors import wants_json
from roomops.web.health import room_sweep_state
from roomops.web.live import tag
from roomops.web.money import room_money
from roomops.web.routing import parse_id
from roomops.web.uow import actor, db, now, run

bp = Blueprint("desk", __name__)

POLL_SECONDS = 3
HTML = "text/html"
NO_TOKEN = 'name="csrf_token" value=""'  # a form's token in the shared drawing
SHOWN = "X-Desk-Shows"  # the keys of the games a desk shows: it is sent the others only
RECENT_PLAYERS = 500

# R20: an offer's text as the desk reads it beside the offer ("text sent", "text failed: ...")
bp.add_app_template_global(desk_label, "text_label")


@bp.record_once
def _told(state: BlueprintSetupState) -> None:
    """After each commit the desk's parts are told what it touched (``roomops.desk.parts``), in
    the app's drawings of the moment (a test renews them)."""
    app = cast(Flask, state.app)  # Flask's own blueprints are set up on a Flask
    ext(app).told.append(lambda committed: app.extensions[DRAWINGS].parts.touched(committed))


@bp.app_template_global("has_endpoint")
def _has_endpoint(name: str) -> bool:
    return name in current_app.view_functions


@bp.app_template_global("can")
def _can(right: str) -> bool:
    return bool(current_user.is_authenticated and current_user.can(right))


@bp.app_template_global("local")
def local(when: datetime | None, tz: str, fmt: str = "%H:%M") -> str:
    """A time on the room's clock, for every screen's templates."""
    if when is None:
        return ""
    return when.astimezone(ZoneInfo(tz)).strftime(fmt)


def _done(message: str, **more: object) -> Response:
    """A done action. desk.js (asking for JSON) shows the message and re-reads the live part, the
    shared drawing, instead of loading the whole page again (~1.5 s a click in a 250-table room);
    when the games, tables or policy changed, it draws the page's forms again too (``forms``).
    ``more``: what else desk.js puts in the page (a new player among the suggestions). A form
    sent without JavaScript gets the desk again, with the message."""
    if wants_json():
        return jsonify(done=message, **more)
    flash(message, "ok")
    return redirect(url_for("desk.index"), code=303)


def _room(session: Session) -> Room:
    return session.get_one(Room, current_user.room_id)


def _recent_players(session: Session) -> list[Player]:
    stmt = select(Player).where(Player.room_id == current_user.room_id)
    return list(session.scalars(stmt.order_by(Player.id.desc()).limit(RECENT_PLAYERS)))


def _etag(mark: Mark, sweep: SweepState) -> str:
    """The room's change mark (its desk marks move with how its texts went, R20, sent and
    delivered outside the audit trail), who looks and whether the sweep is late: the fragment is
    drawn again when the sweep goes late, not every second it stays late (desk.js counts)."""
    return tag(f"desk-{current_user.room_id}", mark, ".".join(sorted(current_user.rights)),
               "late" if sweep.stale else "")


def _stamp(resp: Response, snap_now: datetime) -> Response:
    resp.headers["X-Server-Now"] = str(int(snap_now.timestamp() * 1000))
    return resp


# ---- reading -------------------------------------------------------------------------------


@bp.get("/desk")
def index() -> Response:
    """The desk's page; its live part is the drawing the room's desks share (``fragment``), with
    this viewer's CSRF token put in its forms (they post without JavaScript too)."""
    session, at = db(), now()
    mark = change_mark(session, current_user.room_id)
    snap = snapshot.layout(session, current_user.room_id, at)  # what its forms name (``forms``)
    sweep = room_sweep_state(session, at, current_user.room_id)
    etag = _etag(mark, sweep)
    drawn = _drawings().get(_drawing_key(), etag, at, lambda: _drawing(session, mark, at, sweep, etag))
    token = f'name="csrf_token" value="{escape(generate_csrf())}"'
    live = Markup(drawn.whole().decode().replace(NO_TOKEN, token))  # the drawing's own escaping
    page = render_template("desk/index.html", snap=snap, poll=POLL_SECONDS, live=live, etag=etag,
                           **_forms_context(session))
    return _stamp(make_response(page), at)


@bp.get("/desk/forms")
def forms() -> Response:
    """The page's forms around the live part (the panel, the action dialog), for desk.js when a
    re-read shows that the games, tables or the room's policy changed (``data-shape``): swapped
    in, where the whole page (3.5 MB in a 250-table room) was loaded again."""
    session, at = db(), now()
    snap = snapshot.layout(session, current_user.room_id, at)
    page = render_template("desk/_forms.html", snap=snap, shape=_shape(snap), **_forms_context(session))
    return _stamp(make_response(page), at)


def _forms_context(session: Session) -> dict[str, Any]:
    """What the page's forms are drawn from besides the room's snapshot."""
    return {"players": _recent_players(session) if _can("floor") else [],
            "money_input": money_input, "from_steps": from_steps,
            "buy_in_methods": [(m, method_name(m)) for m in METHODS]}


@bp.get("/desk/fragment")
def fragment() -> Response:
    """The seats and lists, for the desk's poll: 304 while nothing it shows has changed.

    The room's change mark and the freshest sweep are read first, so an unchanged poll costs two
    indexed statements, not a snapshot; the time-derived states (an
    offer past its deadline, how long the sweep has been late) are worked out by desk.js from
    X-Server-Now. A change is drawn once for every desk showing it, and a desk is sent only the
    games that differ from those it shows (``roomops.desk.shared``)."""
    session, at = db(), now()
    mark = change_mark(session, current_user.room_id)
    sweep = room_sweep_state(session, at, current_user.room_id)
    etag = _etag(mark, sweep)
    if request.if_none_match.contains_weak(etag):
        resp = make_response("", 304)
    else:
        drawn = _drawings().get(_drawing_key(), etag, at, lambda: _drawing(session, mark, at, sweep, etag))
        shown = frozenset(request.headers.get(SHOWN, "").split())
        resp = encoded_response(drawn.for_desk(shown, lambda body, kept: encode_once(body, HTML, kept)), HTML)
    resp.set_etag(etag)
    resp.vary.add(SHOWN)
    return _stamp(resp, at)


def _drawings() -> Drawings:
    found: Drawings = current_app.extensions[DRAWINGS]
    return found


def _drawing_key() -> tuple[int, frozenset[str]]:
    """Whose desks share a drawing: the room's, with the same rights (what the part offers)."""
    return current_user.room_id, current_user.rights


def _drawing(session: Session, mark: Mark, at: datetime, sweep: SweepState, etag: str) -> Drawing:
    """The desk's live part as every desk with these rights sees it, each game drawn again only
    where something it shows may have changed (``roomops.desk.parts``)."""
    drawings = _drawings()
    head, games = parts.draw(session, drawings.parts, drawings.rows, _drawing_key(),
                             room_id=current_user.room_id, version=mark.room, at=at, sweep=sweep,
                             floor=_can("floor"))
    return Drawing(etag, at, head=head, games=games)


def _shape(snap: RoomSnapshot) -> str:
    """The page's shape (``parts.shape``) as its forms are drawn from ``snap``'s games and tables."""
    return parts.shape([(gv.game, [(tv.table.id, tv.table.name) for tv in gv.tables])
                        for gv in snap.games], snap.room, snap.now)


@bp.get("/desk/players/<int:player_id>/return")
def return_requirement(player_id: int) -> Response:
    """R27 for the seat form: what the player must buy in for at ``game_id`` now, in the desk's
    units ({} when the normal range applies). The JSON API has the same in minor units."""
    session, who = db(), actor()
    get_in_room(session, Player, player_id, who, "player")
    raw = request.args.get("game_id", "")
    if (game_id := parse_id(raw)) is None:
        raise Invalid(f"game_id: {raw!r} is not a game", "R27")
    game = get_in_room(session, Game, game_id, who, "game")
    room = _room(session)
    required = returns.requirement(session, room, now(), player_id, game)
    if required is None:
        return jsonify({})
    return jsonify(minimum=money_input(required.minimum), maximum=money_input(required.maximum),
                   why=parts.why(required, room.timezone))


@bp.get("/desk/entries/<int:entry_id>")
def entry_history(entry_id: int) -> str:
    """R16/R13/R22: an entry's whole story from its audit rows, oldest first."""
    session = db()
    who = actor()
    entry = get_in_room(session, ListEntry, entry_id, who, "list entry")
    player = session.get_one(Player, entry.player_id)
    game = session.get_one(Game, entry.game_id)
    table = session.get(Table, entry.table_id) if entry.table_id else None
    rows = list(session.scalars(audit_query(who.room_id, entity=("list_entry", entry.id), limit=1000)))
    rows.reverse()
    tables = {t.id: t.name for t in session.scalars(select(Table).where(Table.room_id == who.room_id))}
    return render_template("desk/entry.html", entry=entry, player=player, game=game, table=table,
                           rows=rows, room=_room(session), describe=describe,
                           tables=tables)


MISSED = {"offer.expired": "expired", "offer.declined": "declined"}
# why an entry was passed over for a seat (``entry.passed_over``, R13-R18, R36)
PASSED_OVER = {"barred": "barred from a player there (R15)", "at_table": "already at that table (R14)",
               "short": "the move would leave their table short (R18)",
               "must_move": "a must-move player went first (R17)",
               "seat_change": "a seat change at that table went first (R36)",
               "reserve": "the table's reserve list was ahead (R11, R14)"}


def describe(action: str, detail: dict[str, Any], tables: dict[int, str]) -> str:
    """A supervisor's wording for one audit row of a list entry."""
    table = tables.get(detail.get("table_id") or 0, "?")
    if action == "entry.joined":
        where = f"table {table} reserve list" if detail.get("kind") == "reserve" else "waiting list"
        how = {"phone": "by phone", "remote": "from their phone (remote, R12)"}.get(
            detail.get("source") or "", "in person")
        return f"Joined the {where} {how}"
    if action == "offer.made":
        return f"Offered seat {detail.get('seat_no')} at table {table}"
    if action in MISSED and detail.get("policy") == PLAYING_OVER:
        return f"Call {MISSED[action]} while playing over a seat: keeps their place (R29)"
    if action in MISSED:
        then = ("sent to the bottom of the list" if detail.get("policy") == "bottom"
                else "removed from the list")
        return f"Missed call: offer {MISSED[action]}, {then}"
    if action == "entry.passed_over":
        why = PASSED_OVER.get(detail.get("because") or "", detail.get("because"))
        return f"Passed over for seat {detail.get('seat_no')} at table {table}: {why}"
    if action == "entry.reordered":
        return f"Moved from position {detail.get('from_position')} to {detail.get('to_position')}"
    return {
        "entry.checked_in": "Checked in at the desk",
        "entry.removed": "Removed from the list",
        "entry.no_show": "Dropped: did not check in (no-show)",
        "offer.claimed": "Claimed the seat",
        "entry.seated": "Seated",
        "entry.left": "Left the list from their phone (R16)",
    }.get(action, action)


# ---- games and tables (R4-R6) --------------------------------------------------------------


@bp.post("/desk/games")
def open_game() -> Response:
    body = parse(GameConditions, request.form)
    game = run(games.open_game, **body.model_dump())
    return _done(f"Opened {game.variant} {room_money().stakes(game.small_blind, game.big_blind)}.")


@bp.post("/desk/games/<int:game_id>/change")
def change_game(game_id: int) -> Response:
    """R6: only the conditions that differ from the game's current ones are sent to the service,
    so the audit row's before/after shows exactly what the supervisor changed."""
    body = parse(GameChange, request.form)
    game = get_in_room(db(), Game, game_id, actor(), "game")
    # an emptied schedule (R51) equals none: no change to audit
    changes = {k: v for k, v in body.model_dump(exclude_none=True).items()
               if getattr(game, k) != v and not (v == [] and not getattr(game, k))}
    if not changes:
        return _done("No condition was changed.")
    run(games.update_game, game_id, **changes)
    return _done(f"Changed {game.variant}: {', '.join(sorted(changes))} (R6, audited).")


@bp.post("/desk/games/<int:game_id>/close")
def close_game(game_id: int) -> Response:
    game = run(closing.close_game, game_id)
    return _done(f"Closed {game.variant}; its waiting list ended.")


@bp.post("/desk/tables")
def open_table() -> Response:
    body = parse(OpenTable, request.form)
    table = run(games.open_table, body.game_id, body.name)
    return _done(f"Opened table {table.name}; its seats are offered in list order.")


@bp.post("/desk/tables/<int:table_id>/close")
def close_table(table_id: int) -> Response:
    table = run(closing.close_table, table_id)
    return _done(f"Closed table {table.name}.")


# ---- players and lists (R10-R16) -----------------------------------------------------------


def _list_targets() -> tuple[list[int], list[int], str]:
    def ids(name: str) -> list[int]:
        out = []
        for raw in request.form.getlist(name):
            if raw.strip():
                if (row := parse_id(raw)) is None:
                    raise Invalid(f"{name}: {raw!r} is not an id", "R10")
                out.append(row)
        return out

    source = request.form.get("source", "in_person") or "in_person"
    if source not in ("in_person", "phone"):
        raise Invalid(f"source: {source!r} is not in_person or phone", "R12")
    return ids("game_id"), ids("table_id"), source


def join_many(unit: UnitOfWork, player_id: int, game_ids: list[int], table_ids: list[int],
              source: str) -> list[ListEntry]:
    """R10/R11/R12: one player onto several lists in one transaction: all or none."""
    entries = [lists.join(unit, player_id=player_id, game_id=g, source=source) for g in game_ids]
    entries += [lists.join(unit, player_id=player_id, table_id=t, source=source)
                for t in table_ids]
    return entries


def add_and_join(unit: UnitOfWork, body: NewPlayer, game_ids: list[int], table_ids: list[int],
                 source: str) -> tuple[Player, list[ListEntry]]:
    player = rooms.add_player(unit, **body.model_dump())
    return player, join_many(unit, player.id, game_ids, table_ids, source)


def _joined_message(player: Player, entries: list[ListEntry], source: str) -> str:
    if not entries:
        return f"Added {player.full_name}."
    how = " by phone (must check in, R12)" if source == "phone" else ""
    return f"Put {player.full_name} on {len(entries)} list{'s' if len(entries) > 1 else ''}{how}."


@bp.post("/desk/players")
def add_player() -> Response:
    body = parse(NewPlayer, request.form)
    game_ids, table_ids, source = _list_targets()
    try:
        player, entries = run(add_and_join, body, game_ids, table_ids, source)
    except LikelyTwin as err:
        return _did_you_mean(err, game_ids, table_ids, source)
    # desk.js adds the player to the page's suggestions itself: no reload for a new face
    return _done(_joined_message(player, entries, source),
                 player={"id": player.id, "name": player.full_name})


def _did_you_mean(err: LikelyTwin, game_ids: list[int], table_ids: list[int],
                  source: str) -> Response:
    """R10: the known players the one typed may be, each to put on the lists chosen instead, and
    the form as typed to add a new player anyway. Nothing was written."""
    db().rollback()
    typed = [(k, v) for k, v in request.form.items(multi=True)
             if k not in ("csrf_token", "create_anyway")]
    page = render_template("desk/twins.html", twins=err.twins, typed=typed, rule=err.rule,
                           lists={"game_id": game_ids, "table_id": table_ids}, source=source)
    return Response(page, status=409, mimetype="text/html")


@bp.post("/desk/join")
def join() -> Response:
    raw = typed_player(request.form.get("player_id", ""))
    if not raw:
        raise Invalid("player_id: type a player's name or pick one from the list", "R10")
    player_id = parse_id(raw)
    if player_id is None:
        raise Invalid(f"player_id: no player #{raw}", "R10")
    game_ids, table_ids, source = _list_targets()
    if not game_ids and not table_ids:
        raise Invalid("choose at least one list", "R10")
    entries = run(join_many, player_id, game_ids, table_ids, source)
    player = db().get_one(Player, player_id)
    return _done(_joined_message(player, entries, source))


@bp.post("/desk/entries/<int:entry_id>/checkin")
def check_in(entry_id: int) -> Response:
    entry = run(lists.check_in, entry_id)
    return _done(f"{_name(entry.player_id)} checked in.")


@bp.post("/desk/entries/<int:entry_id>/lockup")
def lock_up(entry_id: int) -> Response:
    """R13: the player steps away and keeps their place; a deposit typed is recorded."""
    entry = run(lists.lock_up, entry_id, parse(LockUp, request.form).deposit)
    return _done(f"{_name(entry.player_id)} is locked up: their place is kept until "
                 f"{local(entry.locked_until, _room(db()).timezone)} (R13).")


@bp.post("/desk/entries/<int:entry_id>/lockup/end")
def end_lockup(entry_id: int) -> Response:
    entry = run(lists.end_lockup, entry_id)
    return _done(f"{_name(entry.player_id)} is back: offered in their place again (R13).")


@bp.post("/desk/entries/<int:entry_id>/remove")
def remove(entry_id: int) -> Response:
    body = parse(RemoveEntry, request.form)
    entry = run(lists.remove, entry_id, body.reason)
    return _done(f"Removed {_name(entry.player_id)}: {body.reason}.")


@bp.post("/desk/entries/<int:entry_id>/reorder")
def reorder(entry_id: int) -> Response:
    body = parse(ReorderEntry, request.form)
    entry = run(lists.reorder, entry_id, body.position, body.reason)
    name = _name(entry.player_id)
    return _done(f"Moved {name} to position {body.position}: {body.reason}.")


@bp.post("/desk/barred")
def bar() -> Response:
    body = parse(BarPair, with_player_ids(request.form, "player_a", "player_b"))
    pair = run(rooms.bar_pair, body.player_a, body.player_b, body.reason)
    done = f"Barred {_name(body.player_a)} and {_name(body.player_b)} from playing together (R15)."
    session = db()
    for move in apart_of(session, snapshot.load(session, pair.room_id, now()),
                         frozenset((pair.player_low_id, pair.player_high_id))):
        done += (f" They sit at one table: {_name(move.player_id)}, who sat down last, should move"
                 " (see the game on the desk).")
    return _done(done)


# ---- seats (R14, R20-R22, R30) --------------------------------------------------------------


def _name(player_id: int) -> str:
    return db().get_one(Player, player_id).full_name


def _seat_name(hold: SeatHold) -> str:
    return f"seat {hold.seat_no} at table {db().get_one(Table, hold.table_id).name}"


@bp.get("/desk/tables/<int:table_id>/seats/<int:seat_no>/next")
def next_for_seat(table_id: int, seat_no: int) -> Response:
    """R14: whom the offer dialog's "the next" offers the seat to, by name: as the sweep would
    (a seat change at the table, R36, a must-move player, R17, or the lists); {} when nobody."""
    nxt = offers.next_at(db(), actor(), table_id, seat_no)
    return jsonify({} if nxt is None else {"name": who_is(db(), nxt)})


@bp.post("/desk/offers")
def offer() -> Response:
    body = parse(OfferSeat, request.form)
    hold = run(offers.offer_by_hand, **body.model_dump())
    name = _name(hold.player_id)
    return _done(f"Offered {_seat_name(hold)} to {name}; the claim timer is running.")


@bp.post("/desk/offers/<int:offer_id>/claim")
def claim(offer_id: int) -> Response:
    body = parse(Claim, request.form)
    hold = run(seats.claim, offer_id, body.buy_in, body.override_reason, body.buy_in_method,
               overplayer_stack=body.overplayer_stack)
    name = _name(hold.player_id)
    return _done(f"{name} took {_seat_name(hold)} with {room_money()(body.buy_in)}.")


@bp.post("/desk/offers/<int:offer_id>/decline")
def decline(offer_id: int) -> Response:
    hold = run(offers.decline, offer_id, parse(Decline, request.form).stack)
    name = _name(hold.player_id)
    return _done(f"{name} declined {_seat_name(hold)}: missed call; the seat goes to the next player.")


@bp.post("/desk/seat")
def seat() -> Response:
    body = parse(SeatPlayer, with_player_ids(request.form, "player_id"))
    hold = run(seats.seat_directly, **body.model_dump())
    name = _name(hold.player_id)
    return _done(f"Seated {name} in {_seat_name(hold)} with {room_money()(body.buy_in)}.")


@bp.post("/desk/seats/<int:hold_id>/leave")
def leave(hold_id: int) -> Response:
    body = parse(Leave, request.form)
    hold = run(seats.leave, hold_id, body.leave_amount)
    name = _name(hold.player_id)
    return _done(f"{name} left {_seat_name(hold)} with {room_money()(body.leave_amount)}.")


# ---- breaks and away (R23-R26) ----------------------------------------------------------------


def _absent(absence: Absence) -> tuple[str, str]:
    """The player's name and their seat, for the flash message."""
    hold = db().get_one(SeatHold, absence.hold_id)
    return _name(absence.player_id), _seat_name(hold)


@bp.post("/desk/seats/<int:hold_id>/break")
def grant_break(hold_id: int) -> Response:
    body = parse(GrantBreak, request.form)
    absence = run(absences.grant_break, hold_id, body.stack, body.override_reason)
    name, seat = _absent(absence)
    until = local(absence.deadline, _room(db()).timezone)
    over = ", granted over the break rules" if body.override_reason else ""
    return _done(f"{name} ({seat}) is on a break until {until}, stack {room_money()(body.stack)} "
                 f"(R23{over}).")


@bp.post("/desk/seats/<int:hold_id>/away")
def mark_away(hold_id: int) -> Response:
    absence = run(absences.mark_away, hold_id, parse(MarkAway, request.form).stack)
    name, seat = _absent(absence)
    return _done(f"{name} ({seat}) is away (R25).")


@bp.post("/desk/seats/<int:hold_id>/back")
def come_back(hold_id: int) -> Response:
    absence = run(absences.come_back, hold_id, parse(ComeBack, request.form).overplayer_stack)
    name, seat = _absent(absence)
    overplayer = told_to_leave(db(), absence.id)  # R29
    leaves = f" {overplayer.full_name} must leave at the end of the hand (R29)." if overplayer else ""
    return _done(f"{name} is back in {seat}.{leaves}")


@bp.post("/desk/seats/<int:hold_id>/missed-bb")
def missed_big_blind(hold_id: int) -> Response:
    absence = run(expiry.record_missed_big_blind, hold_id)
    name, seat = _absent(absence)
    if absence.outcome == "released":
        return _done(f"{name} missed {absence.missed_bb} big blinds: {seat} is picked up and offered "
                     "on; the player is at the bottom of the waiting list (R26).")
    return _done(f"{name} ({seat}) has missed {absence.missed_bb} big blind"
                 f"{'' if absence.missed_bb == 1 else 's'} (R26).")


@bp.post("/desk/seats/<int:hold_id>/note")
def absence_note(hold_id: int) -> Response:
    body = parse(AbsenceNote, request.form)
    absence = run(absences.record_note, hold_id, body.note)
    name, _seat = _absent(absence)
    return _done(f"Noted where {name} is: {body.note} (R25).")


# ---- policy (R3) ---------------------------------------------------------------------------


POLICY_FIELDS = ("timezone", "display_name", "claim_minutes", "seat_change_claim_minutes",
                 "on_claim_expiry", "checkin_minutes",
                 "auto_offer", "placement", "return_window", "return_window_minutes", "gaming_day_start",
                 "break_minutes", "break_after_play_minutes", "breaks_per_gaming_day",
                 "max_breaks_per_table", "away_notify_minutes", "max_away_minutes", "max_missed_bb",
                 "playover_needs_consent", "no_playover_max_minutes", "new_player_posting",
                 "must_move_refusal", "shifts", "call_ins", "break_expiry", "must_move_when",
                 "return_tolerance", "lockup_minutes", "remote_entries", "remote_entry_cap", "language",
                 "post_behind_button", "dealer_rotation", "down_minutes", "downs_before_break",
                 "dealer_break_minutes", "start_at", "toke_pool", "time_collection",
                 "time_new_player_minutes", "time_all_pay_waiting", "time_decline_until_bb",
                 "rake_split_pots")


def _tolerance(raw: str) -> dict[str, Any]:
    """R27: the return tolerance typed as an amount ("50", "50.00") or a percent ("10%");
    empty is none."""
    text = raw.strip()
    if text.endswith("%"):
        number = text[:-1].strip()
        if not number.isdigit():
            raise Invalid("return tolerance: a whole percent, e.g. 10%", "R27")
        return {"return_tolerance_unit": "percent", "return_tolerance": int(number)}
    return {"return_tolerance_unit": "amount",
            "return_tolerance": to_minor(text, "return_tolerance", "R27") if text else 0}


@bp.route("/desk/policy", methods=["GET", "POST"])
def policy() -> Response | str:
    """R3: the room's policies, edited by a supervisor or admin; every change is audited (R60)."""
    actor().require("policy")
    session = db()
    room = _room(session)
    if request.method == "POST":
        # R54: the shifts are typed as "06:00, 14:00, 22:00"; empty is one shift (the default)
        typed = ("shifts", "return_tolerance", "return_tolerance_unit")
        body = parse(Policy, request.form, only=[f for f in Policy.model_fields if f not in typed])
        sent = body.model_dump(exclude_none=True) | (
            {"shifts": request.form["shifts"]} if "shifts" in request.form else {}) | (
            _tolerance(request.form["return_tolerance"])
            if "return_tolerance" in request.form else {})
        if request.form.get("cash_out_approval_over", "x").strip() == "":
            sent["cash_out_approval_over"] = 0  # R28: emptied, the threshold is taken off
        changes = {k: v for k, v in rooms.policy_values(sent, room).items()
                   if getattr(room, k) != v}
        if changes:
            run(rooms.update_policy, **changes)
            flash(f"Policy changed: {', '.join(k.replace('_', ' ') for k in sorted(changes))} "
                  "(R3, audited).", "ok")
        else:
            flash("No policy was changed.", "ok")
        return redirect(url_for("desk.policy"), code=303)
    return render_template("desk/policy.html", room=room, fields=POLICY_FIELDS, languages=NAMES)
