"""R51 rake schedules, caps by players dealt in and rake per dealer down on the services, on every
configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.actors import console
from roomops.dealers import roster
from roomops.dealers.models import DealerSpell
from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.floor.unit import UnitOfWork
from roomops.games.services import update_game
from roomops.hands.services import record_hand
from roomops.ledger import rake
from roomops.ledger import services as ledger
from roomops.ledger.models import DealerDown, LedgerEntry
from roomops.rooms.staff import create_staff
from tests.factories import PASSWORD, Room_
from tests.services.helpers import audits, refused
from tests.services.ledger_helpers import seated_holds
from tests.units import act, sweep

SCHEDULE = [{"pot": 2000, "rake": 100}, {"pot": 4000, "rake": 200}, {"pot": 6000, "rake": 300}]
CAPS = [{"players": 2, "cap": 200}, {"players": 6, "cap": 300}]


def _hands(room, session, now, table, n: int, start: int = 1) -> None:
    for no in range(start, start + n):
        act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=no,
            high_card_seat=1 if no == 1 else None)


@pytest.fixture()
def downs(room, session, now):
    """A game raked per dealer down, 5% capped at 5.00 a pot (1.00 chip); 8 players; 5 hands."""
    game, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=500,
                                   rake_cap=500, rake_recorded="per_down")
    _hands(room, session, now, table, 5)
    return game, table


def _down(unit: UnitOfWork, table, first, last, amount, **kw):
    return rake.record_down(unit, table.id, first_hand_no=first, last_hand_no=last,
                            rake=amount, **kw)


def _rakes(session) -> int:
    return session.scalar(select(func.count()).select_from(LedgerEntry).where(LedgerEntry.kind == "rake"))


# ---- a schedule per pot increment and caps by players dealt in ---------------------------------


@pytest.fixture()
def scheduled(room, session, now):
    """Rake by schedule, cap 2.00 from 2 players dealt and 3.00 from 6 (8 dealt in: 3.00)."""
    game, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_cap=0,
                                   rake_schedule=SCHEDULE, rake_caps_by_players=CAPS)
    _hands(room, session, now, table, 1)
    return game, table


def test_r51_a_schedule_rakes_the_step_for_the_pot_capped_by_players_dealt(room, session, now,
                                                                              scheduled):
    table = scheduled[1]
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 1, pot=3999, flop=True,
                        rake=200), "R51", "schedule", error=Conflict)
    row = act(session, room.sup, now, rake.record_rake, table.id, 1, pot=9000, flop=True, rake=300)
    assert row.amount == -300 and row.hand_id is not None and row.down_id is None
    [event] = audits(session, "ledger.rake")
    assert (event.detail["players"], event.detail["max_rake"]) == (8, 300)  # from the hand


def test_r51_the_players_dealt_in_come_from_the_hand(room, session, now, scheduled):
    table = scheduled[1]
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 1, pot=9000, flop=True,
                        rake=300, players=3), "R51", "dealt to 8", error=Conflict)
    assert _rakes(session) == 0


def test_r51_no_flop_no_drop_under_a_schedule(room, session, now, scheduled):
    table = scheduled[1]
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 1, pot=9000, flop=False,
                        rake=100), "R51", "no flop", error=Conflict)


# ---- per dealer down --------------------------------------------------------------------------


def test_r51_a_down_is_a_rake_row_naming_its_hands_dealer_and_recorder(room, session, now, downs):
    game, table = downs
    dealer = room.actor("dealer")
    row = act(session, dealer, now, _down, table, 1, 5, 2500, key="d1")
    down = session.get_one(DealerDown, row.down_id)
    assert (row.kind, row.amount, row.table_id, row.game_id, row.hand_id) == (
        "rake", -2500, table.id, game.id, None)
    assert (down.table_id, down.first_hand_no, down.last_hand_no, down.dealer_id,
            down.recorded_by_id, down.recorded_at) == (table.id, 1, 5, dealer.staff_id,
                                                       dealer.staff_id, now)
    [event] = audits(session, "ledger.rake")
    assert event.detail["down_id"] == down.id and event.detail["max_rake"] == 2500
    assert event.detail["dealt_from"] == event.detail["dealt_until"] == now.isoformat()
    assert act(session, dealer, now, _down, table, 1, 5, 2500, key="d1").id == row.id  # a retry
    assert _rakes(session) == 1
    assert rake.next_unraked(session, table.id) == 6


@pytest.mark.parametrize("first,last,amount,error,word", [
    (1, 5, 2600, Conflict, "2500"),     # over 5 hands x the 5.00 cap
    (1, 5, 150, Invalid, "smallest chip"),
    (1, 6, 100, NotFound, "last hand: 5"),
    (0, 2, 100, Invalid, "from 1"),
    (3, 2, 100, Invalid, "first hand"),
])
def test_r51_refused_downs(room, session, now, downs, first, last, amount, error, word):
    table = downs[1]
    refused(lambda: act(session, room.sup, now, _down, table, first, last, amount),
            None if error is NotFound else "R51", word, error=error)
    assert _rakes(session) == 0


def test_r51_an_uncapped_game_bounds_no_down(room, session, now):
    _g, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=0,
                                 rake_recorded="per_down")
    _hands(room, session, now, table, 2)
    assert act(session, room.sup, now, _down, table, 1, 2, 100000).amount == -100000


def test_r51_the_caps_of_a_down_follow_each_hands_players_dealt(room, session, now):
    _g, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_cap=0,
                                 rake_caps_by_players=CAPS, rake_bp=1000,
                                 rake_recorded="per_down")
    _hands(room, session, now, table, 2)  # 8 dealt in each: 3.00 each
    refused(lambda: act(session, room.sup, now, _down, table, 1, 2, 700), "R51", "600", error=Conflict)
    assert act(session, room.sup, now, _down, table, 1, 2, 600).amount == -600


def test_r51_a_hand_is_raked_once_across_downs(room, session, now, downs):
    table = downs[1]
    act(session, room.sup, now, _down, table, 1, 3, 500)
    refused(lambda: act(session, room.sup, now, _down, table, 3, 5, 500), "R51", "hands 1 to 3",
            error=Conflict)
    assert act(session, room.sup, now, _down, table, 4, 5, 500).down_id is not None
    assert rake.next_unraked(session, table.id) == 6


def test_r51_reversing_a_downs_rake_frees_its_hands(room, session, now, downs):
    table = downs[1]
    first = act(session, room.sup, now, _down, table, 1, 5, 2000)
    assert rake.next_unraked(session, table.id) == 6
    reversal = act(session, room.actor("admin"), now, ledger.reverse, first.id, "counted the drop box wrong")
    assert (reversal.down_id, reversal.amount) == (first.down_id, 2000)
    assert rake.next_unraked(session, table.id) == 1
    again = act(session, room.sup, now, _down, table, 1, 5, 2500)
    assert again.down_id != first.down_id and again.amount == -2500


def test_r51_the_tables_downs_newest_first_with_their_rake_and_whether_they_stand(room, session,
                                                                                   now, downs):
    table = downs[1]
    dealer = room.actor("dealer")
    first = act(session, dealer, now, _down, table, 1, 2, 1000)
    act(session, room.actor("admin"), now, ledger.reverse, first.id, "counted the drop box wrong")
    act(session, room.sup, now, _down, table, 1, 3, 1200, dealer_id=dealer.staff_id)
    act(session, dealer, now, _down, table, 4, 5, 800)
    lines = rake.downs_at(session, dealer, table.id)
    assert [(d.first_hand_no, d.last_hand_no, d.rake, d.standing) for d in lines] == [
        (4, 5, 800, True), (1, 3, 1200, True), (1, 2, 1000, False)]
    assert lines[1].dealer_id == dealer.staff_id and lines[1].recorded_by_id == room.sup.staff_id
    assert lines[2].entry_id == first.id
    assert [d.first_hand_no for d in rake.downs_at(session, dealer, table.id, limit=1)] == [4]
    other = Room_(session, now, slug="other")
    refused(lambda: rake.downs_at(session, other.sup, table.id), None, error=NotFound)  # own room


def test_r51_per_down_and_per_hand_games_refuse_the_other(room, session, now, downs):
    game, table = downs
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 1, pot=10000, flop=True,
                        rake=100), "R51", "per dealer down", error=Conflict)
    act(session, room.sup, now, update_game, game.id, rake_recorded="per_hand")
    refused(lambda: act(session, room.sup, now, _down, table, 1, 2, 100), "R51", "hand by hand",
            error=Conflict)


def test_r51_a_hand_raked_by_itself_is_not_raked_again_in_a_down(room, session, now, downs):
    """The policy changed between: the hands already raked one by one stay out of any down."""
    game, table = downs
    act(session, room.sup, now, update_game, game.id, rake_recorded="per_hand")
    act(session, room.sup, now, rake.record_rake, table.id, 2, pot=10000, flop=True, rake=500)
    act(session, room.sup, now, update_game, game.id, rake_recorded="per_down")
    refused(lambda: act(session, room.sup, now, _down, table, 1, 3, 500), "R51", "hand 2",
            error=Conflict)
    assert rake.next_unraked(session, table.id) == 3
    down = act(session, room.sup, now, _down, table, 3, 5, 500)
    act(session, room.sup, now, update_game, game.id, rake_recorded="per_hand")
    refused(lambda: act(session, room.sup, now, rake.record_rake, table.id, 4, pot=10000, flop=True,
                        rake=500), "R51", "dealer down", error=Conflict)
    assert down.amount == -500


def test_r51_r61_who_records_a_down_and_for_whom(room, session, now, downs):
    table = downs[1]
    dealer, sup = room.actor("dealer"), room.sup
    refused(lambda: act(session, room.actor("cashier"), now, _down, table, 1, 2, 100), "R61",
            error=Forbidden)
    refused(lambda: act(session, dealer, now, _down, table, 1, 2, 100, dealer_id=sup.staff_id), "R61",
            "their own", error=Conflict)
    cashier = room.actor("cashier").staff_id
    refused(lambda: act(session, sup, now, _down, table, 1, 2, 100, dealer_id=cashier), "R51",
            "does not deal", error=Conflict)
    row = act(session, sup, now, _down, table, 1, 2, 100, dealer_id=dealer.staff_id)
    down = session.get_one(DealerDown, row.down_id)
    assert (down.dealer_id, down.recorded_by_id) == (dealer.staff_id, sup.staff_id)


def test_r52_a_key_reused_for_another_down_is_refused(room, session, now, downs):
    table = downs[1]
    act(session, room.sup, now, _down, table, 1, 2, 100, key="k")
    refused(lambda: act(session, room.sup, now, _down, table, 3, 4, 100, key="k"), "R52",
            error=Conflict)


# ---- the rake of a down of the roster (R63) ------------------------------------------------------


def test_r51_r63_a_down_s_rake_names_the_roster_s_down_and_is_its_dealer_s(room, session, now):
    """Where the room runs its rotation, a dealer down's hands are of one down of the roster: its
    rake names that down and is that dealer's; hands of two downs are refused."""
    room.room.dealer_rotation = True
    _game, table, _h = seated_holds(room, session, now, fee_kind="rake", rake_bp=500, rake_cap=500,
                                    rake_recorded="per_down")
    dealer = room.staff["dealer"]
    other = act(session, console(room.room.id), now, create_staff, username="dee", password=PASSWORD,
                roles=("dealer",), display_name="Dee Nolan")
    act(session, room.sup, now, roster.check_in, dealer.id)
    _hands(room, session, now, table, 3)
    act(session, room.sup, now, roster.check_in, other.id)
    sweep(session, now + timedelta(minutes=30))  # Dee Nolan pushes
    _hands(room, session, now + timedelta(minutes=31), table, 2, start=4)
    first = session.scalar(select(DealerSpell).where(DealerSpell.dealer_id == dealer.id))
    refused(lambda: act(session, room.sup, now, _down, table, 2, 5, 100), "R51", "more than one down",
            error=Conflict)
    refused(lambda: act(session, room.sup, now, _down, table, 4, 5, 100, dealer_id=dealer.id), "R51",
            "Dee Nolan's down", error=Conflict)
    act(session, room.sup, now, _down, table, 1, 3, 100)  # the down's dealer, named by the roster
    down = session.scalar(select(DealerDown))
    assert (down.spell_id, down.dealer_id) == (first.id, dealer.id)
