"""The dealers' roster and the push (R62-R64, R60, R61) on the services, on every configured
database: check-in and out, downs and breaks as rows, the sweep carrying out the rotation at its
deadlines, tables opening and closing, the coordinator's override, and what the database refuses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops.actors import console
from roomops.dealers import roster
from roomops.dealers.models import DealerShift, DealerSpell
from roomops.dealers.reads import states
from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.hands.services import record_hand
from roomops.rooms.models import StaffRole
from roomops.rooms.staff import create_staff
from roomops.seating.closing import close_table
from tests.factories import PASSWORD, as_staff
from tests.services.helpers import audits, full_game, refused
from tests.units import act, sweep

MIN = timedelta(minutes=1)


def _dealers(room, session, now, n):
    """``n`` more dealers of the room, by name Dealer 1..n."""
    return [act(session, console(room.room.id), now, create_staff, username=f"d{i}", password=PASSWORD,
                roles=("dealer",), display_name=f"Dealer {i}") for i in range(1, n + 1)]


def _rotating(room, session, now, tables=2):
    """The room running its roster here, with ``tables`` open tables of one game."""
    room.room.dealer_rotation = True
    game = room.game(now)
    return [room.table(now, game, str(n)) for n in range(1, tables + 1)]


def _in(room, session, now, dealer):
    return act(session, room.sup, now, roster.check_in, dealer.id)


def _open_downs(session):
    return {s.table_id: s for s in session.scalars(select(DealerSpell).where(
        DealerSpell.ended_at.is_(None), DealerSpell.kind == "down"))}


def test_r62_a_dealer_checks_in_on_their_own_tablet_once(room, session, now):
    dealer = room.actor("dealer")
    shift = act(session, dealer, now, roster.check_in)
    assert shift.dealer_id == dealer.staff_id and shift.checked_out_at is None
    refused(lambda: act(session, dealer, now, roster.check_in), "R62", "already checked in", error=Conflict)
    [state] = states(session, room.room.id, [dealer.staff_id])
    assert (state.state, state.since) == ("waiting", now)  # the room keeps its rotation on paper
    assert [a.action for a in audits(session, "dealer.checked_in")] == ["dealer.checked_in"]


def test_r61_r62_only_the_coordinator_checks_in_someone_else(room, session, now):
    [other] = _dealers(room, session, now, 1)
    refused(lambda: act(session, room.actor("dealer"), now, roster.check_in, other.id), "R61",
            error=Forbidden)
    refused(lambda: act(session, room.actor("cashier"), now, roster.check_in, other.id), "R61",
            error=Forbidden)
    coordinator = act(session, console(room.room.id), now, create_staff, username="coord",
                      password=PASSWORD, roles=("coordinator",))
    act(session, as_staff(session, coordinator.username), now, roster.check_in, other.id)
    refused(lambda: act(session, room.sup, now, roster.check_in, room.staff["cashier"].id), "R62",
            "no such dealer", error=NotFound)


def test_r63_checked_in_dealers_take_the_open_tables_at_once(room, session, now):
    t1, t2 = _rotating(room, session, now)
    d1, d2, d3 = _dealers(room, session, now, 3)
    for d in (d1, d2, d3):
        _in(room, session, now, d)
    downs = _open_downs(session)
    assert set(downs) == {t1.id, t2.id}
    assert all(s.started_at == now and s.ends_at == now + 30 * MIN for s in downs.values())  # R63: 30
    by_state = {s.dealer_id: s.state for s in states(session, room.room.id, [d1.id, d2.id, d3.id])}
    assert sorted(by_state.values()) == ["dealing", "dealing", "waiting"]
    assert len(audits(session, "dealer.down_started")) == 2


def test_r64_the_sweep_pushes_at_the_end_of_the_down_and_every_table_keeps_a_dealer(room, session, now):
    t1, t2 = _rotating(room, session, now)
    dealers = _dealers(room, session, now, 3)
    for d in dealers:
        _in(room, session, now, d)
    waiting = next(s.dealer_id for s in states(session, room.room.id, [d.id for d in dealers])
                   if s.state == "waiting")
    assert sweep(session, now + 29 * MIN).pushes == []  # nothing due before the down's end
    pushed = sweep(session, now + 30 * MIN)
    assert pushed.pushes
    downs = _open_downs(session)
    assert set(downs) == {t1.id, t2.id} and waiting in {s.dealer_id for s in downs.values()}
    assert all(s.started_at == now + 30 * MIN for s in downs.values() if s.dealer_id == waiting)
    assert sweep(session, now + 30 * MIN).pushes == []  # idempotent: carried out once


def test_r64_after_two_downs_a_dealer_takes_a_break_when_another_can_deal(room, session, now):
    _rotating(room, session, now, tables=1)
    d1, d2 = _dealers(room, session, now, 2)
    _in(room, session, now, d1)
    _in(room, session, now + MIN, d2)
    [first] = _open_downs(session).values()
    assert first.dealer_id == d1.id
    sweep(session, now + 30 * MIN)  # d2 pushes d1
    sweep(session, now + 60 * MIN)  # d1 back
    sweep(session, now + 90 * MIN)  # d1's second down: d1 is due a break, d2 deals on
    on_break = session.scalar(select(DealerSpell).where(DealerSpell.kind == "break",
                                                        DealerSpell.ended_at.is_(None)))
    assert on_break is not None and on_break.dealer_id == d1.id
    assert on_break.ends_at == on_break.started_at + 30 * MIN  # R64: dealer_break_minutes
    assert len(audits(session, "dealer.break_started")) == 1


def test_r64_a_closing_table_frees_its_dealer_mid_down(room, session, now):
    t1, t2 = _rotating(room, session, now)
    d1, d2 = _dealers(room, session, now, 2)
    _in(room, session, now, d1)
    _in(room, session, now, d2)
    at_t2 = _open_downs(session)[t2.id]
    act(session, room.sup, now + 10 * MIN, close_table, t2.id)
    session.refresh(at_t2)
    assert (at_t2.ended_at, at_t2.end_reason) == (now + 10 * MIN, "table_closed")
    assert set(_open_downs(session)) == {t1.id}  # t1's down is not moved (R64)


def test_r62_a_dealer_checking_out_is_relieved_by_one_waiting(room, session, now):
    _rotating(room, session, now, tables=1)
    d1, d2 = _dealers(room, session, now, 2)
    _in(room, session, now, d1)
    _in(room, session, now, d2)
    [down] = _open_downs(session).values()
    leaving = down.dealer_id
    act(session, room.sup, now + 5 * MIN, roster.check_out, leaving)
    session.refresh(down)
    assert down.end_reason == "checked_out"
    [after] = _open_downs(session).values()
    assert after.dealer_id != leaving and after.started_at == now + 5 * MIN
    assert [s.state for s in states(session, room.room.id, [leaving])] == ["out"]


def test_r63_a_table_with_no_dealer_records_no_hand_until_one_is_assigned(room, session, now):
    room.room.dealer_rotation = True
    _game, table = full_game(room, session, now)
    dealer = room.actor("dealer")
    refused(lambda: act(session, dealer, now, record_hand, table.id, hand_no=1, high_card_seat=1), "R63",
            "no dealer", error=Conflict)
    act(session, dealer, now, roster.check_in)
    hand = act(session, dealer, now, record_hand, table.id, hand_no=1, high_card_seat=1)
    assert hand.spell_id == _open_downs(session)[table.id].id  # R63: the down card's hands


def test_r64_r60_the_coordinators_choice_takes_the_table_at_its_next_push(room, session, now):
    [table] = _rotating(room, session, now, tables=1)
    d1, d2, d3 = _dealers(room, session, now, 3)
    for d in (d1, d2, d3):
        _in(room, session, now, d)
    refused(lambda: act(session, room.sup, now, roster.override, table.id, d3.id, "  "), "R60",
            error=Invalid)
    refused(lambda: act(session, room.actor("dealer"), now, roster.override, table.id, d3.id, "x"), "R61",
            error=Forbidden)
    act(session, room.sup, now, roster.override, table.id, d3.id, "Dealer 3 knows the regulars")
    assert _open_downs(session)[table.id].dealer_id == d1.id  # never moved mid-down
    sweep(session, now + 30 * MIN)
    assert _open_downs(session)[table.id].dealer_id == d3.id
    [made] = audits(session, "dealer.override")
    assert made.reason == "Dealer 3 knows the regulars"


def test_r62_the_database_keeps_a_dealer_in_one_place(room, session, now):
    t1, t2 = _rotating(room, session, now)
    [d1] = _dealers(room, session, now, 1)
    shift = _in(room, session, now, d1)
    session.commit()
    session.add(DealerSpell(room_id=room.room.id, shift_id=shift.id, dealer_id=d1.id, kind="down",
                            table_id=t2.id if _open_downs(session)[t1.id].dealer_id == d1.id else t1.id,
                            started_at=now, ends_at=now + 30 * MIN))
    with pytest.raises(IntegrityError):
        session.flush()
    session.rollback()


def test_r62_the_database_keeps_spells_inside_open_shifts(room, session, now):
    _rotating(room, session, now, tables=1)
    [d1] = _dealers(room, session, now, 1)
    shift = _in(room, session, now, d1)
    session.commit()
    with pytest.raises(DBAPIError, match="checked out only once"):
        session.execute(update(DealerShift).where(DealerShift.id == shift.id).values(checked_out_at=now))
    session.rollback()
    act(session, room.sup, now, roster.check_out, d1.id)
    session.commit()
    session.add(DealerSpell(room_id=room.room.id, shift_id=shift.id, dealer_id=d1.id, kind="break",
                            started_at=now, ends_at=now + 30 * MIN))
    with pytest.raises(DBAPIError, match="checked in and not out"):
        session.flush()
    session.rollback()


def test_r62_a_dealer_whose_role_was_taken_mid_shift_is_still_checked_out(room, session, now):
    [d1] = _dealers(room, session, now, 1)
    _in(room, session, now, d1)
    session.execute(delete(StaffRole).where(StaffRole.staff_id == d1.id))
    shift = act(session, room.sup, now + MIN, roster.check_out, d1.id)
    assert shift.checked_out_at == now + MIN
    refused(lambda: act(session, room.sup, now, roster.check_in, d1.id), "R62", "no such dealer",
            error=NotFound)
