"""Penalties (R55) and removal (R57) on the services, on every configured database: a sit-out is
counted in the hands the dealer records, the seat dealt out meanwhile and collecting its
missed-blind buttons (R35)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from roomops.errors import Conflict, Forbidden, Invalid, NotFound
from roomops.hands.models import PenaltyRecord, SeatBlinds
from roomops.hands.services import preview, record_hand
from roomops.holds.models import SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.penalties.services import give_penalty, suggest
from tests.services.helpers import audits, full_game
from tests.units import act

MIN = timedelta(minutes=1)


def _table(room, session, now):
    game, table = full_game(room, session, now, free=3)  # six players
    holds = {h.seat_no: h for h in session.scalars(select(SeatHold).where(
        SeatHold.table_id == table.id, SeatHold.kind == "seated"))}
    act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=1, high_card_seat=1)
    return game, table, holds


def _deal(room, session, now, table, first, last):
    return [act(session, room.actor("dealer"), now, record_hand, table.id, hand_no=n)
            for n in range(first, last + 1)]


def test_r55_a_sit_out_of_n_hands_is_counted_in_recorded_hands(room, session, now):
    _game, table, holds = _table(room, session, now)
    row = act(session, room.sup, now, give_penalty, holds[4].id, kind="hands", count=3, reason="abuse")
    assert (row.hands_out, row.from_hand_no) == (3, 1)
    assert preview(session, room.actor("dealer"), table.id).dealt_out == {4: 3}
    dealt = _deal(room, session, now, table, 2, 4)
    assert all(4 not in h.dealt_in for h in dealt)  # hands 2, 3 and 4: dealt out
    assert preview(session, room.actor("dealer"), table.id).dealt_out == {}
    assert audits(session, "penalty.given")[-1].reason == "abuse"


def test_r55_a_round_is_one_hand_per_player_at_the_table_when_given(room, session, now):
    _game, table, holds = _table(room, session, now)
    row = act(session, room.sup, now, give_penalty, holds[2].id, kind="rounds", count=1, reason="late")
    assert (row.players_at_table, row.hands_out) == (6, 6)
    assert preview(session, room.actor("dealer"), table.id).dealt_out == {2: 6}
    dealt = _deal(room, session, now, table, 2, 7)
    assert all(2 not in h.dealt_in for h in dealt)
    assert preview(session, room.actor("dealer"), table.id).dealt_out == {}
    assert session.get_one(SeatBlinds, holds[2].id).missed_bb  # R35: back owing what was missed


def test_r55_sitting_out_collects_missed_blind_buttons(room, session, now):
    _game, table, holds = _table(room, session, now)  # button 1, BB 3
    act(session, room.sup, now, give_penalty, holds[4].id, kind="hands", count=2, reason="splashing")
    _deal(room, session, now, table, 2, 3)  # BB 4 passes: a missed big blind
    assert session.get_one(SeatBlinds, holds[4].id).missed_bb


def test_r57_removal_ends_the_seat_and_the_game_lists(room, session, now):
    game, _t, holds = _table(room, session, now)
    waiting = room.player(now, "Wren")
    act(session, room.sup, now, lists.join, player_id=waiting.id, game_id=game.id)
    offender = holds[5]
    other = room.game(now, small_blind=200, big_blind=400, min_buyin=20000, max_buyin=80000)
    act(session, room.sup, now, lists.join, player_id=offender.player_id, game_id=other.id)
    act(session, room.sup, now, give_penalty, offender.id, kind="removal", reason="threats",
        leave_amount=12000)
    session.refresh(offender)
    assert (offender.outcome, offender.leave_amount) == ("left", 12000)
    entries = list(session.scalars(select(ListEntry).where(ListEntry.player_id == offender.player_id)))
    assert [e.game_id for e in entries if e.status == "active"] == [other.id]  # other games keep them
    assert audits(session, "penalty.given")[-1].detail["rule"] == "R57"


def test_r55_escalation_follows_the_players_history(room, session, now):
    _game, _t, holds = _table(room, session, now)
    assert suggest(session, room.sup, now, holds[1].id).kind == "warning"
    act(session, room.sup, now, give_penalty, holds[1].id, kind="warning", reason="language")
    nxt = suggest(session, room.sup, now, holds[1].id)
    assert (nxt.kind, nxt.count, nxt.players_at_table) == ("rounds", 1, 6)
    act(session, room.sup, now, give_penalty, holds[1].id, kind="rounds", count=1, reason="again")
    assert (suggest(session, room.sup, now, holds[1].id).count) == 2
    # the window: a month later the slate is clean (docs/decisions.md)
    assert suggest(session, room.sup, now + timedelta(days=31), holds[1].id).kind == "warning"


def test_r55_refusals(room, session, now):
    _game, _t, holds = _table(room, session, now)
    with pytest.raises(Invalid) as err:
        act(session, room.sup, now, give_penalty, holds[1].id, kind="hands", count=0, reason="x")
    assert err.value.rule == "R55"
    with pytest.raises(Invalid):
        act(session, room.sup, now, give_penalty, holds[1].id, kind="rounds", count=3, reason="x")
    with pytest.raises(Invalid):
        act(session, room.sup, now, give_penalty, holds[1].id, kind="warning", reason="  ")
    with pytest.raises(NotFound):
        act(session, room.sup, now, give_penalty, 999999, kind="warning", reason="x")
    with pytest.raises(Forbidden):
        act(session, room.actor("dealer"), now, give_penalty, holds[1].id, kind="warning", reason="x")
    act(session, room.sup, now, give_penalty, holds[1].id, kind="removal", reason="x")
    with pytest.raises(Conflict):
        act(session, room.sup, now, give_penalty, holds[1].id, kind="warning", reason="x")
    assert session.scalar(select(PenaltyRecord.kind).order_by(PenaltyRecord.id.desc())) == "removal"
