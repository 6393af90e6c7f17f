"""The desk's live part drawn once for every desk showing it (issue 21, roomops.desk.shared): the
desks one change sets re-reading share one drawing and its compressed bytes; the viewer's rights
and the room's version key it; a desk asking a second later is drawn the room as it is then; its
forms carry no CSRF token (the page's is given them by desk.js: tests/browser/test_moves.py)."""

from __future__ import annotations

import gzip
import re
import threading
from datetime import datetime, timedelta

import brotli
import pytest
from flask import template_rendered
from sqlalchemy import func, select, update

from roomops.audit.models import AuditEvent
from roomops.desk.shared import WAIT_SECONDS, Drawing, Drawings
from roomops.games.models import Table
from roomops.lists import services as lists
from roomops.seating import seats
from tests.conftest import login
from tests.units import act

T0 = datetime(2026, 11, 28, 21, 0)


@pytest.fixture()
def drawn(app):
    """The names of the desk's live parts drawn, in order."""
    names: list[str] = []

    def record(_sender, template, context, **_extra):
        if template.name == "desk/_live.html":
            names.append(template.name)

    template_rendered.connect(record, app)
    yield names
    template_rendered.disconnect(record, app)


@pytest.fixture()
def unbalanced(room, session, now):
    """R19: table 1 with 5 players, table 2 with 3: the desk suggests a move, as a form."""
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    for i, p in enumerate(room.players(now, 8, "Seat"), start=1):
        act(session, room.sup, now, seats.seat_directly, table_id=(t1 if i <= 5 else t2).id, seat_no=i,
            player_id=p.id, buy_in=20000)
    session.commit()
    return game


def _desk(app, username="main-supervisor"):
    return login(app.test_client(), username)


def test_one_change_is_drawn_once_for_the_desks_it_sets_re_reading(app, unbalanced, drawn):
    one, two = _desk(app), _desk(app)
    first = one.get("/desk/fragment")
    second = two.get("/desk/fragment")
    assert first.status_code == second.status_code == 200 and len(drawn) == 1
    assert first.data == second.data and first.headers["ETag"] == second.headers["ETag"]
    assert 'class="balance"' in first.text  # R19's move, a form: with no viewer's token in it
    assert re.findall(r'name="csrf_token" value="([^"]*)"', first.text) == [""]
    page = one.get("/desk").text  # the page a desk opens with carries that viewer's token
    assert re.search(r'data-csrf="[^"]+"', page) and 'name="csrf_token" value=""' not in page


def test_the_desks_page_shows_the_shared_drawing_with_its_viewers_token(app, unbalanced, drawn):
    """A desk loads its page again after an action that changes it, as the other desks re-read:
    its live part is their drawing, with this viewer's token put in its forms (they post without
    JavaScript too)."""
    one, two = _desk(app), _desk(app)
    assert one.get("/desk/fragment").status_code == 200
    page = two.get("/desk").text
    assert len(drawn) == 1 and 'class="balance"' in page
    token = re.search(r'data-csrf="([^"]+)"', page).group(1)
    assert set(re.findall(r'name="csrf_token" value="([^"]*)"', page)) == {token}


def test_what_the_viewer_may_do_keys_the_drawing(app, unbalanced, drawn):
    """An administrator's rights are not a supervisor's: each set of rights is drawn on its own
    (what the live part offers follows them: ``can`` in desk/_live.html)."""
    sup, admin, other = _desk(app), _desk(app, "main-admin"), _desk(app)  # (a log-in is a change)
    assert [d.get("/desk/fragment").status_code for d in (sup, admin, other)] == [200, 200, 200]
    assert len(drawn) == 2


def test_a_change_is_drawn_anew(app, room, session, unbalanced, drawn, clock):
    one, two = _desk(app), _desk(app)
    before = one.get("/desk/fragment")
    act(session, room.sup, clock.now(), lists.join, player_id=room.player(clock.now(), "Newt").id,
        game_id=unbalanced.id)
    session.commit()
    after = two.get("/desk/fragment")
    assert len(drawn) == 2 and after.headers["ETag"] != before.headers["ETag"]
    assert "Newt Player" in after.text and "Newt Player" not in before.text


def test_a_desk_asking_a_second_later_is_drawn_the_room_as_it_is_then(app, unbalanced, drawn, clock):
    """Shared within a second of its drawing: what the server works out from the clock (R25's
    "note needed") is never older than that on a desk just opened."""
    desks = [_desk(app) for _ in range(3)]
    assert desks[0].get("/desk/fragment").status_code == 200
    clock.advance(milliseconds=999)
    assert desks[1].get("/desk/fragment").status_code == 200
    assert len(drawn) == 1
    clock.advance(milliseconds=1)
    assert desks[2].get("/desk/fragment").status_code == 200
    assert len(drawn) == 2


def test_the_drawing_goes_out_compressed_as_each_desk_asks(app, unbalanced, drawn):
    desks = [_desk(app) for _ in range(4)]
    plain = desks[0].get("/desk/fragment").data
    br = [d.get("/desk/fragment", headers={"Accept-Encoding": "br, gzip"}) for d in desks[1:3]]
    gz = desks[3].get("/desk/fragment", headers={"Accept-Encoding": "gzip"})
    assert [r.headers["Content-Encoding"] for r in br] == ["br", "br"] and br[0].data == br[1].data
    assert brotli.decompress(br[0].data) == plain and gzip.decompress(gz.data) == plain
    assert gz.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in br[0].headers["Vary"]
    assert len(drawn) == 1


# ---- Drawings on its own: threads asking at once ----------------------------------------------


def _asking(drawings: Drawings, tag: str, make, out: list[Drawing]) -> threading.Thread:
    thread = threading.Thread(target=lambda: out.append(drawings.get("room", tag, T0, make)))
    thread.start()
    return thread


def test_desks_asking_while_it_is_drawn_wait_for_that_drawing():
    drawings, started, release, made = Drawings(), threading.Event(), threading.Event(), []

    def make() -> Drawing:
        made.append(1)
        started.set()
        assert release.wait(WAIT_SECONDS)
        return Drawing("v1", T0, b"the room")

    got: list[Drawing] = []
    first = _asking(drawings, "v1", make, got)
    assert started.wait(WAIT_SECONDS)
    others = [_asking(drawings, "v1", make, got) for _ in range(3)]
    release.set()
    for t in [first, *others]:
        t.join(WAIT_SECONDS)
    assert len(made) == 1 and len(got) == 4 and all(g is got[0] for g in got)


def test_a_desk_waiting_on_a_drawing_that_failed_makes_its_own():
    drawings, started, release = Drawings(), threading.Event(), threading.Event()

    def failing() -> Drawing:
        started.set()
        assert release.wait(WAIT_SECONDS)
        raise RuntimeError("the database went away")

    errors: list[BaseException] = []
    first = threading.Thread(target=lambda: _catch(errors, lambda: drawings.get("room", "v1", T0, failing)))
    first.start()
    assert started.wait(WAIT_SECONDS)
    got: list[Drawing] = []
    second = _asking(drawings, "v1", lambda: Drawing("v1", T0, b"drawn again"), got)
    release.set()
    first.join(WAIT_SECONDS)
    second.join(WAIT_SECONDS)
    assert [str(e) for e in errors] == ["the database went away"] and got[0].body == b"drawn again"


def test_each_room_keeps_its_latest_drawing_only():
    drawings = Drawings()
    drawings.get("room", "v1", T0, lambda: Drawing("v1", T0, b"one"))
    drawings.get("room", "v2", T0, lambda: Drawing("v2", T0, b"two"))
    again = drawings.get("room", "v1", T0 + timedelta(milliseconds=1), lambda: Drawing("v1", T0, b"redrawn"))
    assert again.body == b"redrawn"


def _catch(errors: list[BaseException], fn) -> None:
    try:
        fn()
    except RuntimeError as exc:
        errors.append(exc)


def test_r60_a_late_commit_with_a_lower_audit_id_still_moves_the_desks_etag(app, room, session, now):
    """On PostgreSQL ids are handed out before commit, so a row can land below the latest id: the
    desk keys on the room's change mark (``roomops.games.marks``), not on the newest id."""
    top = session.scalar(select(func.max(AuditEvent.id))) or 0
    session.add(AuditEvent(id=top + 5, room_id=room.room.id, at=now, actor="x", action="a",
                           entity_type="room", entity_id=room.room.id, detail={}))
    session.commit()
    desk = _desk(app)
    before = desk.get("/desk/fragment").headers["ETag"]
    session.add(AuditEvent(id=top + 2, room_id=room.room.id, at=now, actor="x", action="b",
                           entity_type="room", entity_id=room.room.id, detail={}))
    session.commit()
    after = desk.get("/desk/fragment", headers={"If-None-Match": before})
    assert after.status_code == 200 and after.headers["ETag"] != before


def test_a_fix_made_by_hand_outside_the_audit_trail_moves_the_desks_etag(app, room, session, unbalanced):
    """A supervisor's fix in SQL writes no audit row; the database's marks still move (0020)."""
    desk = _desk(app)
    before = desk.get("/desk/fragment")
    session.execute(update(Table).where(Table.game_id == unbalanced.id, Table.name == "2")
                    .values(name="2 by the window"))
    session.commit()
    after = desk.get("/desk/fragment", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and "2 by the window" in after.text
