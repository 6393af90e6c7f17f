"""The app's own stream (no broker: the embedded default, issue 21) over HTTP: the board page
offers it, a screen gets the room whole and then each change, a reconnecting screen what it
missed (Last-Event-ID), and the app serves no more streams than it is set to (503: poll), nor
more than its share to one client address (issue 40)."""

from __future__ import annotations

from tests.push.conftest import events


def test_the_board_page_offers_its_stream_after_the_message_it_was_drawn_after(client, push, room):
    latest = push.hub.latest(room.room.id)
    page = client.get("/board/main").text
    assert f'data-events-url="/board/main/events?last={latest}"' in page
    resp = client.get(f"/board/main/events?last={latest}", buffered=False)
    stream = iter(resp.response)
    next(stream)
    assert next(stream).startswith(b"event: clock\n")  # no redraw of what the page has
    resp.close()


def test_a_screen_gets_the_room_whole_then_each_change(client, sup_client, push, app, room, now):
    resp = client.get("/board/main/events", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    assert resp.headers["Cache-Control"] == "no-cache" and resp.headers["X-Accel-Buffering"] == "no"
    stream = iter(resp.response)
    assert next(stream) == b"retry: 3000\n\n"
    ((first, whole),) = events([next(stream)])
    key = f"g{push.game.id}"
    assert whole["full"] and whole["order"] == [key] and "7" in whole["games"][key]
    # then the server's clock, which the page's countdowns run on (R20)
    assert next(stream) == f"event: clock\ndata: {int(now.timestamp() * 1000)}\n\n".encode()
    assert push.hub.watched() == 1

    ann = sup_client.post("/desk/players", data={"first_name": "Ann", "last_name": "Lee",
                                                 "create_anyway": "true", "game_id": push.game.id})
    assert ann.status_code in (200, 302, 303), ann.text
    with app.app_context():
        push.publisher.publish_changes()  # the publisher's thread, woken by the commit
    ((number, change),) = events([next(stream)])
    assert number == first + 1 and not change["full"] and list(change["games"]) == [key]
    assert "Ann L." in change["games"][key]
    resp.close()
    assert push.hub.watched() == 0  # the screen went away: its subscription with it


def test_reconnecting_with_last_event_id_gets_what_it_missed(client, push, app, room, session, now):
    key = f"g{push.game.id}"
    latest = push.hub.latest(room.room.id)
    from roomops.lists import services as lists
    from roomops.runtime import ext

    with app.app_context(), ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=room.player(now, "Ann").id, game_id=push.game.id)
        uow.commit()
        push.publisher.publish_changes()
    resp = client.get("/board/main/events", headers={"Last-Event-ID": str(latest)}, buffered=False)
    stream = iter(resp.response)
    next(stream)
    ((number, missed),) = events([next(stream)])
    assert next(stream).startswith(b"event: clock\n")
    assert number == latest + 1 and not missed["full"] and list(missed["games"]) == [key]
    assert "Ann P." in missed["games"][key]
    resp.close()


def test_the_app_serves_no_more_streams_than_set_then_the_page_polls(client, push):
    push.streams = 1
    first = client.get("/board/main/events", buffered=False)
    assert first.status_code == 200
    refused = client.get("/board/main/events")
    assert refused.status_code == 503 and "poll" in refused.text
    first.close()
    assert client.get("/board/main/events", buffered=False).status_code == 200


def test_issue40_one_address_holds_at_most_its_share_of_the_streams(app, push):
    """16 streams a process, at most 4 to one address: one viewer opening stream after stream
    is refused its fifth (503: that page polls), and a screen from another address is served."""
    push.per_address.limit = 4

    def viewer(address: str):
        return app.test_client().get("/board/main/events", buffered=False,
                                     environ_base={"REMOTE_ADDR": address})

    taken = [viewer("203.0.113.9") for _ in range(4)]
    assert [t.status_code for t in taken] == [200] * 4
    assert viewer("203.0.113.9").status_code == 503
    other = viewer("203.0.113.10")
    assert other.status_code == 200
    taken.pop().close()  # a screen that leaves gives its place back
    again = viewer("203.0.113.9")
    assert again.status_code == 200
    for resp in [*taken, other, again]:
        resp.close()
    assert push.per_address.held("203.0.113.9") == 0


def test_issue40_behind_trusted_proxies_the_address_is_the_clients(db_url, engine, sessions, clock,
                                                                   room, session, now):
    """With ROOMOPS_TRUSTED_PROXIES=1 the address bounded is X-Forwarded-For's, as the rest of
    the app reads it: clients behind one proxy are each bounded, not the proxy for all."""
    from roomops.config import Settings
    from roomops.factory import create_app
    from roomops.runtime import ext

    app = create_app(Settings(database_url=db_url, scheduler="off", secret_key="test",
                              testing=True, trusted_proxies=1, push_streams_per_address=1),
                     clock=clock, engine=engine, WTF_CSRF_ENABLED=False)
    ext(app).sessions = ext(app).read_sessions = sessions

    def via_proxy(client: str):
        return app.test_client().get("/board/main/events", buffered=False,
                                     environ_base={"REMOTE_ADDR": "10.0.0.2"},
                                     headers={"X-Forwarded-For": client})

    first, second = via_proxy("203.0.113.1"), via_proxy("203.0.113.2")
    assert (first.status_code, second.status_code) == (200, 200)
    assert via_proxy("203.0.113.1").status_code == 503
    first.close()
    second.close()


def test_an_unknown_room_has_no_stream(client, push):
    assert client.get("/board/nowhere/events").status_code == 404
