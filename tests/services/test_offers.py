"""R14, R15, R20-R22: offers, claims and expiry on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from roomops.errors import Conflict, Invalid
from roomops.games.models import Table
from roomops.holds import queries
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.lists.ordering import TICK
from roomops.rooms.services import bar_pair
from roomops.seating import offers, seats
from tests.services.helpers import audits, fill_table, full_game, live_offer, live_seat, refused
from tests.units import act, sweep

S = timedelta(seconds=1)


def _manual_room(room):
    room.room.auto_offer = False  # seats stay open until the supervisor offers them


def test_r14_manual_offer_out_of_order_needs_a_reason(room, session, now):
    _manual_room(room)
    game, table = full_game(room, session, now, free=1)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    eb = act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    assert live_offer(session, a.id) is None  # auto_offer off
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9, entry_id=eb.id)
    assert err.value.rule == "R13"
    with pytest.raises(Conflict):
        act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9, entry_id=eb.id,
            reason="  ")
    offer = act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9,
                entry_id=eb.id, reason="Ann is in the restroom")
    assert offer.player_id == b.id
    (row,) = audits(session, "offer.made")
    assert row.reason == "Ann is in the restroom" and row.actor == room.sup.label


def test_r14_manual_offer_in_order_needs_no_reason(room, session, now):
    _manual_room(room)
    game, table = full_game(room, session, now, free=1)
    a = room.player(now, "Ann")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    offer = act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9, entry_id=ea.id)
    assert offer.deadline == now + timedelta(minutes=10)
    with pytest.raises(Conflict):  # the seat is called now
        act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9, entry_id=ea.id)


def test_r14_seat_directly_ahead_of_the_list_needs_a_reason(room, session, now):
    game, table = full_game(room, session, now, free=0)
    a, walk_in = room.player(now, "Ann"), room.player(now, "Walk")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    _manual_room(room)
    hold = next(h for h in queries.live_holds(session, [table.id])
                if h.seat_no == 2)
    act(session, room.sup, now + S, seats.leave, hold.id, 5000)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + 2 * S, seats.seat_directly, table_id=table.id, seat_no=2,
            player_id=walk_in.id, buy_in=10000)
    assert err.value.rule == "R13"
    held = act(session, room.sup, now + 2 * S, seats.seat_directly, table_id=table.id, seat_no=2,
               player_id=walk_in.id, buy_in=10000, reason="high roller")
    assert held.kind == "seated"
    assert audits(session, "seat.taken")[-1].reason == "high roller"


def test_r14_several_open_seats_offered_at_once_in_list_order(room, session, now):
    game = room.game(now)
    ps = room.players(now, 4, "W")
    entries = [act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(ps)]
    table = room.table(now + 10 * S, game, "1")  # nine seats open at once
    made = [r.detail["player_id"] for r in audits(session, "offer.made")]
    assert made == [p.id for p in ps]
    assert [live_offer(session, p.id).seat_no for p in ps] == [1, 2, 3, 4]
    assert {live_offer(session, p.id).table_id for p in ps} == {table.id}
    assert all(e.status == "active" for e in entries)


def test_r14_most_need_placement_across_tables(room, session, now):
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    fill_table(room, session, now, game, t1, free=2, prefix="A")
    fill_table(room, session, now, game, t2, free=4, prefix="B")
    p = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    assert live_offer(session, p.id).table_id == t2.id  # fewer seated


def test_r14_first_open_placement_across_tables(room, session, now):
    room.room.placement = "first_open"
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    fill_table(room, session, now, game, t1, free=2, prefix="A")
    fill_table(room, session, now, game, t2, free=4, prefix="B")
    p = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    assert live_offer(session, p.id).table_id == t1.id


def test_r14_player_on_both_lists_is_offered_once(room, session, now):
    game, table = full_game(room, session, now, free=0)
    p, q = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=p.id, table_id=table.id)
    act(session, room.sup, now + S, lists.join, player_id=p.id, game_id=game.id)
    act(session, room.sup, now + 2 * S, lists.join, player_id=q.id, game_id=game.id)
    for h in [h for h in queries.live_holds(session, [table.id]) if h.seat_no in (1, 2)]:
        act(session, room.sup, now + 3 * S, seats.leave, h.id, 100)
    assert live_offer(session, p.id) is not None and live_offer(session, q.id) is not None
    assert len([r for r in audits(session, "offer.made") if r.detail["player_id"] == p.id]) == 1


def test_r15_barred_pair_skipped_by_auto_offer_and_refused_by_hand(room, session, now):
    game, table = full_game(room, session, now, free=1)
    seated = live_seat(session, queries.live_holds(session, [table.id])[0].player_id)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, bar_pair, a.id, seated.player_id, "fight last week")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    assert live_offer(session, a.id) is None
    act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    offer_b = live_offer(session, b.id)
    assert offer_b is not None
    act(session, room.sup, now + 2 * S, offers.decline, offer_b.id)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + 3 * S, offers.offer_by_hand, table_id=table.id, seat_no=9,
            entry_id=ea.id, reason="supervisor insists")
    assert err.value.rule == "R15"
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + 3 * S, seats.seat_directly, table_id=table.id, seat_no=9,
            player_id=a.id, buy_in=10000, reason="supervisor insists")
    assert err.value.rule == "R15"


def test_r15_barred_with_a_called_player(room, session, now):
    game, _table = full_game(room, session, now, free=2)
    a, b, c = room.player(now, "Ann"), room.player(now, "Bob"), room.player(now, "Cid")
    act(session, room.sup, now, bar_pair, a.id, b.id, "collusion")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    act(session, room.sup, now + 2 * S, lists.join, player_id=c.id, game_id=game.id)
    assert live_offer(session, a.id) is not None
    assert live_offer(session, b.id) is None  # Ann is called to that table
    assert live_offer(session, c.id) is not None


def test_r21_claim_seats_and_leaves_other_games_lists_alone(room, session, now):
    g1, t1 = full_game(room, session, now, free=0)
    g2, _ = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    t1b = room.table(now, g1, "1b")
    fill_table(room, session, now, g1, t1b, free=0, prefix="X")
    p = room.player(now, "Ann")
    wait1 = act(session, room.sup, now, lists.join, player_id=p.id, game_id=g1.id)
    reserve1 = act(session, room.sup, now, lists.join, player_id=p.id, table_id=t1b.id)
    wait2 = act(session, room.sup, now, lists.join, player_id=p.id, game_id=g2.id)
    act(session, room.sup, now + S, seats.leave, queries.live_holds(session, [t1.id])[0].id, 100)
    offer = live_offer(session, p.id)
    assert offer.table_id == t1.id
    with pytest.raises(Invalid) as err:
        act(session, room.sup, now + 2 * S, seats.claim, offer.id, 9999)
    assert err.value.rule == "R30"
    hold = act(session, room.sup, now + 2 * S, seats.claim, offer.id, 20000)
    assert (hold.kind, hold.table_id, hold.seat_no, hold.buy_in) == ("seated", t1.id, offer.seat_no,
                                                                     20000)
    assert (offer.ended_at, offer.outcome) == (now + 2 * S, "claimed")
    # the session's objects show it before anything is read again, and so does the database
    assert (wait1.status, wait1.ended_at, reserve1.status) == ("seated", now + 2 * S, "seated")
    session.flush()
    session.expire_all()
    assert (wait1.status, reserve1.status, wait2.status) == ("seated", "seated", "active")
    assert wait1.end_reason == f"seated at table {t1.name}"
    with pytest.raises(Conflict):
        act(session, room.sup, now + 3 * S, seats.claim, offer.id, 20000)
    assert len(audits(session, "offer.claimed")) == 1


def test_r21_claim_while_seated_elsewhere_moves_and_offers_the_old_seat(room, session, now):
    g1, t1 = full_game(room, session, now, free=1)
    g2, t2 = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    p, nxt = room.player(now, "Ann"), room.player(now, "Bob")
    old = act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=9, player_id=p.id,
              buy_in=10000)
    act(session, room.sup, now + S, lists.join, player_id=p.id, game_id=g2.id)
    act(session, room.sup, now + 2 * S, lists.join, player_id=nxt.id, game_id=g1.id)
    act(session, room.sup, now + 3 * S, seats.leave, queries.live_holds(session, [t2.id])[0].id, 0)
    offer = live_offer(session, p.id)
    assert offer.table_id == t2.id
    new = act(session, room.sup, now + 4 * S, seats.claim, offer.id, 10000)
    session.flush()
    session.expire_all()
    assert (old.ended_at, old.outcome) == (now + 4 * S, "moved")
    assert live_seat(session, p.id).id == new.id
    moved_to = live_offer(session, nxt.id)
    assert (moved_to.table_id, moved_to.seat_no) == (t1.id, 9)
    assert [r.action for r in audits(session, entity=("seat_hold", old.id))][-1] == "seat.moved"


def test_r22_decline_is_a_missed_call_and_next_player_is_offered(room, session, now):
    game, _ = full_game(room, session, now, free=1)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    first = live_offer(session, a.id)
    act(session, room.sup, now + 2 * S, offers.decline, first.id)
    assert first.outcome == "declined"
    assert live_offer(session, b.id).seat_no == first.seat_no
    assert (ea.status, ea.ended_at) == ("removed", now + 2 * S)  # the session's object, and:
    session.flush()
    session.expire_all()
    assert ea.status == "removed" and "missed call" in ea.end_reason  # default policy remove
    (row,) = audits(session, "offer.declined")
    assert row.detail["missed_call"] is True and row.entity_id == ea.id
    with pytest.raises(Conflict):
        act(session, room.sup, now + 3 * S, offers.decline, first.id)


def test_r22_expiry_with_policy_bottom_keeps_entry_at_the_bottom(room, session, now):
    room.room.on_claim_expiry = "bottom"
    game, _ = full_game(room, session, now, free=1)
    a, b, c = room.player(now, "Ann"), room.player(now, "Bob"), room.player(now, "Cid")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    eb = act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    ec = act(session, room.sup, now + 2 * S, lists.join, player_id=c.id, game_id=game.id)
    first = live_offer(session, a.id)
    result = sweep(session, first.deadline)
    assert result.expired_offers == [first.id]
    assert ea.queue_at == first.deadline  # the session's object, and:
    session.flush()
    session.expire_all()
    assert ea.status == "active" and ea.queue_at == first.deadline
    assert [e.id for e in lists.list_entries(session, game.id, None)] == [eb.id, ec.id, ea.id]
    assert live_offer(session, b.id).seat_no == first.seat_no
    (row,) = audits(session, "offer.expired")
    assert row.detail["missed_call"] is True and row.detail["policy"] == "bottom"
    assert row.actor == "scheduler" and row.at == first.deadline


def test_r22_calls_missed_together_go_to_the_bottom_in_the_calls_order(room, session, now):
    room.room.on_claim_expiry = "bottom"
    game, _ = full_game(room, session, now, free=2)
    a, b, c, d = (room.player(now, n) for n in ("Ann", "Bob", "Cid", "Dan"))
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    eb = act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    ec = act(session, room.sup, now + 2 * S, lists.join, player_id=c.id, game_id=game.id)
    ed = act(session, room.sup, now + 3 * S, lists.join, player_id=d.id, game_id=game.id)
    due = live_offer(session, b.id).deadline  # Bob's call came a second after Ann's
    assert len(sweep(session, due).expired_offers) == 2
    assert (ea.queue_at, eb.queue_at) == (due, due + TICK)
    session.flush()
    session.expire_all()
    assert (ea.queue_at, eb.queue_at) == (due, due + TICK)
    assert [e.id for e in lists.list_entries(session, game.id, None)] == [ec.id, ed.id, ea.id, eb.id]


def test_r22_player_who_just_missed_is_not_handed_the_seat_straight_back(room, session, now):
    room.room.on_claim_expiry = "bottom"
    game, _ = full_game(room, session, now, free=1)
    a = room.player(now, "Ann")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    first = live_offer(session, a.id)
    sweep(session, first.deadline)
    assert ea.status == "active"
    assert live_offer(session, a.id) is None
    offers_made = audits(session, "offer.made")
    assert len(offers_made) == 1


def test_r22_expiry_to_the_second_with_policy_remove(room, session, now):
    game, _ = full_game(room, session, now, free=1)
    a = room.player(now, "Ann")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    offer = live_offer(session, a.id)
    assert sweep(session, offer.deadline - S).expired_offers == []
    assert offer.is_open_offer(offer.deadline - S)
    assert not offer.is_open_offer(offer.deadline)
    assert sweep(session, offer.deadline).expired_offers == [offer.id]
    session.flush()
    session.expire_all()
    assert (ea.status, ea.end_reason) == ("removed", "missed call (expired)")
    history = [r.action for r in audits(session, entity=("list_entry", ea.id))]
    assert history == ["entry.joined", "offer.made", "offer.expired", "entry.removed"]


def test_r20_offer_holds_the_seat(room, session, now):
    game, table = full_game(room, session, now, free=1)
    a, walk_in = room.player(now, "Ann"), room.player(now, "Walk")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now, seats.seat_directly, table_id=table.id, seat_no=9,
            player_id=walk_in.id, buy_in=10000, reason="x")
    assert err.value.rule == "R20"
    assert session.get(ListEntry, live_offer(session, a.id).entry_id).player_id == a.id
    assert session.query(SeatHold).filter_by(table_id=table.id, seat_no=9, ended_at=None).count() == 1


def test_r12_manual_offer_to_a_phone_entry_not_checked_in_refused(room, session, now):
    _manual_room(room)
    game, table = full_game(room, session, now, free=1)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id,
                game_id=game.id, source="phone")
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + S, offers.offer_by_hand, table_id=table.id, seat_no=9,
            entry_id=entry.id, reason="called ahead")
    assert err.value.rule == "R12"
    act(session, room.sup, now + 2 * S, lists.check_in, entry.id)
    assert act(session, room.sup, now + 3 * S, offers.offer_by_hand, table_id=table.id, seat_no=9,
               entry_id=entry.id).kind == "offer"


def test_r21_seating_a_called_player_elsewhere_in_the_game_frees_the_called_seat(room, session, now):
    game = room.game(now)
    t1, t2 = room.table(now, game, "1"), room.table(now, game, "2")
    fill_table(room, session, now, game, t1, free=1, prefix="A")
    fill_table(room, session, now, game, t2, free=0, prefix="B")
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    called = live_offer(session, a.id)
    assert called.table_id == t1.id
    _manual_room(room)
    act(session, room.sup, now + 2 * S, seats.leave, queries.live_holds(session, [t2.id])[0].id, 0)
    room.room.auto_offer = True
    act(session, room.sup, now + 3 * S, seats.seat_directly, table_id=t2.id, seat_no=1, player_id=a.id,
        buy_in=10000, reason="wanted table 2")
    session.flush()
    assert called.ended_at == now + 3 * S and called.outcome == "cancelled"
    nxt = live_offer(session, b.id)
    assert (nxt.table_id, nxt.seat_no) == (t1.id, called.seat_no)
    assert [r.entity_id for r in audits(session, "offer.cancelled")] == [called.entry_id]


def test_r16_removing_a_called_entry_frees_the_called_seat(room, session, now):
    game, _table = full_game(room, session, now, free=1)
    a, b = room.player(now, "Ann"), room.player(now, "Bob")
    ea = act(session, room.sup, now, lists.join, player_id=a.id, game_id=game.id)
    act(session, room.sup, now + S, lists.join, player_id=b.id, game_id=game.id)
    called = live_offer(session, a.id)
    act(session, room.sup, now + 2 * S, lists.remove, ea.id, "left the building")
    session.flush()
    assert (called.ended_at, called.outcome) == (now + 2 * S, "cancelled")
    assert live_offer(session, b.id).seat_no == called.seat_no


def test_r14_manual_offer_to_a_player_holding_an_offer_elsewhere_refused(room, session, now):
    _manual_room(room)
    (g1, t1), (g2, t2) = full_game(room, session, now, name="1"), full_game(room, session, now, name="2")
    ann = room.player(now, "Ann")
    e1 = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=g1.id)
    e2 = act(session, room.sup, now, lists.join, player_id=ann.id, game_id=g2.id)
    act(session, room.sup, now, offers.offer_by_hand, table_id=t2.id, seat_no=9, entry_id=e2.id)
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=t1.id, seat_no=9,
                        entry_id=e1.id), "R14", "already holds an open offer")
    assert [o.table_id for o in session.scalars(select(SeatHold).where(
        SeatHold.player_id == ann.id, SeatHold.ended_at.is_(None)))] == [t2.id]


def test_r5_table_closed_after_it_was_read_is_refused(room, session, now):
    """The seat checks read the game's open tables afresh: a table closed since the action read it
    (before the game's lock was taken) is refused, not given a seat."""
    _manual_room(room)
    game, table = full_game(room, session, now)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
    session.execute(update(Table).where(Table.id == table.id).values(status="closed"),
                    execution_options={"synchronize_session": False})
    assert table.status == "open"  # what the action will read from the session
    refused(lambda: act(session, room.sup, now, offers.offer_by_hand, table_id=table.id, seat_no=9,
                        entry_id=entry.id), "R5", "is closed", error=Conflict)


def test_r14_seat_goes_past_more_ineligible_entries_than_are_read_first(room, session, now):
    """The allocation reads the lists' first entries and, when they run out before the seat is
    given, the rest: a seat behind a long run of players barred at its table is still offered."""
    game, table = full_game(room, session, now, free=1)
    seated = session.scalars(select(SeatHold.player_id).where(
        SeatHold.table_id == table.id, SeatHold.ended_at.is_(None))).first()
    for i, p in enumerate(room.players(now, offers._PER_SEAT + 1, "R")):
        act(session, room.sup, now, bar_pair, p.id, seated, "R15")
        act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
    assert live_offer(session, p.id) is None
    ann = room.player(now, "Ann")
    act(session, room.sup, now + 20 * S, lists.join, player_id=ann.id, game_id=game.id)
    offer = live_offer(session, ann.id)
    assert offer is not None and (offer.table_id, offer.seat_no) == (table.id, 9)
