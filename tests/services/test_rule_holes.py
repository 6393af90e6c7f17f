"""Issue 20's rule holes on the services, on every configured database: a seat lost to the room
(R17, R19, R24, R26) feeds the return rule (R27) as leaving does. The clock is moved, never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.absences import expiry
from roomops.absences import services as absences
from roomops.errors import Invalid
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.rooms.models import Player
from roomops.rooms.services import add_player, bar_pair, update_policy
from roomops.rooms.twins import LikelyTwin
from roomops.seating import moves, offers, returns, seats, snapshot
from roomops.seating.suggest import apart
from tests.factories import Room_
from tests.services.helpers import audits, full_game, live_offer, refused
from tests.units import act, sweep

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
MIN_BUYIN = 10000  # tests.factories.GAME_DEFAULTS


def _seated(room, session, now, free=0, **policy):
    if policy:
        act(session, room.sup, now, update_policy, **policy)
    game, table = full_game(room, session, now, free=free)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    return game, table, holds


def _back(room, session, at, hold, buy_in):
    """The player sits down again in the seat they lost (nobody else waits for it)."""
    return act(session, room.sup, at, seats.seat_directly, table_id=hold.table_id, seat_no=hold.seat_no,
               player_id=hold.player_id, buy_in=buy_in)


def test_r24_r27_a_break_that_ran_out_sets_the_return_amount_and_names_r24(room, session, now):
    game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 23450)
    sweep(session, absence.deadline)
    session.refresh(holds[0])
    assert (holds[0].outcome, holds[0].leave_amount, holds[0].release_cause) == (
        "released", 23450, "break")
    assert audits(session, "seat.released")[-1].detail["release_cause"] == "break"
    back = absence.deadline + 10 * MIN
    req = returns.requirement(session, room.room, back, holds[0].player_id, game)
    assert (req.minimum, req.left_cause) == (23450, "break")
    refused(lambda: _back(room, session, back, holds[0], 23449), "R27",
            "lost the seat at table 1", "the break ran out, R24", "within 2 h")
    assert _back(room, session, back, holds[0], 23450).buy_in == 23450


def test_r26_r27_picked_up_away_counted_names_r26_and_uncounted_sets_nothing(room, session, now):
    game, _table, holds = _seated(room, session, now, max_away_minutes=45)
    counted = act(session, room.sup, now, absences.mark_away, holds[0].id, stack=30000)
    act(session, room.sup, now, absences.mark_away, holds[1].id)  # not counted: the buy-in is kept
    sweep(session, counted.deadline)
    back = counted.deadline + MIN
    req = returns.requirement(session, room.room, back, holds[0].player_id, game)
    assert (req.minimum, req.left_cause) == (30000, "away")
    assert "away too long, R26" in req.why("UTC", "x")
    session.refresh(holds[1])
    assert (holds[1].release_cause, holds[1].leave_amount) == ("away", None)
    assert audits(session, "seat.released")[-1].detail["leave_amount"] is None
    # like leaving without a count: the normal range (R30)
    assert returns.requirement(session, room.room, back, holds[1].player_id, game) is None


def test_r26_r27_missed_big_blinds_pickup_names_r26(room, session, now):
    game, _table, holds = _seated(room, session, now, max_missed_bb=2)
    act(session, room.sup, now, absences.mark_away, holds[0].id, stack=15000)
    for n in range(2):
        act(session, room.sup, now + n * MIN, expiry.record_missed_big_blind, holds[0].id)
    session.refresh(holds[0])
    assert holds[0].release_cause == "missed_bb"
    req = returns.requirement(session, room.room, now + 5 * MIN, holds[0].player_id, game)
    assert req.minimum == 15000 and "missed big blinds, R26" in req.why("UTC", "x")


def test_r27_a_break_that_ran_out_outside_the_window_sets_nothing(room, session, now):
    game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 23450)
    sweep(session, absence.deadline)
    assert returns.requirement(session, room.room, absence.deadline + 120 * MIN,
                               holds[0].player_id, game) is None


def _must_move(room, session, now, refusal="forced"):
    """T2 (main, one free seat) fed by T1; Fay sat at T1 first."""
    act(session, room.sup, now, update_policy, must_move_refusal=refusal)
    game, main = full_game(room, session, now, free=1, name="2")
    feeder = room.table(now, game, "1")
    fay = room.player(now, "Fay")
    fed = act(session, room.sup, now + MIN, seats.seat_directly, table_id=feeder.id, seat_no=1,
              player_id=fay.id, buy_in=MIN_BUYIN)
    room.room.auto_offer = True
    act(session, room.sup, now + 2 * MIN, moves.set_must_move, feeder.id, main.id)
    return game, fed, live_offer(session, fay.id)


def test_r17_r27_a_forced_refusal_with_a_counted_stack_feeds_the_return_rule(room, session, now):
    game, fed, offer = _must_move(room, session, now)
    assert offer is not None and offer.from_hold_id == fed.id
    act(session, room.sup, now + 3 * MIN, offers.decline, offer.id, stack=41000)
    session.refresh(fed)
    assert (fed.outcome, fed.leave_amount, fed.release_cause) == ("released", 41000, "must_move")
    assert audits(session, "offer.declined")[-1].detail["stack"] == 41000
    req = returns.requirement(session, room.room, now + 10 * MIN, fed.player_id, game)
    assert (req.minimum, req.maximum) == (41000, 41000)  # above the table maximum (R27)
    assert "refused a must-move seat, R17" in req.why("UTC", "x")


def test_r17_a_must_move_call_that_ran_out_counts_no_stack(room, session, now):
    game, fed, offer = _must_move(room, session, now)
    sweep(session, offer.deadline)
    session.refresh(fed)
    assert (fed.outcome, fed.leave_amount, fed.release_cause) == ("released", None, "must_move")
    assert returns.requirement(session, room.room, offer.deadline + S, fed.player_id, game) is None


@pytest.mark.parametrize("refusal", ["skip", "forced"])
def test_r17_a_stack_only_where_a_seat_is_given_up(room, session, now, refusal):
    """R17: with ``skip`` nobody gives up a seat, and a list offer gives up none: a stack is
    refused (nothing is written); a negative one always."""
    _game, fed, offer = _must_move(room, session, now, refusal)
    before = len(audits(session))
    refused(lambda: act(session, room.sup, now + 3 * MIN, offers.decline, offer.id, stack=-1), "R17",
            "negative", error=Invalid)
    if refusal == "skip":
        refused(lambda: act(session, room.sup, now + 3 * MIN, offers.decline, offer.id, stack=100), "R17",
                "forced must-move", error=Invalid)
    assert len(audits(session)) == before and fed.ended_at is None
    assert live_offer(session, fed.player_id).id == offer.id


def test_r17_a_list_offer_declined_with_a_stack_is_refused(room, session, now):
    game, _table, _holds = _seated(room, session, now, free=1)
    room.room.auto_offer = True
    wendy = room.player(now, "Wendy")
    act(session, room.sup, now, lists.join, player_id=wendy.id, game_id=game.id)
    offer = live_offer(session, wendy.id)
    refused(lambda: act(session, room.sup, now + S, offers.decline, offer.id, stack=100), "R17",
            error=Invalid)
    assert live_offer(session, wendy.id).id == offer.id


def test_r19_r27_a_broken_table_player_with_no_seat_left_names_r19(room, session, now):
    game, table, holds = _seated(room, session, now)
    stacks = {holds[0].id: 55000}
    act(session, room.sup, now + MIN, moves.break_table, table.id, stacks)
    session.refresh(holds[0])
    assert (holds[0].leave_amount, holds[0].release_cause) == (55000, "broken")
    req = returns.requirement(session, room.room, now + 2 * MIN, holds[0].player_id, game)
    assert req.minimum == 55000 and "the table was broken with no seat left, R19" in req.why("UTC", "x")


# ---- R23 with R60: a break the rules refuse, granted by a supervisor with a reason -------------


def test_r23_a_refused_break_granted_with_a_reason_is_audited(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    before = len(audits(session))
    refused(lambda: act(session, room.sup, now + MIN, absences.grant_break, holds[0].id, 9000), "R23",
            "continuous play", "a supervisor may grant it with a written reason")
    refused(lambda: act(session, room.sup, now + MIN, absences.grant_break, holds[0].id, 9000, "  "),
            "R23", "written reason", error=Invalid)
    assert len(audits(session)) == before
    absence = act(session, room.sup, now + MIN, absences.grant_break, holds[0].id, 9000,
                  " wife in hospital ")
    assert absence.kind == "break" and absence.deadline == now + MIN + HOUR
    (row,) = audits(session, "break.rules_overridden")
    assert (row.reason, row.actor, row.entity_id) == ("wife in hospital", room.sup.label, holds[0].id)
    assert row.detail["rule"] == "R23" and "continuous play" in row.detail["refused"]
    # the break then runs and runs out like any other (R24)
    assert sweep(session, absence.deadline).released_absences == [absence.id]


def test_r23_an_allowed_break_records_no_override(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 9000, "not needed")
    assert audits(session, "break.rules_overridden") == []


def test_r61_a_dealer_cannot_grant_a_break(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    refused(lambda: act(session, room.actor("dealer"), now + MIN, absences.grant_break, holds[0].id,
                        9000, "the dealer says so"), "R61")


# ---- R10: adding a player the room may already know --------------------------------------------


def test_r10_adding_a_known_name_or_phone_is_refused_with_the_candidates(room, session, now):
    ann = act(session, room.sup, now, add_player, first_name="Ann", last_name="Smith", phone="07700 900123")
    before = (len(audits(session)), session.query(Player).count())
    err = refused(lambda: act(session, room.sup, now, add_player, first_name=" ANN ", last_name="smith"),
                  "R10", "did you mean Ann Smith", error=LikelyTwin)
    assert [t.player.id for t in err.twins] == [ann.id]
    err = refused(lambda: act(session, room.sup, now, add_player, first_name="Annie",
                              phone="+44 7700 900123"), "R10", error=LikelyTwin)
    assert err.twins[0].matched == "phone"
    assert (len(audits(session)), session.query(Player).count()) == before
    twin = act(session, room.sup, now, add_player, first_name="Ann", last_name="Smith",
               create_anyway=True)
    assert twin.id != ann.id
    assert audits(session, "player.added")[-1].detail["twins"] == [ann.id]


def test_r10_a_player_of_another_room_is_no_twin(room, session, now):
    other = Room_(session, now, slug="other")
    act(session, other.sup, now, add_player, first_name="Ann", last_name="Smith")
    assert act(session, room.sup, now, add_player, first_name="Ann", last_name="Smith").id
    assert "twins" not in audits(session, "player.added")[-1].detail


# ---- R15: barring two players who sit at one table ----------------------------------------------


def test_r15_barring_two_seated_together_names_the_later_and_a_seat_elsewhere(room, session, now):
    game, t1, holds = _seated(room, session, now, free=3)  # six seated, sitting down in seat order
    t2 = room.table(now, game, "2")
    act(session, room.sup, now + MIN, bar_pair, holds[4].player_id, holds[1].player_id, "a fight")
    (move,) = apart(session, snapshot.load(session, room.room.id, now + MIN))[game.id]
    assert (move.hold_id, move.barred_from, move.table_id, move.to_table) == (
        holds[4].id, holds[1].player_id, t1.id, t2.id)
    moved = act(session, room.sup, now + 2 * MIN, moves.move_player, move.hold_id, table_id=move.to_table,
                seat_no=move.seat_no, stack=12000)
    assert moved.table_id == t2.id
    assert apart(session, snapshot.load(session, room.room.id, now + 2 * MIN)) == {}
