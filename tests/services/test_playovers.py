"""R29: playovers on the services, on every configured database: who may play over (R12-R15, in
list order), the owner's consent and "no playover" (to the second), and every way a playover ends.
The clock is moved, never slept on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from roomops.absences import services as absences
from roomops.errors import Forbidden, Invalid, NotFound
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.ledger import services as ledger
from roomops.lists import services as lists
from roomops.playovers import services as playovers
from roomops.rooms.services import bar_pair, update_policy
from roomops.seating import offers, seats
from tests.services.helpers import (
    audits,
    fill_table,
    full_game,
    live_offer,
    live_seat,
    refused,
    statements_sent,
)
from tests.units import act, sweep

S = timedelta(seconds=1)
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
BUY_IN = 10000


@pytest.fixture()
def floor(room, session, now):
    """A full 9-seat table, an hour on; seat 3's owner on a break; three players waiting."""
    game, table = full_game(room, session, now, free=0)
    holds = list(session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated").order_by(SeatHold.seat_no)))
    waiting = [room.player(now, name, "Wait") for name in ("Ada", "Bo", "Cy")]
    entries = [act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(waiting)]
    at = now + HOUR
    act(session, room.sup, at, absences.grant_break, holds[2].id, 23450)
    return game, table, holds, waiting, entries, at


def _live(session):
    session.flush()
    return list(session.scalars(select(Playover).where(Playover.ended_at.is_(None))))


def test_r29_next_in_list_order_plays_over_with_their_own_chips(room, session, floor):
    _game, _table, holds, waiting, entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    assert (po.player_id, po.entry_id, po.buy_in, po.ended_at) == (waiting[0].id, entries[0].id,
                                                                   BUY_IN, None)
    row = audits(session, "playover.started")[-1]
    # the play-over box: the owner's stack stays recorded apart from the overplayer's buy-in
    assert (row.detail["owner_stack"], row.detail["buy_in"], row.detail["owner_id"]) == (
        23450, BUY_IN, holds[2].player_id)
    assert entries[0].status == "active"  # keeps their place on the list (decisions.md)


def test_r29_refusals_name_the_rule_and_write_nothing(room, session, floor, now):
    _game, _table, holds, _waiting, entries, at = floor
    start = playovers.start_playover
    refused(lambda: act(session, room.sup, at, start, holds[0].id, buy_in=BUY_IN), "R29", "not on a break")
    refused(lambda: act(session, room.sup, at, start, 999999, buy_in=BUY_IN), "R29", error=NotFound)
    refused(lambda: act(session, room.sup, at, start, holds[2].id, buy_in=1), "R30", error=Invalid)
    refused(lambda: act(session, room.sup, at, start, holds[2].id, buy_in=BUY_IN, entry_id=entries[1].id),
             "R29", "out of list order")
    refused(lambda: act(session, room.actor("cashier"), at, start, holds[2].id, buy_in=BUY_IN), "R61",
             error=Forbidden)
    assert _live(session) == []
    act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    refused(lambda: act(session, room.sup, at, start, holds[2].id, buy_in=BUY_IN, entry_id=entries[1].id,
                           reason="x"), "R29", "already playing over this seat")
    act(session, room.sup, at, absences.mark_away, holds[4].id)
    refused(lambda: act(session, room.sup, at, start, holds[4].id, buy_in=BUY_IN, entry_id=entries[0].id,
                           reason="x"), "R29", "already playing over a seat")
    refused(lambda: act(session, room.sup, at, start, holds[4].id, buy_in=BUY_IN,
                           entry_id=entries[2].id + 10**6), None, error=NotFound)


def test_r13_out_of_order_with_a_written_reason(room, session, floor):
    _game, _table, holds, waiting, entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN,
             entry_id=entries[1].id, reason="  Ada asked to wait  ")
    assert po.player_id == waiting[1].id and po.reason == "Ada asked to wait"
    assert audits(session, "playover.started")[-1].reason == "Ada asked to wait"


def test_r14_r29_who_is_skipped_in_order(room, session, floor, now):
    _game, _table, holds, waiting, entries, at = floor
    # Ada is barred from someone at the table (R15), Bo is seated at another game's table
    act(session, room.sup, at, bar_pair, waiting[0].id, holds[0].player_id, "dispute")
    other = room.game(at, variant="PLO")
    t2 = room.table(at, other, "7")
    act(session, room.sup, at, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=waiting[1].id,
        buy_in=BUY_IN)
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    assert po.player_id == waiting[2].id
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN),
             "R29", "already playing over this seat")
    act(session, room.sup, at, absences.mark_away, holds[5].id)
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[5].id, buy_in=BUY_IN),
             "R29", "nobody on the waiting list")
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[5].id, buy_in=BUY_IN,
                         entry_id=entries[0].id, reason="x"), "R15")
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[5].id, buy_in=BUY_IN,
                         entry_id=entries[1].id, reason="x"), "R29",
             "seated in the room")  # R10: still on this game's list


def test_r12_phone_entry_not_checked_in_is_passed_over(room, session, now):
    game, table = full_game(room, session, now, free=0)
    hold = session.scalar(select(SeatHold).where(SeatHold.table_id == table.id, SeatHold.seat_no == 1))
    caller, walker = room.player(now, "Phone"), room.player(now, "Walk")
    phone = act(session, room.sup, now, lists.join, player_id=caller.id, game_id=game.id, source="phone")
    act(session, room.sup, now + S, lists.join, player_id=walker.id, game_id=game.id)
    act(session, room.sup, now + MIN, absences.mark_away, hold.id)
    refused(lambda: act(session, room.sup, now + MIN, playovers.start_playover, hold.id, buy_in=BUY_IN,
                         entry_id=phone.id, reason="x"), "R12")
    assert act(session, room.sup, now + MIN, playovers.start_playover, hold.id,
               buy_in=BUY_IN).player_id == walker.id


def test_r29_owner_consent_where_the_room_requires_it(room, session, floor):
    _game, _table, holds, _waiting, _entries, at = floor
    act(session, room.sup, at, update_policy, playover_needs_consent=True)
    refused(lambda: act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN),
             "R29", "consent")
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN, owner_consents=True)
    assert audits(session, "playover.started")[-1].detail["owner_consented"] is True
    assert po.ended_at is None


@pytest.mark.parametrize("offset,allowed", [(-S, False), (0 * S, True), (S, True)])
def test_r29_no_playover_to_the_second(room, session, floor, offset, allowed):
    _game, _table, holds, _waiting, _entries, at = floor
    absence = act(session, room.sup, at, playovers.ask_no_playover, holds[2].id, 7)
    assert absence.no_playover_until == at + 7 * MIN
    assert audits(session, "no_playover.requested")[-1].detail["minutes"] == 7
    when = at + 7 * MIN + offset
    if allowed:
        assert act(session, room.sup, when, playovers.start_playover, holds[2].id, buy_in=BUY_IN).id
    else:
        refused(lambda: act(session, room.sup, when, playovers.start_playover, holds[2].id, buy_in=BUY_IN),
                 "R29", "no playover until")


def test_r29_no_playover_limits(room, session, floor):
    _game, _table, holds, _waiting, _entries, at = floor
    refused(lambda: act(session, room.sup, at, playovers.ask_no_playover, holds[2].id, 11), "R29",
             "at most 10 minutes")
    refused(lambda: act(session, room.sup, at, playovers.ask_no_playover, holds[0].id), "R29",
             "not on a break")
    absence = act(session, room.sup, at, playovers.ask_no_playover, holds[2].id)
    assert absence.no_playover_until == at + 10 * MIN  # the policy's whole allowance by default
    refused(lambda: act(session, room.sup, at + 10 * MIN, playovers.ask_no_playover, holds[2].id, 5),
             "R29", "already asked")
    act(session, room.sup, at, absences.mark_away, holds[4].id)
    act(session, room.sup, at, playovers.start_playover, holds[4].id, buy_in=BUY_IN)
    refused(lambda: act(session, room.sup, at, playovers.ask_no_playover, holds[4].id, 5), "R29",
             "already playing over this seat")


def test_r29_owner_back_ends_the_playover_and_the_overplayer_keeps_the_top(room, session, floor):
    game, _table, holds, waiting, entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    refused(lambda: act(session, room.sup, at, absences.come_back, holds[2].id, -1), "R29", error=Invalid)
    act(session, room.sup, at + 20 * MIN, absences.come_back, holds[2].id, overplayer_stack=12500)
    session.refresh(po)
    # R27/R29: the overplayer's stack, counted as the owner came back, is recorded on the playover
    assert (po.outcome, po.ended_at, po.leave_amount) == ("owner_back", at + 20 * MIN, 12500)
    row = audits(session, "playover.ended")[-1]
    assert row.detail["leave_at_end_of_hand"] is True and row.detail["player_id"] == waiting[0].id
    assert row.detail["leave_amount"] == 12500
    assert playovers.told_to_leave(session, po.absence_id).id == waiting[0].id
    assert [e.id for e in lists.list_entries(session, game.id, None)] == [e.id for e in entries]


def test_r24_r29_sweep_ends_the_playover_and_offers_the_seat_to_the_overplayer(room, session, floor):
    _game, table, holds, waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    sweep(session, at + HOUR - S)
    assert _live(session) == [po]
    sweep(session, at + HOUR)
    session.refresh(po)
    assert (po.outcome, po.ended_at) == ("seat_released", at + HOUR)
    offer = live_offer(session, waiting[0].id)
    assert (offer.table_id, offer.seat_no) == (table.id, 3)
    assert audits(session, "playover.ended")[-1].actor == "scheduler"
    act(session, room.sup, at + HOUR + MIN, seats.claim, offer.id, BUY_IN)
    assert len(audits(session, "playover.ended")) == 1  # nothing left to end


def test_r29_r52_sitting_down_anywhere_ends_the_playover_with_the_stack_counted(room, session,
                                                                               floor):
    """R29/R27/R52: seating a player who plays over a seat asks for the chips they leave it with:
    refused without them, naming the player and the seat, before anything is written; recorded
    as the playover's leave amount with them."""
    _game, _table, holds, waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    other = room.game(at, variant="PLO")
    t2 = room.table(at, other, "7")
    seat = dict(table_id=t2.id, seat_no=1, player_id=waiting[0].id, buy_in=BUY_IN)
    refused(lambda: act(session, room.sup, at + MIN, seats.seat_directly, **seat), "R29",
            "Ada Wait is playing over seat 3 at table 1", "count the chips", error=Invalid)
    refused(lambda: act(session, room.sup, at + MIN, seats.seat_directly, **seat, overplayer_stack=-1),
            "R29", error=Invalid)
    assert _live(session) == [po] and live_seat(session, waiting[0].id) is None
    act(session, room.sup, at + MIN, seats.seat_directly, **seat, overplayer_stack=13500)
    session.refresh(po)
    assert (po.outcome, po.leave_amount) == ("seated", 13500)
    row = audits(session, "playover.ended")[-1]
    assert (row.detail["leave_amount"], row.detail["stack_counted"]) == (13500, True)


def test_r29_a_claim_asks_the_overplayer_for_their_stack(room, session, floor):
    """R29/R21: Ada, playing over seat 3, claims a seat of a PLO table: the claim needs her
    counted stack; a stack for a player who plays over nothing is refused (409)."""
    _game, _table, holds, waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    plo = room.game(at, variant="PLO")
    room.table(at, plo, "7")
    act(session, room.sup, at + S, lists.join, player_id=waiting[0].id, game_id=plo.id)
    act(session, room.sup, at + S, lists.join, player_id=waiting[1].id, game_id=plo.id)
    mine, bos = live_offer(session, waiting[0].id), live_offer(session, waiting[1].id)
    refused(lambda: act(session, room.sup, at + MIN, seats.claim, mine.id, BUY_IN), "R29",
            "Ada Wait is playing over seat 3 at table 1", error=Invalid)
    refused(lambda: act(session, room.sup, at + MIN, seats.claim, bos.id, BUY_IN, overplayer_stack=0),
            "R29", "Bo Wait is not playing over a seat")
    act(session, room.sup, at + MIN, seats.claim, mine.id, BUY_IN, overplayer_stack=0)
    session.refresh(po)
    assert (po.outcome, po.leave_amount) == ("seated", 0)  # lost it all: nothing to cash out


def test_r29_r52_owner_leaving_ends_the_playover_with_the_chips_on_its_books(room, session, floor):
    """Nobody counts the overplayer's chips as the owner leaves: the leave amount is what the
    books hold for the playover, its buy-in and add-ons (the cage's count, if it differs, needs
    an approval, R27)."""
    _game, _table, holds, _waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    act(session, room.actor("cashier"), at, ledger.add_on, holds[2].id, 2500, "table", playover_id=po.id)
    act(session, room.sup, at + MIN, seats.leave, holds[2].id, 20000)
    session.refresh(po)
    assert (po.outcome, po.leave_amount) == ("seat_ended", BUY_IN + 2500)
    row = audits(session, "playover.ended")[-1]
    assert (row.detail["leave_amount"], row.detail["stack_counted"]) == (BUY_IN + 2500, False)


def test_db_an_ended_playover_has_a_leave_amount(room, session, floor):
    """ck_playovers_leave_amount (migration 0045): the database refuses a playover ended with no
    leave amount, or a live one with one, from any writer."""
    _game, _table, holds, _waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    session.flush()
    for sets in ("ended_at = started_at, outcome = 'stopped'", "leave_amount = 5"):
        with pytest.raises(IntegrityError), session.begin_nested():
            session.execute(text(f"UPDATE playovers SET {sets} WHERE id = :id"), {"id": po.id})
    with session.begin_nested():
        session.execute(text("UPDATE playovers SET ended_at = started_at, outcome = 'stopped', "
                             "leave_amount = 0 WHERE id = :id"), {"id": po.id})


def test_r29_supervisor_stops_a_playover(room, session, floor):
    _game, _table, holds, _waiting, _entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    refused(lambda: act(session, room.sup, at + MIN, playovers.stop_playover, holds[2].id, -1), "R29",
             "counted", error=Invalid)
    assert act(session, room.sup, at + MIN, playovers.stop_playover, holds[2].id, 0).id == po.id
    assert (po.outcome, po.leave_amount) == ("stopped", 0)  # lost it all: nothing to cash out
    refused(lambda: act(session, room.sup, at + MIN, playovers.stop_playover, holds[2].id, 5), "R29",
             "nobody is playing over")


def test_r29_a_stack_for_a_seat_nobody_plays_over_is_refused(room, session, floor):
    _game, _table, holds, _waiting, _entries, at = floor
    refused(lambda: act(session, room.sup, at + MIN, absences.come_back, holds[2].id,
                        overplayer_stack=100), "R29", "nobody was playing over")
    session.rollback()  # as the request's unit of work does: nothing was written


def test_r29_ending_many_playovers_is_one_update(room, session, now, connection):
    """Batch (the sweep may end a thousand): one UPDATE ... RETURNING, nothing read first, then
    the unit's one audit INSERT (R60); the session's objects show the end as the stored rows do."""
    game, table = full_game(room, session, now, free=0)
    holds = list(session.scalars(select(SeatHold).where(SeatHold.table_id == table.id)))
    act(session, room.sup, now, update_policy, max_breaks_per_table=10)
    for i, p in enumerate(room.players(now, 6, "W")):
        act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
    started = []
    for hold in holds[:6]:
        act(session, room.sup, now + HOUR, absences.grant_break, hold.id, 100)
        started.append(act(session, room.sup, now + HOUR, playovers.start_playover, hold.id, buy_in=BUY_IN))
    session.flush()
    ended: list[int] = []
    seen = statements_sent(connection, lambda: ended.extend(act(
        session, room.sup, now + HOUR, playovers.end_playovers, "seat_released", "hold_id",
        [h.id for h in holds])))
    assert sorted(ended) == sorted(p.id for p in started) and _live(session) == []
    assert [" ".join(q.split()[:3]) for q in seen] == ["UPDATE playovers SET", "INSERT INTO audit_events"]
    assert {(p.outcome, p.ended_at) for p in started} == {("seat_released", now + HOUR)}
    assert len(audits(session, "playover.ended")) == 6


def test_db_one_live_playover_per_seat_and_per_player(room, session, floor):
    _game, _table, holds, waiting, entries, at = floor
    po = act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    for kw in ({"player_id": waiting[1].id, "entry_id": entries[1].id, "hold_id": holds[2].id},
               {"player_id": waiting[0].id, "entry_id": entries[0].id, "hold_id": holds[4].id}):
        sp = session.begin_nested()
        session.add(Playover(room_id=po.room_id, absence_id=po.absence_id, started_at=at,
                             buy_in=BUY_IN, **kw))
        with pytest.raises(IntegrityError):
            session.flush()
        sp.rollback()


@pytest.mark.parametrize("policy", ["remove", "bottom"])
@pytest.mark.parametrize("how", ["expired", "declined"])
def test_r29_r22_a_call_missed_while_playing_over_keeps_the_place(room, session, floor, policy,
                                                                  how):
    """R29/R22/R16: Ada, playing over seat 3, is called to the one seat of a PLO table by the
    sweep; she cannot come mid-hand. It is no missed call: her entries keep their places (both
    games' lists, R10), the history says so, and the seat goes to the next player (R14), Bo; his
    own missed call is one as the room's policy says."""
    _game, _table, holds, waiting, entries, at = floor
    act(session, room.sup, at, update_policy, on_claim_expiry=policy)
    plo = room.game(now := at, variant="PLO")
    fill_table(room, session, now, plo, room.table(now, plo, "7"), free=1)
    act(session, room.sup, at, playovers.start_playover, holds[2].id, buy_in=BUY_IN)
    ada, bo = waiting[0], waiting[1]
    own = act(session, room.sup, at + S, lists.join, player_id=ada.id, game_id=plo.id)
    bos = act(session, room.sup, at + 2 * S, lists.join, player_id=bo.id, game_id=plo.id)
    queued = (own.queue_at, entries[0].queue_at)
    called = live_offer(session, ada.id)
    assert called is not None  # still called: the floor tells her a seat is there (R20)
    deadline = at + S + room.room.claim_minutes * MIN
    if how == "expired":
        sweep(session, deadline)
    else:
        act(session, room.sup, at + MIN, offers.decline, called.id)
    session.refresh(own)
    session.refresh(entries[0])
    assert (own.status, entries[0].status) == ("active", "active")
    assert (own.queue_at, entries[0].queue_at) == queued
    row = audits(session, f"offer.{how}", entity=("list_entry", own.id))[-1]
    assert (row.detail["missed_call"], row.detail["policy"]) == (False, "playing_over")
    nxt = live_offer(session, bo.id)
    assert nxt is not None and (nxt.table_id, nxt.seat_no) == (called.table_id, called.seat_no)
    sweep(session, nxt.deadline)  # Bo, not playing over, missed it: off or to the bottom (R22)
    session.refresh(bos)
    assert bos.status == ("removed" if policy == "remove" else "active")
    assert live_offer(session, ada.id) is not None  # the seat comes back to the top of the list
