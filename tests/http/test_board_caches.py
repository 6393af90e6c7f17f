"""The board's caches are sized for the deployment's open games (``roomops.kept.Tally``,
issue 21): a group with more games than a cache's least size keeps every room's games cached, so
the all-rooms rounds of its boards draw nothing twice."""

from __future__ import annotations

from roomops.board.render import LANGUAGES
from roomops.board.views import CACHE, ROWS
from roomops.kept import GAMES, HEADROOM, Kept, Tally
from tests.factories import Room_

ROOMS, GAMES_A_ROOM, LEAST = 4, 5, 8  # 20 games: more than the caches' least size here


def _boards(client, slugs):
    for slug in slugs:
        assert client.get(f"/board/{slug}").status_code == 200


def test_more_rooms_than_the_least_size_keep_every_game_cached_across_two_rounds(app, client, session,
                                                                                 now):
    rows, fragments = app.extensions[ROWS], app.extensions[CACHE]
    rows.least = fragments.least = LEAST  # as if the deployment outgrew the old fixed size
    slugs = [f"room{n}" for n in range(ROOMS)]
    for slug in slugs:
        room = Room_(session, now, slug=slug)
        for g in range(GAMES_A_ROOM):
            room.table(now, room.game(now, small_blind=100 * (g + 1), big_blind=200 * (g + 1)), str(g + 1))
    session.commit()
    _boards(client, slugs)
    assert rows.tally.games == ROOMS * GAMES_A_ROOM
    assert fragments.size == HEADROOM * LANGUAGES * ROOMS * GAMES_A_ROOM
    drawn, read = fragments.misses, rows.misses
    _boards(client, slugs)
    assert (fragments.misses, rows.misses) == (drawn, read)  # every game of every room: a hit
    assert len(rows) == ROOMS * GAMES_A_ROOM


def test_a_cache_grows_with_the_rooms_and_games_and_never_below_its_least():
    tally = Tally()
    cache: Kept[int, int, int] = Kept(bounded=True, per_game=2, tally=tally)
    assert cache.size == GAMES
    tally.seen(1, 150)
    tally.seen(2, 100)
    assert cache.size == HEADROOM * 2 * 250
    tally.seen(2, 40)  # a room's count follows it down
    assert cache.size == HEADROOM * 2 * 190
    tally.seen(1, 0)
    assert cache.size == GAMES


def test_the_waits_cache_keeps_every_room_read_within_its_ttl(monkeypatch, now):
    """More rooms than the 64 it once kept: each read once per TTL; older ones dropped."""
    from roomops.waits import services as waits

    monkeypatch.setattr(waits, "read_history", lambda _s, _room, at: waits.History(
        at, "UTC", {}, None, False))  # no rates: only the times matter here
    cache = waits.WaitsCache()
    for room_id in range(100):
        cache.history(None, room_id, now)
    for room_id in range(100):
        cache.history(None, room_id, now + waits.TTL / 2)
    assert cache.reads == 100 and len(cache) == 100
    cache.history(None, 0, now + waits.TTL)  # the others are of no use now: dropped
    assert cache.reads == 101 and len(cache) == 1
