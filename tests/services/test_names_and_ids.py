"""Names others read are refused with a control character or a direction override wherever they
are made (a room's, a staff member's: the CLI and any admin screen go through these services), and
an id no id column can hold names no row on either database (docs/security.md, "Headers and
inputs")."""

from __future__ import annotations

import pytest

from roomops.actors import console, get_in_room
from roomops.db import INT_MAX
from roomops.errors import Invalid, NotFound
from roomops.rooms.models import Player
from roomops.rooms.services import create_room
from roomops.rooms.staff import create_staff
from tests.factories import PASSWORD
from tests.units import act


def test_a_room_or_staff_name_with_an_override_is_refused(session, now, room):
    with pytest.raises(Invalid, match=r"name: may not contain U\+202E"):
        create_room(session, now, slug="other", name="Main\u202eRoom")
    with pytest.raises(Invalid, match=r"display_name: may not contain U\+0007"):
        act(session, console(room.room.id), now, create_staff, username="bell", password=PASSWORD,
            roles=("dealer",), display_name="Bell\x07")
    with pytest.raises(Invalid, match=r"username: may not contain U\+2066"):
        act(session, console(room.room.id), now, create_staff, username="iso\u2066", password=PASSWORD,
            roles=("dealer",))  # a username is shown too (the audit trail's actor)


def test_issue40_a_room_or_staff_name_with_invisible_characters_is_refused(session, now, room):
    with pytest.raises(Invalid, match=r"name: The name has invisible characters \(U\+200B\)"):
        create_room(session, now, slug="other", name="Main\u200bRoom")
    with pytest.raises(Invalid, match=r"display_name: The name has invisible characters \(U\+FEFF\)"):
        act(session, console(room.room.id), now, create_staff, username="bom", password=PASSWORD,
            roles=("dealer",), display_name="\ufeffBom")
    with pytest.raises(Invalid, match=r"username: The name has invisible characters \(U\+200F\)"):
        act(session, console(room.room.id), now, create_staff, username="rlm\u200f", password=PASSWORD,
            roles=("dealer",))
    made = act(session, console(room.room.id), now, create_staff, username="zoe", password=PASSWORD,
               roles=("dealer",), display_name="Zoe\u0308")
    assert made.display_name == "Zoë"  # NFC: one way to write it


@pytest.mark.parametrize("ident", [0, -1, INT_MAX + 1, 2**63, 10**30])
def test_an_id_outside_the_column_names_no_row(session, room, ident):
    with pytest.raises(NotFound, match=f"no player with id {ident}"):
        get_in_room(session, Player, ident, room.sup, "player")
    session.execute(Player.__table__.select().limit(1))  # the transaction is still usable
