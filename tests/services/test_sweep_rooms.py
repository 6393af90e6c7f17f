"""The sweep takes each room's due games together (R12, R22, R24, R26): a few statements for all
of them, then each game's open seats offered once, on every configured database."""

from __future__ import annotations

from datetime import datetime, timedelta

from roomops.games.models import Game
from roomops.lists import services as lists
from roomops.rooms.models import Player
from tests.factories import Room_
from tests.services.helpers import full_game, live_offer, statements_sent
from tests.units import act, sweep

S = timedelta(seconds=1)
# What the sweep sends for each game whose seats it offers: the game's seats, the room's barred
# pairs, its seat-change requests, the first entries of its lists, the offers' INSERT (R14, R20)
OFFERING = 5


def called_game(room: Room_, session, now: datetime, name: str) -> tuple[Game, Player, Player]:
    """A game with one open seat, called for its first player, a second one waiting."""
    game, _table = full_game(room, session, now, name=name, small_blind=int(name), big_blind=200)
    first, second = room.player(now, f"First{name}"), room.player(now, f"Second{name}")
    act(session, room.sup, now, lists.join, player_id=first.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=second.id, game_id=game.id)
    return game, first, second


def test_r22_the_sweep_of_more_games_adds_only_their_seats_offered(room, session, now,
                                                                     connection):
    for name in ("1", "2"):
        called_game(room, session, now, name)
    later = now + timedelta(minutes=5)
    for name in ("3", "4", "5", "6"):
        called_game(room, session, later, name)
    claim = timedelta(minutes=room.room.claim_minutes)
    two = statements_sent(connection, lambda: sweep(session, now + claim))
    four = statements_sent(connection, lambda: sweep(session, later + claim))
    assert len(four) - len(two) == 2 * OFFERING, "\n".join(four)


def test_r22_a_call_missed_in_one_game_leaves_the_others_calls_alone(room, session, now):
    """R22: who missed a call is not handed that game's seat straight back; another game of the
    same sweep still calls them in turn."""
    _game_a, ann, bob = called_game(room, session, now, "1")
    game_b, _table = full_game(room, session, now, name="2", small_blind=2, big_blind=200)
    cat, dan = room.player(now, "Cat"), room.player(now, "Dan")
    for i, player in enumerate((cat, ann, dan)):
        act(session, room.sup, now + i * S, lists.join, player_id=player.id, game_id=game_b.id)
    offer_a, offer_b = live_offer(session, ann.id), live_offer(session, cat.id)
    result = sweep(session, max(offer_a.deadline, offer_b.deadline))
    assert sorted(result.expired_offers) == sorted([offer_a.id, offer_b.id])
    for player, seat in ((bob, offer_a), (ann, offer_b)):
        offer = live_offer(session, player.id)
        assert (offer.table_id, offer.seat_no) == (seat.table_id, seat.seat_no)
    assert live_offer(session, dan.id) is None
