"""R10-R13, R16: lists on the services, on every configured database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from roomops.errors import Conflict, Invalid
from roomops.lists import services as lists
from roomops.seating import offers, seats
from tests.services.helpers import audits, fill_table, full_game, live_offer
from tests.units import act, sweep

S = timedelta(seconds=1)


def test_r10_player_on_several_games_lists_at_once(room, session, now):
    g1, _ = full_game(room, session, now, free=0)
    g2, _ = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    p = room.player(now, "Ann")
    e1 = act(session, room.sup, now, lists.join, player_id=p.id, game_id=g1.id)
    e2 = act(session, room.sup, now, lists.join, player_id=p.id, game_id=g2.id)
    assert (e1.status, e2.status) == ("active", "active")
    assert [e.id for e in lists.list_entries(session, g1.id, None)] == [e1.id]
    assert [e.id for e in lists.list_entries(session, g2.id, None)] == [e2.id]


def test_r10_stays_on_other_games_lists_while_seated_elsewhere(room, session, now):
    _g1, t1 = full_game(room, session, now, free=1)
    g2, _ = full_game(room, session, now, free=0, name="2", variant="PL Omaha")
    p = room.player(now, "Ann")
    e2 = act(session, room.sup, now, lists.join, player_id=p.id, game_id=g2.id)
    act(session, room.sup, now, seats.seat_directly, table_id=t1.id, seat_no=9, player_id=p.id,
        buy_in=10000)
    session.refresh(e2)
    assert e2.status == "active"
    # and a seated player may still join another game's list
    g3, _ = full_game(room, session, now, free=0, name="3", variant="Stud")
    assert act(session, room.sup, now, lists.join, player_id=p.id, game_id=g3.id).status == "active"


def test_r10_duplicate_join_refused(room, session, now):
    g1, _ = full_game(room, session, now, free=0)
    p = room.player(now, "Ann")
    act(session, room.sup, now, lists.join, player_id=p.id, game_id=g1.id)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now + S, lists.join, player_id=p.id, game_id=g1.id)
    assert err.value.rule == "R10"


def test_r10_join_needs_exactly_one_list(room, session, now):
    g1, t1 = full_game(room, session, now, free=0)
    p = room.player(now, "Ann")
    with pytest.raises(Invalid):
        act(session, room.sup, now, lists.join, player_id=p.id)
    with pytest.raises(Invalid):
        act(session, room.sup, now, lists.join, player_id=p.id, game_id=g1.id, table_id=t1.id)


def test_r10_seated_player_cannot_join_own_games_waiting_list(room, session, now):
    game = room.game(now)
    table = room.table(now, game, "1")
    (hold,) = fill_table(room, session, now, game, table, free=8)
    with pytest.raises(Conflict) as err:
        act(session, room.sup, now, lists.join, player_id=hold.player_id, game_id=game.id)
    assert err.value.rule == "R18"
    with pytest.raises(Conflict) as err:  # nor the reserve list of the table they sit at
        act(session, room.sup, now, lists.join, player_id=hold.player_id, table_id=table.id)
    assert err.value.rule == "R11"


def test_r11_reserve_list_in_list_order_and_only_for_its_table(room, session, now):
    game, t1 = full_game(room, session, now, free=0)
    t2 = room.table(now, game, "2")
    fill_table(room, session, now, game, t2, free=0)
    a, b, c = room.player(now, "Ann"), room.player(now, "Bob"), room.player(now, "Cid")
    act(session, room.sup, now, lists.join, player_id=a.id, table_id=t2.id)  # earliest, but for t2
    act(session, room.sup, now + S, lists.join, player_id=b.id, table_id=t1.id)
    act(session, room.sup, now + 2 * S, lists.join, player_id=c.id, game_id=game.id)
    hold = next(h for h in _holds(session, t1.id) if h.seat_no == 3)
    act(session, room.sup, now + 3 * S, seats.leave, hold.id, 100)
    offer = live_offer(session, b.id)
    assert offer is not None and (offer.table_id, offer.seat_no) == (t1.id, 3)
    assert live_offer(session, a.id) is None and live_offer(session, c.id) is None


def _holds(session, table_id):
    from roomops.holds.queries import live_holds
    return live_holds(session, [table_id])


def test_r12_phone_entry_not_offered_until_checked_in(room, session, now):
    game, _ = full_game(room, session, now, free=1)
    p, q = room.player(now, "Ann"), room.player(now, "Bob")
    phone = act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id, source="phone")
    assert phone.checkin_deadline == now + timedelta(minutes=30)
    assert live_offer(session, p.id) is None
    act(session, room.sup, now + S, lists.join, player_id=q.id, game_id=game.id)
    assert live_offer(session, q.id) is not None  # the later in-person entry gets the seat
    act(session, room.sup, now + 2 * S, offers.decline, live_offer(session, q.id).id)
    assert live_offer(session, p.id) is None
    act(session, room.sup, now + 3 * S, lists.check_in, phone.id)
    assert live_offer(session, p.id) is not None
    assert [e.actor for e in audits(session, "entry.checked_in")] == [room.sup.label]


@pytest.mark.parametrize("offset,ok", [(-59, True), (-1, True), (0, False), (1, False)])
def test_r12_check_in_to_the_second(room, session, now, offset, ok):
    game, _ = full_game(room, session, now, free=0)
    p = room.player(now, "Ann")
    entry = act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id, source="phone")
    at = entry.checkin_deadline + timedelta(seconds=offset)
    if ok:
        assert act(session, room.sup, at, lists.check_in, entry.id).checked_in_at == at
    else:
        with pytest.raises(Conflict) as err:
            act(session, room.sup, at, lists.check_in, entry.id)
        assert err.value.rule == "R12"


def test_r12_in_person_entry_has_nothing_to_check_in(room, session, now):
    game, _ = full_game(room, session, now, free=0)
    entry = act(session, room.sup, now, lists.join, player_id=room.player(now, "Ann").id, game_id=game.id)
    with pytest.raises(Conflict):
        act(session, room.sup, now, lists.check_in, entry.id)


def test_r12_sweep_drops_no_show_at_the_deadline_to_the_second(room, session, now):
    game, _ = full_game(room, session, now, free=0)
    p, q = room.player(now, "Ann"), room.player(now, "Bob")
    late = act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id, source="phone")
    kept = act(session, room.sup, now, lists.join, player_id=q.id, game_id=game.id, source="phone")
    act(session, room.sup, now + S, lists.check_in, kept.id)
    assert sweep(session, late.checkin_deadline - S).no_shows == []
    assert late.status == "active"
    assert sweep(session, late.checkin_deadline).no_shows == [late.id]
    session.refresh(late)
    session.refresh(kept)
    assert (late.status, late.ended_at) == ("removed", late.checkin_deadline)
    assert kept.status == "active"
    rows = audits(session, "entry.no_show")
    assert len(rows) == 1 and rows[0].entity_id == late.id
    assert (rows[0].actor, rows[0].actor_id, rows[0].at) == ("scheduler", None, late.checkin_deadline)
    assert sweep(session, late.checkin_deadline + S).no_shows == []  # idempotent


def test_r13_reorder_needs_a_written_reason_and_audits_from_and_to(room, session, now):
    game, _ = full_game(room, session, now, free=0)
    ps = room.players(now, 4, "W")
    entries = [act(session, room.sup, now + i * S, lists.join, player_id=p.id, game_id=game.id)
               for i, p in enumerate(ps)]
    for reason in ("", "   "):
        with pytest.raises(Invalid) as err:
            act(session, room.sup, now, lists.reorder, entries[3].id, 1, reason)
        assert err.value.rule == "R13"
    with pytest.raises(Invalid):
        act(session, room.sup, now, lists.reorder, entries[3].id, 5, "past the end")
    assert audits(session, "entry.reordered") == []
    act(session, room.sup, now + 10 * S, lists.reorder, entries[3].id, 2, "came back from the cage")
    order = [e.id for e in lists.list_entries(session, game.id, None)]
    assert order == [entries[0].id, entries[3].id, entries[1].id, entries[2].id]
    (row,) = audits(session, "entry.reordered")
    assert row.reason == "came back from the cage" and row.actor == room.sup.label
    assert (row.detail["from_position"], row.detail["to_position"]) == (4, 2)
    assert row.entity_id == entries[3].id


def test_r16_removal_keeps_history_with_who_and_why(room, session, now):
    game, _ = full_game(room, session, now, free=0)
    p = room.player(now, "Ann")
    entry = act(session, room.sup, now, lists.join, player_id=p.id, game_id=game.id)
    with pytest.raises(Invalid):
        act(session, room.sup, now, lists.remove, entry.id, " ")
    act(session, room.sup, now + S, lists.remove, entry.id, "went home")
    session.flush()
    session.expire_all()
    assert (entry.status, entry.ended_at, entry.end_reason) == ("removed", now + S, "went home")
    rows = audits(session, entity=("list_entry", entry.id))
    assert [r.action for r in rows] == ["entry.joined", "entry.removed"]
    assert rows[1].reason == "went home" and rows[1].actor == room.sup.label
    assert lists.list_entries(session, game.id, None) == []
    with pytest.raises(Conflict):
        act(session, room.sup, now + 2 * S, lists.remove, entry.id, "again")
