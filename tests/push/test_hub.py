"""The push hub (issue 21, plain Python): a change fans out to every screen of its room and no
other, a slow screen neither holds the others nor piles up (it gets the whole state instead),
and a reconnecting screen gets what it missed by Last-Event-ID, or the whole state."""

from __future__ import annotations

import json

from roomops.push.hub import Hub, Subscription
from roomops.push.messages import Message, Update, last_event_id, last_seen, parse


def update(room: int, games: dict[str, str | None], order: tuple[str, ...] = ("g1", "g2"),
           full: bool = False, late: bool = False) -> Update:
    return Update(room, 1000, order, games, late, full)


def data(message: Message) -> dict[str, object]:
    lines = message.sse.decode().splitlines()
    return json.loads(lines[2].removeprefix("data: "))


def test_a_change_goes_to_every_screen_of_its_room_and_no_other():
    hub = Hub()
    a, b, other = Subscription(hub, 1), Subscription(hub, 1), Subscription(hub, 2)
    for sub in (a, b, other):
        hub.subscribe(sub, None)
    hub.publish(update(1, {"g1": "<section>one</section>"}, full=True))
    got = [a.next(0.1), b.next(0.1)]
    assert [m.id for m in got if m] == [1, 1]
    assert got[0] is got[1]  # one message, encoded once, whoever it goes to
    assert other.next(0.01) is None
    assert hub.watched() == 3
    a.close()
    assert hub.watched() == 2


def test_the_event_is_sse_with_its_id_the_order_the_changed_games_and_the_servers_clock():
    message = Hub().publish(update(1, {"g2": "<section>2</section>", "g3": None}, late=True))
    assert message is not None
    text = message.sse.decode()
    assert text.startswith("id: 1\nevent: board\ndata: {") and text.endswith("}\n\n")
    assert data(message) == {"room": 1, "now": 1000, "order": ["g1", "g2"],
                             "games": {"g2": "<section>2</section>", "g3": None}, "late": True,
                             "full": False}
    assert parse(1, message.payload()).update == message.update


def test_a_slow_screen_does_not_hold_the_others_and_gets_the_whole_state_when_it_reads():
    hub = Hub()
    slow, quick = Subscription(hub, 1, size=2), Subscription(hub, 1, size=64)
    hub.subscribe(slow, None)
    hub.subscribe(quick, None)
    hub.publish(update(1, {"g1": "a1", "g2": "b1"}, full=True))
    for i in range(2, 11):  # publishing never waits for the slow screen
        hub.publish(update(1, {"g1": f"a{i}"}))
    assert [quick.next(0.1).id for _ in range(10)] == list(range(1, 11))  # type: ignore[union-attr]
    caught_up = slow.next(0.1)
    assert caught_up is not None and caught_up.update.full and caught_up.id == 10
    assert caught_up.update.games == {"g1": "a10", "g2": "b1"}
    assert slow.next(0.01) is None  # its stale queue was dropped with the catch-up


def test_reconnecting_with_last_event_id_gets_what_it_missed_or_else_the_whole_state():
    hub = Hub()
    hub.publish(update(1, {"g1": "a1", "g2": "b1"}, full=True))
    for i in range(2, 6):
        hub.publish(update(1, {"g2": f"b{i}"}))
    missed = hub.subscribe(Subscription(hub, 1), 3)
    assert [m.id for m in missed] == [4, 5] and not missed[0].update.full
    assert hub.subscribe(Subscription(hub, 1), 5) == []  # current: nothing to send
    for last in (None, 99):  # a new screen, or one from before the server restarted
        (whole,) = hub.subscribe(Subscription(hub, 1), last)
        assert whole.update.full and whole.id == 5 and whole.update.games == {"g1": "a1", "g2": "b5"}
    for i in range(6, 100):  # past the ring: the whole state
        hub.publish(update(1, {"g2": f"b{i}"}))
    (whole,) = hub.subscribe(Subscription(hub, 1), 3)
    assert whole.update.full and whole.id == 99


def test_a_game_gone_leaves_the_state_and_a_full_update_replaces_it():
    hub = Hub()
    hub.publish(update(1, {"g1": "a", "g2": "b"}, full=True))
    hub.publish(update(1, {"g2": None}, order=("g1",)))
    assert hub.full(1).update.games == {"g1": "a"}  # type: ignore[union-attr]
    hub.publish(update(1, {"g3": "c"}, order=("g3",), full=True))
    assert hub.full(1).update.games == {"g3": "c"}  # type: ignore[union-attr]


def test_a_brokers_message_not_newer_than_the_rooms_latest_is_dropped():
    hub = Hub()
    assert hub.publish(update(1, {"g1": "a"}, full=True), 7) is not None
    assert hub.publish(update(1, {"g1": "old"}), 7) is None
    assert hub.publish(update(1, {"g1": "older"}), 6) is None
    assert hub.full(1).update.games == {"g1": "a"} and hub.latest(1) == 7  # type: ignore[union-attr]


def test_what_a_screen_has_is_its_last_event_id_else_its_pages():
    assert last_seen("7", "3") == 7
    assert last_seen(None, "3") == 3
    assert last_seen("x", None) is None


def test_last_event_id_is_a_number_or_nothing():
    assert last_event_id("12") == 12
    assert last_event_id(None) is None
    assert last_event_id("x1") is None
    assert last_event_id("") is None
