"""R2, R23-R26: breaks and away on the services, on every configured database. Deadlines to the
second: the clock is moved, never slept on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from roomops.absences import expiry
from roomops.absences import services as absences
from roomops.absences.models import Absence
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.services import update_policy
from roomops.seating import seats
from tests.services.helpers import audits, full_game, live_offer, refused
from tests.units import act, sweep

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)


def _seated(room, session, now, free=1, **policy):
    """A 9-seat table with ``free`` open seats; the players sat down at ``now``."""
    if policy:
        act(session, room.sup, now, update_policy, **policy)
    game, table = full_game(room, session, now, free=free)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    return game, table, holds


# ---- R23: who may take a break ----------------------------------------------------------------


@pytest.mark.parametrize("after,granted", [(HOUR - 59 * S, False), (HOUR - S, False), (HOUR, True),
                                           (HOUR + S, True)])
def test_r23_break_after_continuous_play_to_the_second(room, session, now, after, granted):
    _game, _table, holds = _seated(room, session, now)
    if granted:
        absence = act(session, room.sup, now + after, absences.grant_break, holds[0].id, 15000)
        assert absence.kind == "break" and absence.deadline == now + after + HOUR  # R23 60 minutes
        assert absence.stack == 15000 and absence.ended_at is None
        row = audits(session, "break.started")[-1]
        assert row.actor == room.sup.label and row.detail["stack"] == 15000
    else:
        refused(lambda: act(session, room.sup, now + after, absences.grant_break, holds[0].id, 15000),
                 "R23", "continuous play")
        assert session.scalar(select(Absence.id)) is None


def test_r23_continuous_play_restarts_when_an_absence_ends(room, session, now):
    _game, _table, holds = _seated(room, session, now, breaks_per_gaming_day=3)
    act(session, room.sup, now + 2 * HOUR, absences.mark_away, holds[0].id)
    act(session, room.sup, now + 2 * HOUR + 5 * MIN, absences.come_back, holds[0].id)
    back = now + 2 * HOUR + 5 * MIN
    refused(lambda: act(session, room.sup, back + HOUR - S, absences.grant_break, holds[0].id, 100),
             "R23", "1 minute to go")
    assert act(session, room.sup, back + HOUR, absences.grant_break, holds[0].id, 100).kind == "break"


def test_r23_one_break_per_gaming_day_until_the_next_day_starts(room, session, now):
    """R2: the room's gaming day starts at 06:00 local (Europe/London: GMT in November)."""
    _game, _table, holds = _seated(room, session, now, timezone="Europe/London")
    act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    act(session, room.sup, now + HOUR + 10 * MIN, absences.come_back, holds[0].id)
    six = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)
    refused(lambda: act(session, room.sup, six - S, absences.grant_break, holds[0].id, 100),
             "R23", "1 of 1 breaks")
    absence = act(session, room.sup, six, absences.grant_break, holds[0].id, 100)
    assert absence.gaming_day.isoformat() == "2026-11-22"


def test_r2_gaming_day_across_spring_forward(room, session):
    """Europe/London goes from GMT to BST at 01:00 UTC on 2026-03-29: that gaming day starts at
    06:00 BST = 05:00 UTC, an hour earlier in UTC than the day before."""
    sat = datetime(2026, 3, 28, 22, 0, tzinfo=UTC)
    _game, _table, holds = _seated(room, session, sat, timezone="Europe/London")
    first = act(session, room.sup, sat + HOUR, absences.grant_break, holds[0].id, 100)
    assert first.gaming_day.isoformat() == "2026-03-28"
    act(session, room.sup, sat + HOUR + MIN, absences.come_back, holds[0].id)
    five = datetime(2026, 3, 29, 5, 0, tzinfo=UTC)
    refused(lambda: act(session, room.sup, five - S, absences.grant_break, holds[0].id, 100), "R23",
             "1 of 1 breaks")
    assert act(session, room.sup, five, absences.grant_break, holds[0].id, 100).gaming_day.isoformat() == (
        "2026-03-29")


def test_r23_players_on_break_per_table(room, session, now):
    _game, _table, holds = _seated(room, session, now, max_breaks_per_table=2)
    at = now + HOUR
    act(session, room.sup, at, absences.grant_break, holds[0].id, 100)
    act(session, room.sup, at, absences.grant_break, holds[1].id, 100)
    refused(lambda: act(session, room.sup, at, absences.grant_break, holds[2].id, 100), "R23", "at most 2")
    act(session, room.sup, at + MIN, absences.come_back, holds[0].id)
    assert act(session, room.sup, at + MIN, absences.grant_break, holds[2].id, 100).kind == "break"


def test_r24_a_break_past_its_deadline_does_not_count_at_the_table(room, session, now):
    _game, _table, holds = _seated(room, session, now, max_breaks_per_table=1)
    act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    refused(lambda: act(session, room.sup, now + 2 * HOUR - S, absences.grant_break, holds[1].id, 100),
             "R23", "at most 1")
    # at the deadline the first break is over (expired), before any sweep
    assert act(session, room.sup, now + 2 * HOUR, absences.grant_break, holds[1].id, 100).kind == "break"


def test_r23_refusals_for_seats_nobody_sits_in(room, session, now):
    game, table, holds = _seated(room, session, now)
    p = room.player(now, "Wait")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    offer = live_offer(session, p.id)
    refused(lambda: act(session, room.sup, now + HOUR, absences.grant_break, offer.id, 100), "R23",
             "is called for Wait Player", "nobody is seated")
    refused(lambda: act(session, room.sup, now + HOUR, absences.grant_break, 999999, 100), "R23")
    act(session, room.sup, now, seats.leave, holds[0].id, 100)
    refused(lambda: act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100), "R23")
    refused(lambda: act(session, room.sup, now + HOUR, absences.mark_away, holds[0].id), "R25")
    assert session.scalar(select(Absence.id)) is None
    assert table.id  # the table is untouched


def test_r23_one_absence_at_a_time(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    act(session, room.sup, now + HOUR, absences.mark_away, holds[0].id)
    refused(lambda: act(session, room.sup, now + 3 * HOUR, absences.grant_break, holds[0].id, 1), "R23",
             "already")
    refused(lambda: act(session, room.sup, now + HOUR, absences.mark_away, holds[0].id), "R25", "already")


def test_r61_a_cashier_cannot_grant_a_break(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    refused(lambda: act(session, room.actor("cashier"), now + HOUR, absences.grant_break, holds[0].id, 1),
             "R61")


# ---- R24: returning in time, or the seat is released by the sweep ----------------------------


@pytest.mark.parametrize("offset,back", [(-59 * S, True), (-S, True), (0 * S, False), (S, False)])
def test_r24_return_before_the_deadline_to_the_second(room, session, now, offset, back):
    _game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    at = absence.deadline + offset
    if back:
        assert act(session, room.sup, at, absences.come_back, holds[0].id).outcome == "returned"
        assert audits(session, "break.returned")[-1].detail["absence_id"] == absence.id
    else:
        refused(lambda: act(session, room.sup, at, absences.come_back, holds[0].id), "R24", "ran out")
        assert absence.ended_at is None


def test_r24_a_break_that_ran_out_says_when_on_the_rooms_clock(room, session, now):
    """The refusal names the moment as the room's clocks show it (New York: 17:00 for 22:00
    UTC), not in UTC (issue 40: words for people)."""
    act(session, room.sup, now, update_policy, timezone="America/New_York")
    _game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    refused(lambda: act(session, room.sup, absence.deadline, absences.come_back, holds[0].id), "R24",
            f"ran out at {absence.deadline.astimezone(ZoneInfo('America/New_York')):%H:%M}: ")


def test_r24_sweep_releases_a_break_with_nobody_at_the_desk(room, session, now):
    game, table, holds = _seated(room, session, now, free=0)
    waiting = room.player(now, "Wanda")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    on_break = holds[3]
    absence = act(session, room.sup, now + HOUR, absences.grant_break, on_break.id, 23450)
    deadline = absence.deadline
    assert sweep(session, deadline - S).released_absences == []
    assert absence.ended_at is None and on_break.ended_at is None
    result = sweep(session, deadline)
    assert result.released_absences == [absence.id]
    session.refresh(on_break)
    session.refresh(absence)
    assert (on_break.outcome, on_break.leave_amount, on_break.ended_at) == ("released", 23450, deadline)
    assert (absence.outcome, absence.ended_at) == ("released", deadline)
    # R24: the player is at the bottom of the game's waiting list...
    order = [e.player_id for e in lists.list_entries(session, game.id, None)]
    assert order == [waiting.id, on_break.player_id]
    # ...and the seat is offered to the next player (R14)
    offer = live_offer(session, waiting.id)
    assert (offer.table_id, offer.seat_no) == (table.id, on_break.seat_no)
    assert live_offer(session, on_break.player_id) is None
    for action in ("break.released", "seat.released", "entry.joined", "offer.made"):
        row = audits(session, action)[-1]
        assert row.actor == "scheduler" and row.at == deadline, action
    assert audits(session, "seat.released")[-1].detail["leave_amount"] == 23450
    # idempotent: a second sweep finds nothing left to do
    assert sweep(session, deadline + S).released_absences == []
    assert len(audits(session, "seat.released")) == 1


def test_r24_released_player_already_waiting_keeps_their_place(room, session, now):
    game, _table, holds = _seated(room, session, now, free=0)
    first = room.player(now, "First")
    act(session, room.sup, now, lists.join, player_id=first.id, game_id=game.id)
    mine = ListEntry(room_id=room.room.id, player_id=holds[0].player_id, kind="waiting",
                     game_id=game.id, source="in_person", joined_at=now, queue_at=now + S,
                     status="active")
    session.add(mine)
    session.flush()
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    sweep(session, absence.deadline)
    entries = lists.list_entries(session, game.id, None)
    assert [e.id for e in entries if e.player_id == holds[0].player_id] == [mine.id]
    assert mine.queue_at == now + S


def test_r24_released_alone_the_seat_is_not_offered_straight_back(room, session, now):
    _game, _table, holds = _seated(room, session, now, free=0)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    sweep(session, absence.deadline)
    assert live_offer(session, holds[0].player_id) is None  # like a missed call (decisions.md)


# ---- R25/R26: away ----------------------------------------------------------------------------


def test_r25_away_and_back_with_a_where_about_note(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now, absences.mark_away, holds[0].id)
    assert absence.kind == "away" and absence.deadline is None  # max_away_minutes is off
    assert absence.stack == holds[0].buy_in  # not counted: the last known stack
    assert audits(session, "away.started")[-1].detail["stack_counted"] is False
    act(session, room.sup, now + 31 * MIN, absences.record_note, holds[0].id, "  at the cash desk ")
    assert absence.note == "at the cash desk"
    assert audits(session, "away.noted")[-1].reason == "at the cash desk"
    assert sweep(session, now + 100 * HOUR).released_absences == []  # off: never picked up
    assert act(session, room.sup, now + 100 * HOUR, absences.come_back, holds[0].id).outcome == "returned"
    refused(lambda: act(session, room.sup, now + 100 * HOUR, absences.come_back, holds[0].id), "R25",
             "neither")


@pytest.mark.parametrize("offset,picked_up", [(-59 * S, False), (0 * S, True), (S, True)])
def test_r26_away_past_max_away_minutes_loses_the_seat(room, session, now, offset, picked_up):
    game, _table, holds = _seated(room, session, now, free=0, max_away_minutes=45)
    absence = act(session, room.sup, now, absences.mark_away, holds[0].id, stack=8000)
    assert absence.deadline == now + 45 * MIN
    result = sweep(session, absence.deadline + offset)
    assert (result.released_absences == [absence.id]) == picked_up
    session.refresh(holds[0])
    if picked_up:
        assert (holds[0].outcome, holds[0].leave_amount) == ("released", 8000)
        assert [e.player_id for e in lists.list_entries(session, game.id, None)] == [holds[0].player_id]
        assert audits(session, "away.released")[-1].actor == "scheduler"
    else:
        assert holds[0].ended_at is None
        assert act(session, room.sup, absence.deadline - S, absences.come_back, holds[0].id).kind == "away"


def test_r26_back_at_the_pickup_deadline_is_refused(room, session, now):
    _game, _table, holds = _seated(room, session, now, max_away_minutes=10)
    act(session, room.sup, now, absences.mark_away, holds[0].id)
    refused(lambda: act(session, room.sup, now + 10 * MIN, absences.come_back, holds[0].id), "R26")


@pytest.mark.parametrize("missed,picked_up", [(2, False), (3, True)])
def test_r26_away_loses_the_seat_at_max_missed_big_blinds(room, session, now, missed, picked_up):
    game, table, holds = _seated(room, session, now, free=0, max_missed_bb=3)
    waiting = room.player(now, "Wanda")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    act(session, room.sup, now, absences.mark_away, holds[0].id, stack=5100)
    for n in range(missed):
        absence = act(session, room.sup, now + n * MIN, expiry.record_missed_big_blind, holds[0].id)
    assert absence.missed_bb == missed
    assert audits(session, "away.missed_bb")[-1].detail["missed_bb"] == missed
    session.refresh(holds[0])
    if not picked_up:
        assert holds[0].ended_at is None and absence.ended_at is None
        return
    at = now + (missed - 1) * MIN
    assert (holds[0].outcome, holds[0].leave_amount, holds[0].ended_at) == ("released", 5100, at)
    assert (absence.outcome, absence.ended_at) == ("released", at)
    assert [e.player_id for e in lists.list_entries(session, game.id, None)] == [
        waiting.id, holds[0].player_id]  # R24: the bottom of the waiting list
    offer = live_offer(session, waiting.id)
    assert (offer.table_id, offer.seat_no) == (table.id, holds[0].seat_no)
    assert audits(session, "entry.joined")[-1].reason == "missed 3 big blinds (R26)"
    refused(lambda: act(session, room.sup, at, expiry.record_missed_big_blind, holds[0].id), "R25",
             "nobody is seated")


def test_r26_missed_big_blinds_never_cost_a_break_or_a_room_with_the_policy_off(room, session, now):
    _game, _table, holds = _seated(room, session, now, max_missed_bb=1)
    on_break = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    assert act(session, room.sup, now + HOUR, expiry.record_missed_big_blind, holds[0].id).missed_bb == 1
    assert on_break.ended_at is None  # R23: the break protects the seat for its time
    act(session, room.sup, now + HOUR, update_policy, max_missed_bb=0)  # off
    away = act(session, room.sup, now + HOUR, absences.mark_away, holds[1].id)
    for _ in range(5):
        act(session, room.sup, now + HOUR, expiry.record_missed_big_blind, holds[1].id)
    assert away.missed_bb == 5 and away.ended_at is None


def test_r26_missed_big_blind_refusals(room, session, now):
    _game, _table, holds = _seated(room, session, now, max_away_minutes=10)
    refused(lambda: act(session, room.sup, now, expiry.record_missed_big_blind, holds[0].id), "R25",
             "neither")
    act(session, room.sup, now, absences.mark_away, holds[0].id)
    refused(lambda: act(session, room.sup, now + 10 * MIN, expiry.record_missed_big_blind, holds[0].id),
             "R26", "ran out")
    refused(lambda: act(session, room.actor("cashier"), now, expiry.record_missed_big_blind, holds[0].id),
             "R61")


# ---- the seat ending any other way ends the absence ---------------------------------------------


def test_leaving_on_a_break_ends_the_break(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now + HOUR, absences.grant_break, holds[0].id, 100)
    act(session, room.sup, now + HOUR + MIN, seats.leave, holds[0].id, 9000)
    session.refresh(absence)
    assert absence.outcome == "seat_ended" and absence.ended_at == now + HOUR + MIN
    assert audits(session, "break.seat_ended")[-1].detail["absence_id"] == absence.id
    assert sweep(session, absence.deadline).released_absences == []


def test_moving_to_another_game_while_away_ends_the_away(room, session, now):
    _game, _table, holds = _seated(room, session, now)
    absence = act(session, room.sup, now, absences.mark_away, holds[0].id)
    other = room.game(now, variant="PLO")
    t2 = room.table(now, other, "9")
    act(session, room.sup, now + MIN, seats.seat_directly, table_id=t2.id, seat_no=1,
        player_id=holds[0].player_id, buy_in=10000)
    session.refresh(absence)
    assert absence.outcome == "seat_ended"
    live = session.scalars(select(Absence).where(Absence.ended_at.is_(None))).all()
    assert live == []
