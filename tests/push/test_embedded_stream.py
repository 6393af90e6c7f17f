"""The app's own stream (no broker: the embedded default, issue 21) over HTTP: the board page
offers it, a screen gets the room whole and then each change, a reconnecting screen what it
missed (Last-Event-ID), and the app serves no more streams than it is set to (503: poll)."""

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
    from roomops.floor.unit import unit
    from roomops.lists import services as lists

    with app.app_context(), unit(session, room.sup, now) as uow:
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


def test_an_unknown_room_has_no_stream(client, push):
    assert client.get("/board/nowhere/events").status_code == 404
