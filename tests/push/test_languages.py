"""Issue 21: the pushed board in each language its screens read. A German page's stream address
carries its language; the publisher draws a changed game once per language read (never per
screen) and each channel gets its own language: a German stream German games, an English one
English games. Issue 41: a language no screen reads is not drawn, embedded or through Redis,
where the push servers say which languages their pages read."""

from __future__ import annotations

import aiohttp
import redis
import redis.asyncio as aioredis

from roomops.lists import services as lists
from roomops.push import alive
from roomops.push.brokers import SHOWN_SECONDS, Keys, LocalBroker, RedisBroker
from roomops.push.hub import Hub, Subscription
from roomops.push.messages import Update, parse
from roomops.runtime import ext
from tests.push.conftest import REDIS, events
from tests.push.loops import in_own_loop
from tests.push.test_push_server import next_event, serve


def join(app, session, room, now, game, first):
    with app.app_context(), ext(app).unit_of_work(session, room.sup, now) as uow:
        uow.run(lists.join, player_id=room.player(now, first).id, game_id=game.id)
        uow.commit()


def test_issue21_a_german_page_offers_the_german_stream_which_sends_german_games(
        client, push, app, room, session, now):
    page = client.get("/board/main", headers={"Accept-Language": "de"}).text
    assert 'data-events-url="/board/main/events?last=0&amp;lang=de"' in page  # nothing sent yet
    assert "de" in push.publisher.languages  # the page asked: the publisher draws German now
    with app.app_context():
        assert push.publisher.publish_changes() == 1  # German, whole; English had no change
    assert push.hub.latest(room.room.id, "de") == 1
    german = client.get("/board/main/events?lang=de", buffered=False)
    english = client.get("/board/main/events", buffered=False)
    de_stream, en_stream = iter(german.response), iter(english.response)
    next(de_stream), next(en_stream)  # retry:
    key = f"g{push.game.id}"
    ((_, de_whole),) = events([next(de_stream)])
    ((_, en_whole),) = events([next(en_stream)])
    assert "Warteliste" in de_whole["games"][key] and "Waiting list" in en_whole["games"][key]
    next(de_stream), next(en_stream)  # the server's clock

    join(app, session, room, now, push.game, "Ann")
    with app.app_context():
        assert push.publisher.publish_changes() == 2  # the room, once per language read
    ((_, de_change),) = events([next(de_stream)])
    ((_, en_change),) = events([next(en_stream)])
    assert "Ann P." in de_change["games"][key] and "Niemand wartet." not in de_change["games"][key]
    assert "Warteliste" in de_change["games"][key] and "Waiting list" not in de_change["games"][key]
    assert "Waiting list" in en_change["games"][key] and "Warteliste" not in en_change["games"][key]
    german.close()
    english.close()


def test_issue21_a_changed_game_is_drawn_once_per_language_not_per_screen(app, push, room, session, now):
    sent: list[Update] = []

    class Seen(LocalBroker):
        def send(self, update: Update, slug: str) -> None:
            sent.append(update)

    push.publisher.broker = Seen(push.hub)
    for lang in ("it", "de", "it"):
        push.publisher.want(lang)
    assert push.publisher.languages == ("en", "it", "de")
    join(app, session, room, now, push.game, "Bea")
    with app.app_context():
        push.publisher.publish_changes()
    assert sorted(u.lang for u in sent) == ["de", "en", "it"]
    by_lang = {u.lang: u for u in sent}
    assert by_lang["it"].full and by_lang["de"].full and not by_lang["en"].full  # new channels whole
    html = {lang: next(iter(u.games.values())) for lang, u in by_lang.items()}
    assert "Lista d'attesa" in html["it"] and "Warteliste" in html["de"] and "Waiting list" in html["en"]


def test_issue21_a_stream_in_a_language_not_supported_is_a_422(client, push):
    assert client.get("/board/main/events?lang=fr").status_code == 422


def test_issue21_a_rooms_languages_are_channels_of_their_own():
    hub = Hub()
    english, german = Subscription(hub, 1), Subscription(hub, 1, "de")
    hub.subscribe(english, None)
    hub.subscribe(german, None)
    hub.publish(Update(1, 1000, ("g1",), {"g1": "<p>Warteliste</p>"}, full=True, lang="de"))
    got = german.next(0.1)
    assert got is not None and got.update.games == {"g1": "<p>Warteliste</p>"}
    assert english.next(0.01) is None  # the English screen is sent no German
    assert hub.latest(1, "de") == 1 and hub.latest(1) == 0
    whole = hub.full(1, "de")
    assert whole is not None and whole.update.lang == "de" and hub.full(1) is None
    # through Redis the channel's name says the language; the payload is unchanged
    named = Keys("roomops:push")
    assert named.room_of(named.channel(7, "it")) == (7, "it")
    assert parse(3, got.payload(), "de").update == got.update and "lang" not in got.payload()


def test_issue21_the_push_server_serves_each_languages_channel(app, push, keys, room, session, now):
    """With Redis (skipped without one): the web process publishes each language on its own
    channel; the push server streams ?lang=de in German, no lang in English."""
    push.publisher.broker = RedisBroker(REDIS, keys)
    push.publisher.want("de")
    join(app, session, room, now, push.game, "Cleo")
    with app.app_context():
        assert push.publisher.publish_changes() == 2
    key = f"g{push.game.id}"

    async def run() -> None:
        runner, base = await serve(keys)
        try:
            async with aiohttp.ClientSession() as http:
                german = await http.get(f"{base}/board/main/events?lang=de")
                english = await http.get(f"{base}/board/main/events")
                _, de_whole = await next_event(german)
                _, en_whole = await next_event(english)
                assert "Warteliste" in de_whole["games"][key]  # type: ignore[index]
                assert "Waiting list" in en_whole["games"][key]  # type: ignore[index]
                assert (await http.get(f"{base}/board/main/events?lang=fr")).status == 422
                german.close()
                english.close()
        finally:
            await runner.cleanup()

    in_own_loop(run)


def drawn(push, app, session, room, now, first):
    """The languages a change is sent in, after ``first`` joins the game."""
    sent: list[str] = []
    send = push.publisher.broker.send
    push.publisher.broker.send = lambda update, slug: (sent.append(update.lang), send(update, slug))
    join(app, session, room, now, push.game, first)
    with app.app_context():
        push.publisher.publish_changes()
    del push.publisher.broker.send
    return sorted(sent)


def test_issue41_embedded_a_language_is_drawn_while_a_stream_reads_it(app, push, room, session, now):
    de = Subscription(push.hub, room.room.id, "de")
    assert drawn(push, app, session, room, now, "Ann") == ["en"]  # no German screen: English alone
    push.publisher.want("de")  # a German page drawn, its stream opened
    push.hub.subscribe(de, None)
    assert drawn(push, app, session, room, now, "Bea") == ["de", "en"]
    assert drawn(push, app, session, room, now, "Cleo") == ["de", "en"]  # the stream reads it still
    de.close()
    assert drawn(push, app, session, room, now, "Dan") == ["en"]
    push.hub.subscribe(de, None)  # read again: the room sent whole first, then its changes
    with app.app_context():
        push.publisher.publish_changes()
    message = de.next(0)
    while (later := de.next(0)) is not None:
        message = later
    assert message is not None and message.update.full and "Dan P." in str(message.update.games)


def test_issue41_through_redis_a_language_is_drawn_while_a_push_servers_page_reads_it(
        app, push, keys, room, session, now):
    broker = push.publisher.broker = RedisBroker(REDIS, keys)
    other = RedisBroker(REDIS, keys)  # another web process's
    assert broker.shown() == set()
    assert drawn(push, app, session, room, now, "Ann") == ["en"]
    other.want("it")  # a page drawn in Italian on the other web process
    assert broker.shown() == {"it"}
    assert drawn(push, app, session, room, now, "Bea") == ["en", "it"]

    async def beat() -> None:  # a push server whose pages read German
        client = aioredis.Redis.from_url(REDIS)
        await alive.tell(client, keys, {"de"})
        await client.aclose()

    in_own_loop(beat)
    assert broker.shown() == {"de", "it"} and alive.serving(REDIS, keys.prefix)
    assert 0 < redis.Redis.from_url(REDIS).ttl(keys.shown("de")) <= SHOWN_SECONDS
    assert drawn(push, app, session, room, now, "Cleo") == ["de", "en", "it"]
    redis.Redis.from_url(REDIS).delete(keys.shown("it"), keys.shown("de"))  # their time ran out
    assert drawn(push, app, session, room, now, "Dan") == ["en"]


def test_issue41_the_hub_knows_the_languages_its_screens_read():
    hub = Hub()
    assert hub.languages() == set()
    german, english = Subscription(hub, 1, "de"), Subscription(hub, 2)
    hub.subscribe(german, None)
    hub.subscribe(english, None)
    assert hub.languages() == {"de", "en"}
    german.close()
    assert hub.languages() == {"en"}
