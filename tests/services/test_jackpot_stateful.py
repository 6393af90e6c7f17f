"""Random sequences of jackpot actions keep the pools to the cent (R68-R70, R52; Hypothesis stateful
testing on every configured database).

Actions: hands dealt at two tables of one scheme, their drops (the right one, a wrong one, one from a
pot that does not qualify), seeds, adjustments up and down by two staff (some that would take a
pool below nothing), reversals of any row, claims on the last hand and their payout or refusal.
The scheme takes a fee and a backup share of each drop, so every drop is shared three ways. After
every step: each pool's shown amount (what the board and the tablets show) equals the sum of its
ledger rows and the model's own running figure; no cent is lost or created (money in: drops less
fees, seeds, adjustments; money out: payouts; reversals net to zero); a pool never goes below
nothing; a refusal names a rule and changes nothing."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.audit.models import AuditEvent
from roomops.errors import RoomopsError
from roomops.hands.services import record_hand
from roomops.jackpots import claims
from roomops.jackpots import pool as pools
from roomops.jackpots.drops import record_drop
from roomops.jackpots.models import JackpotRow
from roomops.jackpots.reads import by_game
from roomops.jackpots.rules import share_drop
from roomops.jackpots.terms import Posting
from tests.factories import Room_
from tests.services.jackpot_helpers import night
from tests.units import act

ROOMS = itertools.count()
POTS = st.sampled_from([0, 1500, 2000, 3000, 12_345])
AMOUNTS = st.sampled_from([1, 99, 1000, 40_000])


def _machine(session: Session, start: datetime) -> type[RuleBasedStateMachine]:
    class JackpotMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.tx = session.begin_nested()
            self.now = start
            self.room = Room_(session, start, slug=f"j{next(ROOMS)}")
            self.n = night(self.room, session, start, fee_bp=1000, backup_bp=2500, drop=150,
                           threshold=2000, cheque_threshold=5000)
            self.tables = [self.n.table, self.n.another_table(start, "2")]
            self.hands = {t.id: 0 for t in self.tables}
            self.model = {"main": 0, "backup": 0}
            self.taken_in = 0  # money in, less money out, by the model's own count

        def teardown(self) -> None:
            self.tx.rollback()

        def counts(self) -> tuple[int, int]:
            return (session.scalar(select(func.count()).select_from(JackpotRow)) or 0,
                    session.scalar(select(func.count()).select_from(AuditEvent)) or 0)

        def act(self, role: str, service: Any, *args: Any, **kw: Any) -> Any:
            before = self.counts()
            self.now += timedelta(seconds=20)
            try:
                with session.begin_nested():
                    return act(session, self.room.actor(role), self.now, service, *args, **kw)
            except RoomopsError as err:
                assert err.rule, err
                assert self.counts() == before, "a refusal changed something"
                return None

        @rule(table=st.integers(0, 1))
        def deal(self, table: int) -> None:
            t = self.tables[table]
            extra = {"high_card_seat": 1} if self.hands[t.id] == 0 else {}
            act(session, self.room.actor("dealer"), self.now, record_hand, t.id, hand_no=self.hands[t.id] + 1,
                **extra)
            self.hands[t.id] += 1

        @precondition(lambda self: any(self.hands.values()))
        @rule(table=st.integers(0, 1), pot=POTS, flop=st.booleans(), wrong=st.booleans())
        def drop(self, table: int, pot: int, flop: bool, wrong: bool) -> None:
            t = self.tables[table]
            if not self.hands[t.id]:
                return
            due = 150 if pot >= 2000 and flop else 0
            sent = (150 - due) if wrong else due
            taken = self.act("dealer", record_drop, t.id, self.hands[t.id], pot=pot, flop=flop, drop=sent)
            if taken is not None:
                assert sent == due and taken.amount == due
                parts = share_drop(due, 1000, 2500)
                self.model["main"] += parts.main if due else 0
                self.model["backup"] += parts.backup if due else 0
                self.taken_in += parts.main + parts.backup if due else 0

        @rule(amount=AMOUNTS)
        def seed(self, amount: int) -> None:
            if self.act("supervisor", pools.seed, self.n.scheme.id, amount, reason="seed") is not None:
                self.model["main"] += amount
                self.taken_in += amount

        @rule(amount=AMOUNTS, down=st.booleans(), backup=st.booleans())
        def adjust(self, amount: int, down: bool, backup: bool) -> None:
            pool = "backup" if backup else "main"
            signed = -amount if down else amount
            row = self.act("supervisor", pools.adjust, self.n.scheme.id, pool, signed, "counted again",
                           self.room.staff["cashier"])
            if row is not None:
                self.model[pool] += signed
                self.taken_in += signed
            else:
                assert self.model[pool] + signed < 0  # refused only where the pool would go below nothing

        @rule(pick=st.integers(0, 50))
        def reverse(self, pick: int) -> None:
            rows = list(session.scalars(select(JackpotRow).where(JackpotRow.scheme_id == self.n.scheme.id)
                                        .order_by(JackpotRow.id)))
            if not rows:
                return
            undone = self.act("supervisor", pools.reverse, rows[pick % len(rows)].id, "a mistake")
            for r in undone or ():
                self.model[r.pool] += r.amount
                self.taken_in += r.amount

        @precondition(lambda self: self.hands[self.tables[0].id] > 0)
        @rule(pay=st.booleans())
        def claim(self, pay: bool) -> None:
            t = self.tables[0]
            made = self.act("dealer", claims.make, t.id, self.hands[t.id], winning_seat=3,
                            winning_cards="Qh Qs Qc Qd", losing_seat=5, losing_cards="Ah Ad Ac Kh Kd")
            if made is None:
                return
            second = self.room.staff["cashier"]
            if not pay:
                assert self.act("supervisor", claims.refuse, made.id, second, "both cards did not play")
                return
            paid = self.act("supervisor", claims.pay, made.id, second, camera_ref="CAM 1")
            if paid is None:
                assert self.model["main"] == 0
                return
            assert paid.prize == self.model["main"]
            assert sum(-r.amount for r in paid.rows) == paid.prize  # to the cent
            assert all(r.method == "cheque" for r in paid.rows if -r.amount > 5000)
            self.taken_in -= paid.prize
            self.model["main"], self.model["backup"] = self.model["backup"], 0  # the backup seeds the next

        @invariant()
        def pools_are_their_ledgers(self) -> None:
            held = pools.amounts(session, [self.n.scheme.id])[self.n.scheme.id]
            sums = dict(session.execute(select(JackpotRow.pool, func.sum(JackpotRow.amount)).where(
                JackpotRow.scheme_id == self.n.scheme.id).group_by(JackpotRow.pool)).tuples().all())
            assert (held.main, held.backup) == (sums.get("main", 0), sums.get("backup", 0))
            assert (held.main, held.backup) == (self.model["main"], self.model["backup"])
            assert held.main >= 0 and held.backup >= 0
            assert held.main + held.backup == self.taken_in  # no cent lost or created
            shown: Posting = by_game(session, self.room.room.id)[self.n.game.id][0]
            assert (shown.main, shown.backup) == (held.main, held.backup)  # what the board posts

    return JackpotMachine


def test_random_jackpot_actions_keep_every_pool_to_the_cent(session, now):
    run_state_machine_as_test(_machine(session, now), settings=settings(
        max_examples=15, stateful_step_count=25, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))
