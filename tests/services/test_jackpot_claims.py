"""Jackpot claims and payouts (R70, R69, R60, R61) on the services, on every configured database: a
claim made at the table, verified by a supervisor and a second staff member, the surveillance
reference above the camera threshold, each player's share a pool row adding up to the prize, the
cheque above its threshold, claims at once sharing, and the backup seeding the next pool."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from roomops.errors import Conflict, Forbidden, Invalid
from roomops.hands.services import record_hand
from roomops.jackpots import claims
from roomops.jackpots import pool as pools
from roomops.jackpots.drops import record_drop
from roomops.jackpots.models import JackpotDecision, JackpotRow
from tests.services.helpers import audits, refused
from tests.services.jackpot_helpers import night
from tests.units import act

MIN = timedelta(minutes=1)
BAD = dict(winning_seat=3, winning_cards="Qh Qs Qc Qd", losing_seat=5, losing_cards="Ah Ad Ac Kh Kd")


def _seeded(room, session, now, amount=40_000, **terms):
    n = night(room, session, now, **terms)
    act(session, room.sup, now, pools.seed, n.scheme.id, amount, reason="opening seed")
    n.hand(now)
    return n


def _claim(room, session, now, n, hand_no=1, **hands):
    return act(session, room.actor("dealer"), now, claims.make, n.table.id, hand_no, **(hands or BAD))


def test_r70_a_bad_beat_paid_50_25_25_each_share_a_row_adding_up_to_the_prize(room, session, now):
    n = _seeded(room, session, now, 40_001)  # 400.01: under the camera threshold
    claim = _claim(room, session, now, n)
    assert [d["seat_no"] for d in claim.dealt] == list(range(1, 9))
    assert audits(session, "jackpot.claimed")[0].detail["winning_cards"] == "Qh Qs Qc Qd"
    paid = act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"])
    assert paid.prize == 40_001
    by_seat = {r.seat_no: (r.share, -r.amount, r.method) for r in paid.rows}
    assert by_seat[5] == ("losing", 20_000, "cash") and by_seat[3] == ("winning", 10_000, "cash")
    table = sorted(-r.amount for r in paid.rows if r.share == "table")
    assert len(table) == 6 and table[-1] - table[0] <= 1
    assert sum(-r.amount for r in paid.rows) == 40_001
    assert pools.amounts(session, [n.scheme.id])[n.scheme.id].main == 0
    [decision] = paid.decisions
    assert (decision.supervisor_id, decision.second_staff_id) == (room.staff["supervisor"].id,
                                                                 room.staff["cashier"].id)
    refused(lambda: act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"]), "R70",
            "already paid", error=Conflict)


def test_r70_the_prize_is_the_schemes_part_of_the_pool(room, session, now):
    n = _seeded(room, session, now, 40_000, prize_bp=7_500)
    paid = act(session, room.sup, now, claims.pay, _claim(room, session, now, n).id, room.staff["cashier"])
    assert paid.prize == 30_000
    assert pools.amounts(session, [n.scheme.id])[n.scheme.id].main == 10_000


def test_r70_two_staff_verify_and_the_camera_above_its_threshold(room, session, now):
    n = _seeded(room, session, now, 60_000)
    claim = _claim(room, session, now, n)
    refused(lambda: act(session, room.sup, now, claims.pay, claim.id, room.staff["supervisor"]), "R70",
            "second person", error=Conflict)
    refused(lambda: act(session, room.actor("dealer"), now, claims.pay, claim.id, room.staff["cashier"]),
            "R61", error=Forbidden)
    refused(lambda: act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"]), "R70",
            "surveillance reference", error=Invalid)
    paid = act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"],
               camera_ref="CAM 12 / 21:04")
    [decision] = paid.decisions
    assert decision.camera_ref == "CAM 12 / 21:04" and decision.sealed_until == now + timedelta(days=7)
    again = _claim(room, session, now, n)
    # the database: a paid prize above the threshold has its reference
    with pytest.raises(IntegrityError), session.begin_nested():
        session.execute(insert(JackpotDecision).values(
            room_id=room.room.id, claim_id=again.id, decision="paid", at=now,
            supervisor_id=room.staff["supervisor"].id, second_staff_id=room.staff["cashier"].id,
            prize=60_000, camera_threshold=50_000))


def test_r70_a_share_above_the_cheque_threshold_is_owed_by_cheque_within_24_hours(room, session, now):
    n = _seeded(room, session, now, 40_000, cheque_threshold=15_000)
    paid = act(session, room.sup, now, claims.pay, _claim(room, session, now, n).id, room.staff["cashier"],
               paid_in="chips")
    by_seat = {r.seat_no: r for r in paid.rows}
    assert (by_seat[5].method, by_seat[5].cheque_due_at) == ("cheque", now + timedelta(hours=24))
    assert (by_seat[3].method, by_seat[3].cheque_due_at) == ("chips", None)


def test_r70_a_claim_names_seats_dealt_in(room, session, now):
    n = _seeded(room, session, now)
    refused(lambda: _claim(room, session, now, n, winning_seat=9, winning_cards="Qh Qs Qc Qd",
                           losing_seat=5, losing_cards="Ah Ad Ac Kh Kd"), "R70", "seat 9 was not dealt in",
            error=Invalid)
    refused(lambda: _claim(room, session, now, n, winning_seat=3, winning_cards="Qh Qs Qc Qd"), "R70",
            "losing hand", error=Invalid)
    refused(lambda: _claim(room, session, now, n, winning_seat=3, winning_cards=" ", losing_seat=5,
                           losing_cards="Ah Ad Ac Kh Kd"), "R70", "cards", error=Invalid)


def test_r70_a_high_hand_pays_its_one_hand(room, session, now):
    n = _seeded(room, session, now, 20_000, kind="high_hand", name="High hand")
    claim = _claim(room, session, now, n, winning_seat=2, winning_cards="9s 9h 9d 9c")
    paid = act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"])
    assert [(r.seat_no, r.share, -r.amount) for r in paid.rows] == [(2, "winning", 20_000)]


def test_r70_claims_at_once_share_the_prize_the_earliest_taking_the_odd_cent(room, session, now):
    n = _seeded(room, session, now, 40_001)
    other = n.another_table(now, "2")
    act(session, room.actor("dealer"), now, record_hand, other.id, hand_no=1, high_card_seat=1)
    first = _claim(room, session, now, n)
    second = act(session, room.actor("dealer"), now + MIN, claims.make, other.id, 1, **BAD)
    assert [c.id for c in claims.at_once(session, second)] == [first.id, second.id]
    paid = act(session, room.sup, now + MIN, claims.pay, second.id, room.staff["cashier"])
    assert [d.prize for d in paid.decisions] == [20_001, 20_000]
    assert {d.claim_id for d in paid.decisions} == {first.id, second.id}
    assert sum(-r.amount for r in paid.rows) == 40_001


def test_r70_a_claim_on_a_later_hand_is_not_at_once(room, session, now):
    n = _seeded(room, session, now)
    first = _claim(room, session, now, n)
    n.hand(now + 5 * MIN)
    later = _claim(room, session, now + 5 * MIN, n, hand_no=2)
    assert claims.at_once(session, later) == [later] and claims.at_once(session, first) == [first]


def test_r70_a_refused_claim_keeps_the_pool(room, session, now):
    n = _seeded(room, session, now)
    claim = _claim(room, session, now, n)
    refused(lambda: act(session, room.sup, now, claims.refuse, claim.id, room.staff["cashier"], " "), "R70",
            "reason", error=Invalid)
    act(session, room.sup, now, claims.refuse, claim.id, room.staff["cashier"], "both cards did not play")
    assert pools.amounts(session, [n.scheme.id])[n.scheme.id].main == 40_000
    refused(lambda: act(session, room.sup, now, claims.pay, claim.id, room.staff["cashier"]), "R70",
            "already refused", error=Conflict)


def test_r69_the_backup_seeds_the_next_pool_once_a_prize_is_paid(room, session, now):
    n = night(room, session, now, backup_bp=5000)
    n.hand(now)
    act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    paid = act(session, room.sup, now, claims.pay, _claim(room, session, now, n).id, room.staff["cashier"])
    assert paid.prize == 50
    assert pools.amounts(session, [n.scheme.id])[n.scheme.id] == pools.Amounts(50, 0)
    seeds = session.scalars(select(JackpotRow).where(JackpotRow.kind == "seed")).all()
    assert sorted((s.pool, s.amount) for s in seeds) == [("backup", -50), ("main", 50)]


def test_r70_no_prize_from_an_empty_pool(room, session, now):
    n = night(room, session, now)
    n.hand(now)
    refused(lambda: act(session, room.sup, now, claims.pay, _claim(room, session, now, n).id,
                        room.staff["cashier"]), "R70", "empty", error=Conflict)
