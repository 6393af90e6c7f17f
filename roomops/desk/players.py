"""Players typed on the desk's forms (R10, R14, R15): picked from the list ('Ann Lee #12'), typed
as a number, or typed as a name that exactly one player of the room has (the list only offers the
most recent players, and a returning player is often not among them)."""

from __future__ import annotations

from flask_login import current_user
from sqlalchemy import func, select
from werkzeug.datastructures import MultiDict

from roomops.desk.forms import player_ref
from roomops.errors import Invalid
from roomops.rooms.models import Player
from roomops.web.uow import db


def with_player_ids(form: MultiDict[str, str], *fields: str) -> MultiDict[str, str]:
    """The form with each of ``fields`` typed as a name replaced by that player's number."""
    out = form.copy()
    for name in fields:
        out[name] = typed_player(form.get(name, ""))
    return out


def typed_player(raw: str) -> str:
    """What was typed in a player box as the player's number, as text: the number typed or picked
    ('12', 'Ann Lee #12'), or the number of the one player with the name typed; '' when empty."""
    ref = player_ref(raw)
    return ref if not ref or ref.isdigit() else str(player_named(ref))


def player_named(name: str) -> int:
    """The one player of the room whose full name is ``name`` (any case); refused when none or
    several are, so the desk never picks the wrong person."""
    full = func.lower(func.trim(Player.first_name + " " + Player.last_name))
    ids = list(db().scalars(select(Player.id).where(
        Player.room_id == current_user.room_id, full == " ".join(name.lower().split())).limit(3)))
    if not ids:
        raise Invalid(f"no player is called {name!r}: pick one from the list, or add them", "R10")
    if len(ids) > 1:
        raise Invalid(f"several players are called {name!r}: pick the right one from the list "
                      "(it shows their #number)", "R10")
    return ids[0]
