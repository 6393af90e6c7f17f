"""The staff screens' streams the app serves itself (issue 21, R61), over HTTP: staff only, each
screen told only of what it shows (a dealer of table A not of table B's change), the pages offer
their stream, and the app serves no more streams than it is set to (503: the page polls), the
staff screens' apart from the board's (issue 40)."""

from __future__ import annotations

import json
import threading

import pytest

from roomops.absences import services as absences
from roomops.jobs.scheduler import sweep_once
from roomops.ledger import transit
from roomops.push.embedded import KEY
from roomops.push.staff_streams import STAFF
from tests.conftest import login
from tests.services.ledger_helpers import seated_holds
from tests.units import act


@pytest.fixture()
def floor(app, room, session, now):
    """Two tables, each of its own game, with players seated."""
    _game_a, table_a, holds_a = seated_holds(room, session, now, name="A")
    _game_b, table_b, holds_b = seated_holds(room, session, now, name="B")
    session.commit()
    return table_a, holds_a, table_b, holds_b


@pytest.fixture()
def change(app, session, now, room):
    """Commit ``fn``'s change as the app would, then the publisher's pass."""
    def run(fn):
        with app.app_context():
            fn()
            session.commit()
            app.extensions[KEY].publisher.publish_changes()
    return run


def stream(client, url):
    resp = client.get(url, buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream", resp.status_code
    assert resp.headers["Cache-Control"] == "no-store"  # a staff route's, as every one's (issue 40)
    chunks = iter(resp.response)
    assert next(chunks) == b"retry: 3000\n\n"
    return resp, chunks


def notice(chunks) -> dict[str, object]:
    event, data = next(chunks).decode().strip().splitlines()
    assert event == "event: staff"
    return json.loads(data.removeprefix("data: "))


def test_a_dealer_of_table_a_is_told_of_table_a_not_of_table_b(app, client, room, floor, change, now):
    table_a, holds_a, _table_b, holds_b = floor
    login(client, "main-dealer")
    resp, chunks = stream(client, f"/dealer/tables/{table_a.id}/events")
    change(lambda: act(room.session, room.sup, now, absences.mark_away, holds_b[0].id))
    change(lambda: act(room.session, room.sup, now, absences.mark_away, holds_a[0].id))
    told = notice(chunks)  # table A's: table B's was never queued for this screen
    assert told == {"room": room.room.id, "tables": [table_a.id], "games": [], "floor": True,
                    "cage": False}
    resp.close()
    assert app.extensions[STAFF].hub.watched() == 0


def test_the_cage_is_told_of_slips_and_the_desk_of_the_floor(app, client, room, floor, change, now):
    _table_a, holds_a, *_ = floor
    cage = app.test_client()
    login(cage, "main-cashier")
    login(client, "main-supervisor")
    desk_resp, desk = stream(client, "/desk/events")
    cage_resp, slips = stream(cage, "/desk/cage/events")
    change(lambda: act(room.session, room.actor("cashier"), now, transit.request, holds_a[0].id, 5000))
    assert notice(slips)["cage"] is True
    change(lambda: act(room.session, room.sup, now, absences.mark_away, holds_a[1].id))
    assert notice(desk)["floor"] is True  # the slip never reached the desk: this is the break
    desk_resp.close()
    cage_resp.close()


def test_only_staff_with_the_screens_right_may_listen(app, client, room, floor):
    table_a = floor[0]
    for url in ("/desk/events", "/desk/cage/events", f"/dealer/tables/{table_a.id}/events"):
        resp = app.test_client().get(url)
        assert resp.status_code == 302 and "/login" in resp.location  # no log-in (a player has none)
    login(client, "main-dealer")
    assert client.get("/desk/events").status_code == 403
    assert client.get("/desk/cage/events").status_code == 403
    cashier = login(app.test_client(), "main-cashier")
    assert cashier.get(f"/dealer/tables/{table_a.id}/events").status_code == 403


def test_a_table_of_another_room_has_no_stream(app, client, room, floor):
    login(client, "main-dealer")
    assert client.get("/dealer/tables/999999/events").status_code == 404


def test_the_pages_offer_their_stream_and_none_past_the_apps_limit(app, client, room, floor):
    table_a = floor[0]
    login(client, "main-supervisor")
    assert 'data-staff-events="/desk/events"' in client.get("/desk").text
    assert 'data-staff-events="/desk/cage/events"' in client.get("/desk/cage").text
    assert (f'data-staff-events="/dealer/tables/{table_a.id}/events"'
            in client.get(f"/dealer/tables/{table_a.id}").text)
    app.extensions[KEY].staff_streams = 1
    resp, _chunks = stream(client, "/desk/events")
    assert client.get("/desk/cage/events").status_code == 503  # the staff streams are taken
    board = app.test_client().get("/board/main/events", buffered=False)  # the board's are apart
    assert board.status_code == 200
    board.close()
    resp.close()
    app.extensions[KEY].streams = 0
    assert 'data-staff-events=""' in client.get("/desk").text  # no stream: the page polls


def test_issue40_the_public_taking_every_board_stream_leaves_the_staff_theirs(app, client, room,
                                                                             floor):
    """Anonymous viewers from many addresses hold every board stream: the board's next screen
    polls, and the desk still gets its stream (its own bound, which the public cannot take)."""
    push = app.extensions[KEY]
    push.streams = 3
    viewers = [app.test_client().get("/board/main/events", buffered=False,
                                     environ_base={"REMOTE_ADDR": f"198.51.100.{i}"})
               for i in range(3)]
    assert [v.status_code for v in viewers] == [200] * 3
    assert app.test_client().get("/board/main/events").status_code == 503
    login(client, "main-supervisor")
    resp, _chunks = stream(client, "/desk/events")
    resp.close()
    for viewer in viewers:
        viewer.close()


def test_a_commit_of_another_process_is_told_too(app, client, room, floor, session, now):
    """Embedded, the pass reads the audit trail back: a commit made outside this app (a
    ``flask sweep`` process, a script) reaches the screens as the app's own do."""
    table_a, holds_a, *_ = floor
    login(client, "main-dealer")
    resp, chunks = stream(client, f"/dealer/tables/{table_a.id}/events")
    act(session, room.sup, now, absences.mark_away, holds_a[0].id)
    session.commit()  # no app context: not this app's commit
    with app.app_context():
        app.extensions[KEY].publisher.publish_changes()
    assert notice(chunks)["tables"] == [table_a.id]
    resp.close()


def test_the_sweep_going_late_tells_the_desk(app, client, room, floor, clock):
    """Not audited, but the desk shows it (docs/desk.md): the pass compares it."""
    sweep_once(app)
    login(client, "main-supervisor")
    resp, chunks = stream(client, "/desk/events")
    clock.advance(seconds=app.extensions["roomops"].settings.sweep_stale_seconds + 1)
    with app.app_context():
        app.extensions[KEY].publisher.publish_changes()
    assert notice(chunks) == {"room": room.room.id, "tables": [], "games": [], "floor": True,
                              "cage": False}
    resp.close()


def test_telling_the_staff_screens_never_stops_the_boards_pass(app, room, session, now):
    room.game(now)
    session.commit()
    publisher = app.extensions[KEY].publisher

    def broken(_session):
        raise RuntimeError("a bug in the staff notices")

    publisher.before.insert(0, broken)
    with app.app_context():
        assert publisher.publish_changes() == 1  # the room sent whole all the same


def test_issue40_a_log_out_ends_the_apps_staff_stream_at_once(app, client, room, floor):
    """The desk's stream closes when its log-in ends, not 10 minutes later; its browser's
    reconnect is refused (the log-in is gone)."""
    login(client, "main-supervisor")
    resp, chunks = stream(client, "/desk/events")
    assert client.post("/logout").status_code in (302, 303)
    # the stream ends now (on the tests' stopped clock it would otherwise never end)
    rest: list[list[bytes]] = []
    reader = threading.Thread(target=lambda: rest.append(list(chunks)), daemon=True)
    reader.start()
    reader.join(5)
    assert rest and rest[0] in ([], [b": keep-alive\n\n"]), "the stream went on after the log-out"
    resp.close()
    assert client.get("/desk/events").status_code in (302, 401)
    assert app.extensions[STAFF].hub.watched() == 0
