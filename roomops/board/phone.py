"""The player's phone pages (R12-R16, R20, R61), no log-in, beside the board they are linked from:

* ``/board/<slug>/join``: "Join a list" where the room takes remote entries (R12): games, name,
  number; throttled per address; a refusal says what and the rule, keeping what was typed.
* ``/board/<slug>/me``: the entries of the phone's personal link, found by its cookie: place
  (R13), players ahead as a count, the check-in countdown (R12), a live call with its claim
  countdown (R20), "Leave this list" (R16) and each entry's history in plain words (R13-R16).
* ``/board/<slug>/join/code``: where the room has a text provider, the one-time code texted to
  the number, typed to complete the join (issue 40: the phone proves the number, R12).
* ``/p/<token>``: the personal link itself (to open on another phone): it sets the cookie and
  sends the phone to ``/board/<slug>/me``, so the token leaves the address bar. Tokens are
  stored hashed, never logged (``roomops.web.request_fields``), and the pages are ``no-store``
  and ``noindex``. Nothing of another player is shown but counts (R61). A link ends with the
  gaming day after its latest join (R2): then its pages say so, with the way back to the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import ngettext
from pydantic import ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

from roomops.actors import phone_page, player_link
from roomops.auth.throttle import PAGES, join_limits
from roomops.board import countdown
from roomops.board.views import WAITS, _room, bp, events_url
from roomops.errors import NotFound, RoomopsError
from roomops.games.models import Game
from roomops.lists.models import ListEntry
from roomops.remote import reads, rules
from roomops.remote import services as remote
from roomops.remote.models import PlayerLink
from roomops.remote.rules import CODE_LIFE
from roomops.rooms.languages import DEFAULT
from roomops.rooms.models import Room
from roomops.runtime import ext
from roomops.schemas import PhoneJoin
from roomops.security_log import security_event
from roomops.waits.services import WaitsCache, estimate_for_entry
from roomops.waits.shown import minutes_text, shown
from roomops.web.errors import CSRF_PAGES, describe
from roomops.web.language import tr, use_language
from roomops.web.public import public_url
from roomops.web.uow import db, now, run_as
from roomops.words import N_

LINK_DAYS = 2  # the cookie outlives a long night; the link ends with its stored deadline (R2)
# the join form's fields as a player reads them, for a refusal of what was typed (R12)
FIELDS = {"game_ids": N_("the games"), "first_name": N_("your first name"),
          "last_name": N_("your last name"), "phone": N_("your phone number")}
# what is wrong with a field, by the form model's error type (pydantic's own words are English)
WHY = {"missing": N_("Please fill in {field}."), "string_too_short": N_("Please fill in {field}."),
       "too_short": N_("Please pick at least one game."),
       "string_too_long": N_("Please shorten {field}."),
       "invisible_characters": N_("Please type {field} again: it has invisible characters.")}
CHECK = N_("Please check {field}.")  # any other refusal of a field


@dataclass
class GameChoice:
    id: int
    label: str
    waiting: int  # R61: others appear only as counts


def cookie_name(room: Room) -> str:
    """R61: the phone's link for this room; ``__Host-`` over HTTPS (no other host or path can
    set or shadow it)."""
    return f"{'__Host-' if ext().settings.https else ''}roomops-link-{room.id}"


def _private(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Robots-Tag"] = "noindex"
    return resp


def _keep_link(resp: Response, room: Room, token: str) -> Response:
    resp.set_cookie(cookie_name(room), token, max_age=LINK_DAYS * 86400, httponly=True,
                    secure=ext().settings.https, samesite="Lax", path="/")
    return resp


def _games(session: Session, room: Room) -> list[GameChoice]:
    waiting = {game_id: n for game_id, n in session.execute(select(
        ListEntry.game_id, func.count()).where(
        ListEntry.room_id == room.id, ListEntry.status == "active",
        ListEntry.kind == "waiting").group_by(ListEntry.game_id))}
    games = session.scalars(select(Game).where(Game.room_id == room.id, Game.status == "open")
                            .order_by(Game.big_blind, Game.small_blind, Game.id))
    return [GameChoice(g.id, f"{g.variant} {room.money.stakes(g.small_blind, g.big_blind, g.ante)}",
                       waiting.get(g.id, 0)) for g in games]


def code_cookie(room: Room) -> str:
    """R12: the phone's pending join, waiting for its texted code."""
    return f"{'__Host-' if ext().settings.https else ''}roomops-code-{room.id}"


def _my_link(session: Session, room: Room) -> PlayerLink | None:
    token = request.cookies.get(cookie_name(room))
    return remote.link_for(session, room.id, token, now()) if token else None


def _ended_link(session: Session, room: Room) -> bool:
    """R61: the phone holds this room's link, and it has ended."""
    found = remote.find_link(session, request.cookies.get(cookie_name(room)) or "")
    return found is not None and found.room_id == room.id and not rules.link_live(
        found.expires_at, now())


def _ended(room: Room) -> Response:
    """The page of a link that has ended (R2, R61), in the phone's language, with the board."""
    page = render_template("phone/expired.html", room=room,
                           board_url=url_for("board.room", slug=room.slug))
    return _private(make_response(page, 410))


def _join_page(room: Room, error: str | None = None, rule: str | None = None,
               typed: dict[str, Any] | None = None) -> str:
    session = db()
    return render_template(
        "phone/join.html", room=room, games=_games(session, room), error=error, rule=rule,
        typed=typed or {}, has_link=_my_link(session, room) is not None,
        board_url=url_for("board.room", slug=room.slug))


def _typed() -> dict[str, Any]:
    form = request.form
    return {"game_ids": [int(g) for g in form.getlist("game_id") if g.isdigit()],
            "first_name": form.get("first_name", ""), "last_name": form.get("last_name", ""),
            "phone": form.get("phone", "")}


@bp.route("/board/<slug>/join", methods=["GET", "POST"])
@join_limits
def join(slug: str) -> Response:
    """R12: the join form; joined, the phone keeps its link and opens its entries."""
    room = _room(slug)
    lang = use_language(room)
    if request.method == "GET":
        return _private(make_response(_join_page(room)))
    typed = _typed()
    try:
        body = PhoneJoin.model_validate(typed)
        joined = run_as(phone_page(room.id), remote.join_from_phone, **body.model_dump(),
                        token=request.cookies.get(cookie_name(room)), language=lang,
                        codes=ext().courier.provider.configured)
    except (RoomopsError, ValidationError) as err:
        return _private(_refused(room, err, typed))
    if isinstance(joined, remote.CodeSent):
        resp = redirect(url_for("board.join_code", slug=room.slug), code=303)
        resp.set_cookie(code_cookie(room), joined.secret, max_age=int(CODE_LIFE.total_seconds()),
                        httponly=True, secure=ext().settings.https, samesite="Lax", path="/")
        return _private(resp)
    return _joined(room, joined)


def _joined(room: Room, joined: remote.Joined) -> Response:
    resp = redirect(url_for("board.me", slug=room.slug), code=303)
    return _private(_keep_link(resp, room, joined.token) if joined.token else resp)


@bp.route("/board/<slug>/join/code", methods=["GET", "POST"])
@join_limits
def join_code(slug: str) -> Response:
    """R12, issue 40: the code texted to the number, typed to complete the join; a wrong one is
    counted and said, with the tries left."""
    room = _room(slug)
    use_language(room)
    secret = request.cookies.get(code_cookie(room))
    if request.method == "GET":
        return _code_page(room, secret)
    try:
        done = run_as(phone_page(room.id), remote.confirm_code, secret=secret or "",
                      code=request.form.get("code", ""),
                      token=request.cookies.get(cookie_name(room)))
    except RoomopsError as err:
        db().rollback()
        security_event("request.refused", status=err.status, rule=err.rule, reason=err.message)
        return _code_page(room, secret, err.text(room.money, tr), err.status)
    if isinstance(done, remote.WrongCode):
        security_event("request.refused", status=422, rule="R12", reason="wrong code")
        return _code_page(room, secret, ngettext(
            "That code is not right: %(num)s try left.",
            "That code is not right: %(num)s tries left.", done.left), 422)
    resp = _joined(room, done)
    resp.delete_cookie(code_cookie(room), path="/", secure=ext().settings.https, httponly=True,
                       samesite="Lax")
    return resp


def _code_page(room: Room, secret: str | None, error: str | None = None,
               status: int = 200) -> Response:
    """The code's form, naming the number's last digits only (R61)."""
    pending = remote.pending_code(db(), room.id, secret)
    state = None if pending is None else rules.code_state(
        pending.deadline, pending.attempts, pending.confirmed_at, now())
    if state is not None and state != "open" and error is None:
        error = tr(remote.SPENT[state])
    page = render_template(
        "phone/code.html", room=room, error=error,
        ending=pending.phone[-3:] if pending is not None and state == "open" else None,
        join_url=url_for("board.join", slug=room.slug),
        board_url=url_for("board.room", slug=room.slug))
    return _private(make_response(page, status))


def _refused(room: Room, err: RoomopsError | ValidationError, typed: dict[str, Any]) -> Response:
    """The form again with what was typed and the refusal's words and rule (R12), in the page's
    language, nothing kept. A field the form's model refused is named in the player's words and
    said what is wrong with it (``_why``); the model's own English words go to the log only."""
    db().rollback()
    rule: str | None = "R12"
    if isinstance(err, ValidationError):
        logged, status = describe(err), 422
        message = " ".join(dict.fromkeys(_why(e["type"], str(e["loc"][0]))
                                         for e in err.errors() if e["loc"]))
    else:
        logged, rule, status = err.message, err.rule, err.status
        message = err.text(room.money, tr)
    security_event("request.refused", status=status, rule=rule, reason=logged)
    return make_response(_join_page(room, message, rule, typed), status)


def _why(kind: str, field: str) -> str:
    """One refused field in the player's words: "Please fill in your phone number." (R12)."""
    return tr(WHY.get(kind, CHECK)).format(field=tr(FIELDS.get(field, field)))


def _refusing_room() -> Room | None:
    """The room of a phone page refused before its view ran (throttled, CSRF), its language
    chosen; None for no room (the framework's refusal then)."""
    slug = request.view_args.get("slug") if request.view_args else None
    room = db().scalar(select(Room).where(Room.slug == slug))
    if room is not None:
        use_language(room)
    return room


def _throttled_join(minutes: int) -> str | None:
    """R12: the join form refused by the per-address limit, in the page's language, with what
    was typed."""
    room = _refusing_room()
    if room is None:
        return None
    message = ngettext("Too many tries to join a list from this address: try again in "
                       "%(num)s minute.", "Too many tries to join a list from this address: "
                       "try again in %(num)s minutes.", minutes)
    return _join_page(room, message, "R12", _typed())


PAGES["board.join"] = _throttled_join


def _throttled_code(minutes: int) -> str | None:
    room = _refusing_room()
    if room is None:
        return None
    message = ngettext("Too many tries from this address: try again in %(num)s minute.",
                       "Too many tries from this address: try again in %(num)s minutes.", minutes)
    return render_template("phone/code.html", room=room, error=message, ending=None,
                           join_url=url_for("board.join", slug=room.slug),
                           board_url=url_for("board.room", slug=room.slug))
# a form sent without its CSRF token, or with one run out (a page left open past the token's
# hour, cookies lost): the phone's form again, in its language, with what was typed and a fresh
# token; nothing was done
EXPIRED = N_("This page was open too long, so nothing was done: please try again.")


def _expired_join() -> Response | None:
    room = _refusing_room()
    return None if room is None else _private(make_response(
        _join_page(room, tr(EXPIRED), None, _typed()), 400))


def _expired_leave() -> Response | None:
    room = _refusing_room()
    return None if room is None else _me_page(room, tr(EXPIRED), None, 400)


def _expired_code() -> Response | None:
    room = _refusing_room()
    return None if room is None else _code_page(
        room, request.cookies.get(code_cookie(room)), tr(EXPIRED), 400)


CSRF_PAGES.update({"board.join": _expired_join, "board.leave": _expired_leave,
                   "board.join_code": _expired_code})


@bp.get("/board/<slug>/me")
def me(slug: str) -> Response:
    """R12-R16, R20: the phone's own entries, from its cookie."""
    room = _room(slug)
    use_language(room)
    if _ended_link(db(), room):
        return _ended(room)
    return _me_page(room)


def _me_page(room: Room, error: str | None = None, rule: str | None = None,
             status: int = 200) -> Response:
    session, at = db(), now()
    link = _my_link(session, room)
    entries = reads.entries_of(session, link, at, tr) if link else []
    token = request.cookies.get(cookie_name(room)) if link else None
    page = render_template(
        "phone/me.html", room=room, entries=entries, error=error, rule=rule,
        link_url=public_url("board.link", token=token) if token else None,
        now_ms=countdown.to_ms(at), ms=countdown.to_ms, estimate=estimate,
        join_url=url_for("board.join", slug=room.slug),
        board_url=url_for("board.room", slug=room.slug),
        # R20: the room's pushed changes of the games this phone waits for re-read the page at once
        # (in its language: the stream only says which games changed, so its default one serves)
        events_url=events_url(room, DEFAULT) if entries else "",
        watch=" ".join(sorted({f"g{e.game.id}" for e in entries if e.status == "active"})))
    resp = make_response(page, status)
    resp.headers["X-Server-Now"] = str(countdown.to_ms(at))
    return _private(resp)


def estimate(entry: reads.MyEntry) -> str | None:
    """The entry's estimated wait to be seated, in words ("Estimated wait ~25 min (15-40)",
    docs/waits.md): nothing once it has ended or been called (R20: the call says it all) or when
    no table of the game runs."""
    if entry.status != "active" or entry.call is not None:
        return None
    cache: WaitsCache = current_app.extensions[WAITS]
    est = estimate_for_entry(db(), cache, entry.id, now())
    if est is None:
        return None
    return tr("Estimated wait {minutes}").format(minutes=minutes_text(shown(est), tr))


@bp.get("/p/<token>")
def link(token: str) -> Response:
    """R61: the personal link: the phone keeps it in a cookie and opens its entries."""
    session = db()
    found = remote.find_link(session, token)
    if found is None:
        abort(404)
    room = session.get_one(Room, found.room_id)
    if not rules.link_live(found.expires_at, now()):
        use_language(room)
        return _ended(room)
    return _private(_keep_link(redirect(url_for("board.me", slug=room.slug), code=303), room, token))


@bp.post("/board/<slug>/me/entries/<int:entry_id>/leave")
def leave(slug: str, entry_id: int) -> Response:
    """R16: "Leave this list", through the phone's link; audited as that link. A refusal shows
    on the page of entries."""
    room = _room(slug)
    use_language(room)
    link = _my_link(db(), room)
    try:
        if link is None:
            raise NotFound(N_("this phone has no entries here: its link is gone"), "R61")
        run_as(player_link(room.id, link.id), remote.leave, entry_id)
    except RoomopsError as err:
        db().rollback()
        security_event("request.refused", status=err.status, rule=err.rule, reason=err.message)
        return _me_page(room, err.text(room.money, tr), err.rule, err.status)
    return _private(redirect(url_for("board.me", slug=room.slug), code=303))
