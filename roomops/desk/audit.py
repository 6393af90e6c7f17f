"""The audit viewer (R60): newest first, filtered, paged; read-only (no route edits or deletes)."""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from flask import Blueprint, render_template, request
from flask_login import current_user
from sqlalchemy.orm import Session

from roomops.audit.reads import query
from roomops.errors import Invalid
from roomops.rooms.models import Room
from roomops.web.routing import parse_id
from roomops.web.uow import db

bp = Blueprint("audit", __name__)
PAGE = 100
# the detail's keys whose whole numbers are amounts (minor units): shown in the room's money (R32)
MONEY_KEYS = frozenset({
    "amount", "buy_in", "stack", "stack_counted", "owner_stack", "left_amount", "leave_amount",
    "expected_total", "counted_total", "counted", "expected", "variance", "required", "rake", "pot",
    "fee", "added", "small_blind", "big_blind", "ante", "min_buyin", "max_buyin", "time_fee",
    "drop_fee", "rake_cap", "cap", "minimum", "maximum", "smallest_chip", "max_rake"})


def _entity(raw: str) -> tuple[str, int] | None:
    """'list_entry:12' (or 'list_entry 12') -> ('list_entry', 12)."""
    raw = raw.strip()
    if not raw:
        return None
    kind, _, ident = raw.replace(" ", ":").partition(":")
    if not kind or (row := parse_id(ident)) is None:
        raise Invalid(f"entity: {raw!r} is not like list_entry:12", "R60")
    return kind, row


def _int(name: str) -> int | None:
    raw = request.args.get(name, "").strip()
    if not raw:
        return None
    if (row := parse_id(raw)) is None:
        raise Invalid(f"{name}: {raw!r} is not an id", "R60")
    return row


@bp.get("/audit")
def index() -> str:
    session: Session = db()
    room = session.get_one(Room, current_user.room_id)
    action = request.args.get("action", "").strip()
    who = request.args.get("actor", "").strip()
    entity_raw = request.args.get("entity", "").strip()
    before_id = _int("before_id")
    rows = list(session.scalars(query(room.id, action=action or None, actor=who or None,
                                      entity=_entity(entity_raw), before_id=before_id,
                                      limit=PAGE + 1)))
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    tz = ZoneInfo(room.timezone)
    return render_template(
        "audit/index.html", rows=rows, more=more, room=room, tz=tz, action=action, actor=who,
        entity=entity_raw, before_id=before_id,
        detail=lambda d: detail(d, room.money) if d else "",
    )


def detail(values: dict[str, object], money: Callable[[int], str]) -> str:
    """An audit row's detail as staff read it: "amount: £12.50, method: cash", keys in order,
    amounts in the room's money (R32, R60), nested lists and objects likewise."""
    return ", ".join(f"{k}: {_value(k, v, money)}" for k, v in sorted(values.items()))


def _value(key: str, value: object, money: Callable[[int], str]) -> str:
    if isinstance(value, dict):
        return "{" + detail(value, money) + "}"
    if isinstance(value, list):
        return "[" + "; ".join(_value(key, v, money) for v in value) + "]"
    if key in MONEY_KEYS and type(value) is int:
        return money(value)
    return str(value)
