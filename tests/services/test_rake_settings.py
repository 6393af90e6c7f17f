"""R51 rake settings on the services, on every configured database: a percent with decimals, the
game's smallest chip, one chip at least, a schedule in a limit game, and the most rake a pot
allows as the dealer's screen asks for it before the rake is typed."""

from __future__ import annotations

import pytest

from roomops.errors import Conflict, Forbidden, Invalid
from roomops.games.services import update_game
from roomops.hands.services import record_hand
from roomops.ledger import rake
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act

SCHEDULE = [{"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 200}, {"pot": 6000, "rake": 300}]


def _raked(room, session, now, **fields):
    """A raked game (unless ``fields`` say otherwise) with 8 players dealt in hand 1 at its table."""
    _game, table, _h = seated_holds(room, session, now, **{"fee_kind": "rake", **fields})
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    return table


def _rake(room, session, now, table, pot, amount):
    return act(session, room.actor("dealer"), now, rake.record_rake, table.id, 1, pot=pot, flop=True,
               rake=amount)


def test_r51_a_percent_with_decimals_in_the_games_smallest_chip(room, session, now):
    """5.5% in 0.25 chips: a pot of 100.00 gives 5.50; 5.75 is over it, 5.60 is not whole chips."""
    table = _raked(room, session, now, rake_bp=550, rake_cap=0, smallest_chip=25)
    err = refused(lambda: _rake(room, session, now, table, 10000, 575), "R51", "5.5%",
                  error=Conflict)
    assert (err.amounts["most"], err.amounts["chip"]) == (550, 25)
    refused(lambda: _rake(room, session, now, table, 10000, 560), "R51", "smallest chip",
            error=Invalid)
    assert _rake(room, session, now, table, 10000, 550).amount == -550


def test_r51_a_game_opened_without_a_smallest_chip_takes_its_small_blind(room, session, now):
    game, _t, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=500)
    assert game.smallest_chip == game.small_blind and game.rake_min_one_chip is False


@pytest.mark.parametrize("one_chip,allowed", [(True, True), (False, False)])
def test_r51_one_chip_at_least_is_the_games_setting(room, session, now, one_chip, allowed):
    """5% of a 10.00 pot is 0.50, under the 1.00 chip: one chip with the rule, nothing without."""
    table = _raked(room, session, now, rake_bp=500, rake_cap=500, rake_min_one_chip=one_chip)
    if allowed:
        assert _rake(room, session, now, table, 1000, 100).amount == -100
    else:
        refused(lambda: _rake(room, session, now, table, 1000, 100), "R51", error=Conflict)


def test_r51_a_schedule_rakes_a_limit_game_as_any_other(room, session, now):
    table = _raked(room, session, now, variant="Fixed Limit Hold'em", rake_schedule=SCHEDULE)
    refused(lambda: _rake(room, session, now, table, 3999, 200), "R51", "schedule", error=Conflict)
    assert _rake(room, session, now, table, 4000, 200).amount == -200


def test_r51_the_rake_limit_shown_before_the_rake_is_typed(room, session, now):
    """The most for the pot with the cap for the hand's 8 players dealt in, as record_rake allows."""
    table = _raked(room, session, now, rake_bp=1000, rake_cap=200,
                   rake_caps_by_players=[{"players": 6, "cap": 300}])
    dealer = room.actor("dealer")
    limit = rake.rake_limit(session, dealer, table.id, 1, pot=10000)
    assert (limit.most, limit.cap, limit.players, limit.smallest_chip) == (300, 300, 8, 100)
    assert rake.rake_limit(session, dealer, table.id, 1, pot=1999).most == 100
    no_flop = rake.rake_limit(session, dealer, table.id, 1, pot=10000, flop=False)
    assert (no_flop.most, no_flop.no_drop, limit.no_drop) == (0, True, False)
    refused(lambda: _rake(room, session, now, table, 10000, 400), "R51", error=Conflict)
    assert _rake(room, session, now, table, 10000, limit.most).amount == -300


def test_r51_r61_the_rake_limit_needs_the_deal_right_and_a_raked_game(room, session, now):
    table = _raked(room, session, now, rake_bp=500)
    refused(lambda: rake.rake_limit(session, room.actor("cashier"), table.id, 1, pot=100), "R61",
            error=Forbidden)
    refused(lambda: rake.rake_limit(session, room.sup, table.id, 1, pot=-1), "R51", error=Invalid)
    plain = _raked(room, session, now, name="2", fee_kind="none")
    refused(lambda: rake.rake_limit(session, room.sup, plain.id, 1, pot=100), "R51", "not raked",
            error=Conflict)


def test_r6_r51_the_rake_settings_change_with_the_conditions(room, session, now):
    game, _t, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=500)
    act(session, room.sup, now, update_game, game_id=game.id, rake_bp=525, smallest_chip=25,
        rake_min_one_chip=True)
    assert (game.rake_bp, game.smallest_chip, game.rake_min_one_chip) == (525, 25, True)
    [event] = audits(session, "game.changed")
    assert event.detail["before"] == {"rake_bp": 500, "smallest_chip": 100, "rake_min_one_chip": False}
