"""Issue 21, R10, R13, R14: the estimated wait read from the room's history, on every configured
database: what the history read counts, in a fixed number of statements, cached."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from roomops.lists import services as lists
from roomops.seating import offers, seats
from roomops.waits import services as waits
from roomops.waits.model import CALL_BUCKET, hour_of_week
from roomops.waits.shown import shown
from tests.services.helpers import fill_table, live_offer, statements_sent
from tests.units import act

M = timedelta(minutes=1)
UTC_ZONE = ZoneInfo("UTC")


def _history(room, session, now, leaving=2, name="1"):
    """A table opened at ``now`` (a Saturday 20:00, the room on UTC) with 8 seated; ``leaving`` of
    them leave in the first hour; then one waiting player claims a seat and one declines."""
    game = room.game(now)
    table = room.table(now, game, name)
    holds = fill_table(room, session, now, game, table, free=1)
    for i, hold in enumerate(holds[:leaving]):
        act(session, room.sup, now + (10 + i) * M, seats.leave, hold.id, 0)
    ann, bob = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now + 70 * M, lists.join, player_id=ann.id, game_id=game.id)
    act(session, room.sup, now + 71 * M, seats.claim, live_offer(session, ann.id).id, game.min_buyin)
    act(session, room.sup, now + 72 * M, lists.join, player_id=bob.id, game_id=game.id)
    act(session, room.sup, now + 73 * M, offers.decline, live_offer(session, bob.id).id)
    session.flush()
    return game, table


def test_issue21_history_counts_seats_opened_table_hours_and_offers(room, session, now):
    game, _table = _history(room, session, now)
    _tz, tallies = waits.read_tallies(session, room.room.id, now + 120 * M)
    tally = tallies[game.id]
    first, second = hour_of_week(now, UTC_ZONE), hour_of_week(now + 60 * M, UTC_ZONE)
    assert tally.new_seats[first] == 9 and tally.left[first] == 2  # the new table, the two who left
    assert tally.table_hours[first] == 1.0 and tally.table_hours[second] == 1.0
    assert sum(tally.table_hours) == 2.0
    # rebuilt by the hour: 8 sat down and 2 left in the first (its change counted for half of
    # it), Ann sat down in the second
    assert tally.seat_hours[first] == (8 - 2) / 2 and tally.seat_hours[second] == 6 + 1 / 2
    assert (tally.offers, tally.claimed) == (2, 1)  # Ann claimed, Bob declined (a no-show, R22)
    assert (tally.called[0], tally.answered[0]) == (2, 1)  # both called as they joined


def test_issue21_offers_counted_by_how_long_their_player_had_waited(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    holds = fill_table(room, session, now, game, table, free=0)
    cid = room.player(now, "Cid")
    act(session, room.sup, now, lists.join, player_id=cid.id, game_id=game.id)
    act(session, room.sup, now + 40 * M, seats.leave, holds[0].id, 0)  # Cid is called after 40 minutes
    act(session, room.sup, now + 41 * M, offers.decline, live_offer(session, cid.id).id)
    session.flush()
    tally = waits.read_tallies(session, room.room.id, now + 60 * M)[1][game.id]
    assert tally.called[40 // CALL_BUCKET] == 1 and sum(tally.called) == 1 and tally.claimed == 0


def test_issue21_fitted_rate_of_the_hour_is_above_a_quiet_hour(room, session, now):
    game, _table = _history(room, session, now, leaving=4)
    history = waits.read_history(session, room.room.id, now + 120 * M)
    rates = history.rates(game.id)
    busy, quiet = hour_of_week(now, UTC_ZONE), hour_of_week(now + 120 * M, UTC_ZONE)
    assert rates.leave[busy] > rates.leave[quiet] and rates.new[busy] > rates.new[quiet]
    assert 0 < rates.show < 1
    assert history.early  # 4 players left: too little history for more than an early estimate (R10)


def test_issue21_history_read_is_two_statements_whatever_its_size(room, session, now, connection):
    _history(room, session, now)
    small = statements_sent(connection, lambda: waits.read_history(session, room.room.id, now + 2 * 60 * M))
    later = now + 3 * 60 * M
    for t in range(3):
        _history(room, session, later + t * 10 * M, name=f"x{t}")
    large = statements_sent(connection, lambda: waits.read_history(session, room.room.id, later + 3 * 60 * M))
    assert len(small) == len(large) == 2


def test_issue21_cache_reads_history_once_per_ttl(room, session, now, connection):
    game, _table = _history(room, session, now)
    cache = waits.WaitsCache()
    at = now + 2 * 60 * M
    first = statements_sent(connection, lambda: waits.typical_wait(session, cache, room.room.id, game.id, at))
    again = statements_sent(connection, lambda: waits.typical_wait(session, cache, room.room.id, game.id,
                                                                   at + M))
    assert (len(first), len(again), cache.reads) == (3, 1, 1)
    waits.typical_wait(session, cache, room.room.id, game.id, at + waits.TTL)
    assert cache.reads == 2


def test_r13_estimate_for_entry_grows_with_places_ahead(room, session, now, connection):
    game, _table = _history(room, session, now)
    fill_table(room, session, now + 80 * M, game, room.table(now + 80 * M, game, "2"), free=0, prefix="T")
    entries = [act(session, room.sup, now + (90 + i) * M, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(room.players(now, 5, "W"))]
    session.flush()
    cache = waits.WaitsCache()
    at = now + 100 * M
    cache.history(session, room.room.id, at)
    sent = statements_sent(connection, lambda: waits.estimate_for_entry(session, cache, entries[4].id, at))
    assert len(sent) <= 2  # the entry (unless the session has it), then one statement
    medians = [waits.estimate_for_entry(session, cache, e.id, at).median for e in entries]
    assert medians == sorted(medians) and medians[0] < medians[-1]
    # the first two were called to table 1's free seats (R20): two ahead of the last, not four
    assert [live_offer(session, e.player_id) is not None for e in entries] == [True, True] + [False] * 3
    assert waits.estimate_at(session, cache, room.room.id, game.id, 2, at).median == medians[-1]
    act(session, room.sup, at, lists.remove, entries[4].id, "gone home")
    assert waits.estimate_for_entry(session, cache, entries[4].id, at) is None


def test_r80_the_wait_shown_at_joining_is_kept_on_the_entry(room, session, now):
    """R10-R14, R80: each join keeps the wait its player was shown, in whole minutes, to be scored
    against the real one; the further down the list, the longer; nothing with no table running."""
    game, _table = _history(room, session, now)
    fill_table(room, session, now + 80 * M, game, room.table(now + 80 * M, game, "2"), free=0, prefix="T")
    at = now + 90 * M
    entries = [act(session, room.sup, at + i * M, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(room.players(now, 4, "W"))]
    session.flush()
    kept = [(e.shown_low, e.shown_median, e.shown_high) for e in entries]
    cache = waits.WaitsCache()
    # the first two were called to table 1's free seats (R20): one ahead of the last
    expected = shown(waits.estimate_at(session, cache, room.room.id, game.id, 1, at + 3 * M))
    assert kept[-1] == (expected.low, expected.median, expected.high)
    assert all(low is not None and low <= median for low, median, _high in kept)
    assert kept[0][1] < kept[-1][1]  # three more ahead (R13)
    quiet = room.game(now, variant="Omaha")  # no table running: no estimate shown, none kept
    entry = act(session, room.sup, at, lists.join, player_id=room.player(now, "Cy").id, game_id=quiet.id)
    session.flush()
    assert (entry.shown_low, entry.shown_median, entry.shown_high) == (None, None, None)


def test_r20_a_called_entry_is_not_ahead_its_seat_is_held(room, session, now):
    """R13, R20: a player already called has a seat held for them, not one still to open: those
    behind wait as if they were not there."""
    game, _table = _history(room, session, now)  # its table has two seats free: two are called
    at = now + 90 * M
    entries = [act(session, room.sup, at + i * M, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(room.players(now, 3, "C"))]
    session.flush()
    assert [live_offer(session, e.player_id) is not None for e in entries] == [True, True, False]
    cache, later = waits.WaitsCache(), at + 3 * M
    nobody_ahead = waits.estimate_at(session, cache, room.room.id, game.id, 0, later)
    assert nobody_ahead != waits.estimate_at(session, cache, room.room.id, game.id, 2, later)
    assert waits.estimate_for_entry(session, cache, entries[2].id, later) == nobody_ahead
