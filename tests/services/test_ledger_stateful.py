"""Random sequences of money actions keep the books (R27, R28, R30-R32, R52, R54; Hypothesis stateful
testing on every configured database).

Actions: buy-ins, add-ons, leaving with a recorded amount and cashing out (with or without a
supervisor's approval: never more than one standing cash-out per seat, an approval never the
poster's own), playovers (an owner's break, a listed player playing over with their own buy-in
posted as the playover's row, add-ons and a cash-out naming the playover, the owner back with the
overplayer's counted stack or without: never more than one standing cash-out per playover, and a
playover's rows always the overplayer's), reversals (never by the row's poster: the room requires
two people), transit requests and every transit step by any staff member, each with an idempotency
key drawn from a small pool (so keys are reused for other content), retries of earlier keyed
requests, and the clock moving on by hours through the room's shifts (R54: five a day, one after
midnight), and shift closes by two people (tables counted at what the ledger expects, or a chip off
with an explanation), early or on time, in order or not. After every step: the ledger's totals per
table, game, staff member and shift equal the sum of the rows the model expects (each row in the
shift of the moment it was posted, or the next open one when that shift was closed early), the
day's report per shift adds up, a closed shift's figures are still those it closed with, a retry
returned the first result and posted nothing, every reversal nets its row to zero, slip numbers run
1..n with none missing or repeated, and a refusal names a rule and changes nothing."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import date, datetime, timedelta
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
from sqlalchemy import exists, func, select
from sqlalchemy.orm import Session, aliased

from roomops.absences import services as absences
from roomops.audit.models import AuditEvent
from roomops.errors import RoomopsError
from roomops.holds.playovers import Playover
from roomops.ledger import cash_outs, dayclose, transit
from roomops.ledger import services as ledger
from roomops.ledger.dayclose import Count
from roomops.ledger.models import LedgerEntry, TransitSlip, unreversed
from roomops.ledger.numbers import last_slip_number
from roomops.ledger.report import day_report, expected_by_table
from roomops.lists import services as lists
from roomops.money import Money
from roomops.playovers.services import start_playover
from roomops.rooms.shifts import shift_of
from roomops.seating import seats
from tests.factories import Room_
from tests.units import act, sweep

ROOMS = itertools.count()
OVERPLAYERS = itertools.count()
ROLES = ("supervisor", "cashier", "admin")
AMOUNTS = st.one_of(st.integers(-100, 45000), st.sampled_from([0, 10000, 40000, 40001, 150.5]))
KEYS = st.sampled_from([None, None, "a", "b", "c", "d"])
MOVEMENTS = {"buy_in": ledger.buy_in, "add_on": ledger.add_on, "cash_out": cash_outs.cash_out}
_REVERSAL = aliased(LedgerEntry)
SIGN = {"buy_in": 1, "add_on": 1, "cash_out": -1}
SHIFTS = "06:00,09:30,14:00,22:00,02:00"  # R54: shift 5 starts after midnight


def _machine(session: Session, start: datetime) -> type[RuleBasedStateMachine]:
    class LedgerMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.tx = session.begin_nested()
            self.now = start
            # no offers by themselves: a listed player waits for a playover (R29); a break at once
            self.room = Room_(session, start, slug=f"l{next(ROOMS)}", timezone="Europe/London",
                              shift_starts=SHIFTS, auto_offer=False, break_after_play_minutes=0)
            game = self.room.game(start)
            tables = [self.room.table(start, game, name) for name in ("1", "2")]
            self.holds = {}  # hold id -> (table id, game id)
            for i, p in enumerate(self.room.players(start, 6, "L")):
                hold = act(session, self.room.sup, start, seats.seat_directly, table_id=tables[i % 2].id,
                           seat_no=i // 2 + 1, player_id=p.id, buy_in=10000)
                self.holds[hold.id] = (tables[i % 2].id, game.id)
            # expected rows: table, game, staff, amount, (gaming day, shift) (R54)
            self.rows: dict[int, tuple[int | None, int | None, int, int, tuple[date, int]]] = {}
            self.reversed: dict[int, int] = {}  # reversal id -> row id
            # (slip or row, key) -> the first keyed request that succeeded and what it answered
            self.keyed: dict[tuple[str, str], tuple[Any, str, tuple[Any, ...], int]] = {}
            self.slip_amounts: dict[int, int] = {}
            self.playovers: dict[int, int] = {}  # playover id -> the owner's hold (R29)
            # (gaming day, shift) closed -> its rows and total when it closed (R54)
            self.closed: dict[tuple[date, int], tuple[int, int]] = {}
            for row in session.scalars(select(LedgerEntry).where(  # R30: seating posts the buy-ins
                    LedgerEntry.room_id == self.room.room.id)):
                self.rows[row.id] = (row.table_id, row.game_id, row.staff_id, row.amount,
                                     self.shift())

        def teardown(self) -> None:
            self.tx.rollback()

        def shift(self) -> tuple[date, int]:
            """R54: the gaming day and shift of a row posted now, by the pure rule: the shift of
            the moment, or the first later one not closed (shifts close in order)."""
            room = self.room.room
            s = shift_of(self.now, room.timezone, room.gaming_day_start, room.shifts)
            closed = [n for day, n in self.closed if day == s.gaming_day]
            return s.gaming_day, max([s.number, *(n + 1 for n in closed)])

        def counts(self) -> tuple[int, int, int]:
            return tuple(session.scalar(select(func.count()).select_from(m))  # type: ignore[return-value]
                         for m in (LedgerEntry, TransitSlip, AuditEvent))

        def act(self, role: str, service: Any, *args: Any, key: str | None = None,
                **more: Any) -> Any:
            """Call as ``role``; a refusal names a rule and leaves everything as it was."""
            who = self.room.actor(role)
            before = self.counts()
            self.now += timedelta(seconds=30)
            try:
                with session.begin_nested():
                    result = act(session, who, self.now, service, *args,
                                 **({"key": key} if key else {}), **more)
            except RoomopsError as err:
                assert err.rule, err
                assert self.counts() == before
                return None
            if key is not None:
                kind = "slip" if service is transit.request else "row"
                first = self.keyed.setdefault((kind, key), (service, role, args, result.id))
                assert first[3] == result.id  # the same key never answers with another row
            return result

        def expect_new_rows(self, before: int) -> list[LedgerEntry]:
            return list(session.scalars(select(LedgerEntry).where(LedgerEntry.id > before)))

        def last_row_id(self) -> int:
            return session.scalar(select(func.max(LedgerEntry.id))) or 0

        def movement(self, kind: str, role: str, hold: int, amount: Any, key: str | None) -> None:
            before = self.last_row_id()
            self.act(role, MOVEMENTS[kind], hold, amount, key=key)
            table, game = self.holds[hold]
            for row in self.expect_new_rows(before):
                self.rows[row.id] = (table, game, self.room.staff[role].id, SIGN[kind] * amount,
                                     self.shift())

        # -- rules -------------------------------------------------------------------------------
        @rule(role=st.sampled_from(ROLES), i=st.integers(0, 5), amount=AMOUNTS, key=KEYS,
              kind=st.sampled_from(["buy_in", "add_on", "cash_out"]))
        def money(self, role: str, i: int, amount: Any, key: str | None, kind: str) -> None:
            self.movement(kind, role, list(self.holds)[i], amount, key)

        @rule(role=st.sampled_from(ROLES), i=st.integers(0, 5), amount=AMOUNTS,
              approver=st.sampled_from([None, "admin", "supervisor", "cashier"]))
        def cash_out(self, role: str, i: int, amount: Any, approver: str | None) -> None:
            """R27/R28: paid once per seat; a different amount needs a second supervisor."""
            hold = list(self.holds)[i]
            before = self.last_row_id()
            by = self.room.staff[approver] if approver else None
            self.act(role, cash_outs.cash_out, hold, amount, approver=by)
            table, game = self.holds[hold]
            for row in self.expect_new_rows(before):
                assert row.approved_by_id in (None, by.id if by else None)
                assert row.approved_by_id != row.staff_id
                self.rows[row.id] = (table, game, self.room.staff[role].id, -amount, self.shift())
            # the seat's own standing cash-outs: a playover's on it is its overplayer's (R29,
            # counted once per playover by ``playovers_are_the_overplayers``)
            assert session.scalar(select(func.count()).where(
                LedgerEntry.hold_id == hold, LedgerEntry.kind == "cash_out",
                LedgerEntry.playover_id.is_(None),
                ~exists().where(_REVERSAL.reverses_id == LedgerEntry.id))) <= 1

        @rule(i=st.integers(0, 5), amount=st.sampled_from([5000, 10000, 15000]))
        def playover(self, i: int, amount: int) -> None:
            """R29/R30: the owner goes on a break and a listed player plays over with their own
            buy-in, posted as one row of the playover at the owner's table."""
            hold = list(self.holds)[i]
            table, game = self.holds[hold]
            self.act("supervisor", absences.grant_break, hold, 10000)
            player = self.room.player(self.now, f"Over{next(OVERPLAYERS)}")
            entry = self.act("supervisor", lists.join, player_id=player.id, game_id=game)
            before = self.last_row_id()
            started = self.act("supervisor", start_playover, hold, buy_in=amount,
                               entry_id=entry.id, reason="the one who asked")
            new = self.expect_new_rows(before)
            if started is None:
                assert new == []
                return
            self.playovers[started.id] = hold
            (row,) = new
            assert (row.kind, row.amount, row.playover_id, row.player_id, row.table_id) == (
                "buy_in", amount, started.id, player.id, table)
            self.rows[row.id] = (table, game, self.room.staff["supervisor"].id, amount, self.shift())

        @precondition(lambda self: self.playovers)
        @rule(data=st.data(), role=st.sampled_from(ROLES),
              kind=st.sampled_from(["add_on", "cash_out"]),
              approver=st.sampled_from([None, "supervisor", "admin"]))
        def playover_money(self, data: st.DataObject, role: str, kind: str,
                           approver: str | None) -> None:
            """R27-R29: an add-on for the overplayer while the playover runs; their cash-out once
            it has ended, tied to the counted stack (drawn often), once."""
            playover = data.draw(st.sampled_from(sorted(self.playovers)))
            hold = self.playovers[playover]
            counted = session.get_one(Playover, playover).leave_amount
            amount = data.draw(st.one_of(st.just(counted or 10000), AMOUNTS))
            before = self.last_row_id()
            more = {"approver": self.room.staff[approver] if approver else None} if (
                kind == "cash_out") else {}
            self.act(role, MOVEMENTS[kind], hold, amount, playover_id=playover, **more)
            for row in self.expect_new_rows(before):
                assert row.playover_id == playover
                self.rows[row.id] = (*self.holds[hold], self.room.staff[role].id,
                                     SIGN[kind] * amount, self.shift())

        @precondition(lambda self: self.playovers)
        @rule(data=st.data(), stack=st.sampled_from([None, 0, 12000, 30000]))
        def owner_back(self, data: st.DataObject, stack: int | None) -> None:
            """R29: the owner is back; the playover ends, with the overplayer's counted stack or
            none (then the chips on its books: a cash-out of another amount needs an approval)."""
            hold = self.playovers[data.draw(st.sampled_from(sorted(self.playovers)))]
            before = self.last_row_id()
            self.act("supervisor", absences.come_back, hold, overplayer_stack=stack)
            assert self.expect_new_rows(before) == []

        @rule()
        def released(self) -> None:
            """R24: the scheduler releases the seats whose break ran out, ending their playovers
            with no stack counted (the chips on their books are the leave amount); no money
            moves."""
            before = self.last_row_id()
            with session.begin_nested():
                sweep(session, self.now)
            assert self.expect_new_rows(before) == []

        @rule(i=st.integers(0, 5), amount=st.sampled_from([0, 10000, 23000]))
        def leave(self, i: int, amount: int) -> None:
            self.act("supervisor", seats.leave, list(self.holds)[i], amount)

        @precondition(lambda self: self.rows)
        @rule(data=st.data(), role=st.sampled_from(ROLES), key=KEYS)
        def reverse(self, data: st.DataObject, role: str, key: str | None) -> None:
            target = data.draw(st.sampled_from(sorted(self.rows)))
            before = self.last_row_id()
            self.act(role, ledger.reverse, target, "correction", key=key)
            for row in self.expect_new_rows(before):
                self.reversed[row.id] = row.reverses_id
                table, game, _staff, amount, _shift = self.rows[row.reverses_id]
                # a reversal is a row of the shift it is posted in, not of the row it reverses
                self.rows[row.id] = (table, game, self.room.staff[role].id, -amount, self.shift())

        @rule(role=st.sampled_from(ROLES), i=st.integers(0, 5), amount=AMOUNTS, key=KEYS,
              method=st.sampled_from(["cash", "chips", "cheque", "credit"]))
        def request(self, role: str, i: int, amount: Any, key: str | None, method: str) -> None:
            slip = self.act(role, transit.request, list(self.holds)[i], amount, method, key=key)
            if slip is not None:
                self.slip_amounts.setdefault(slip.id, slip.amount)

        @precondition(lambda self: self.slip_amounts)
        @rule(data=st.data(), role=st.sampled_from(ROLES),
              step=st.sampled_from(["confirm_funds", "dispatch", "deliver", "cancel"]))
        def step(self, data: st.DataObject, role: str, step: str) -> None:
            slip_id = data.draw(st.sampled_from(sorted(self.slip_amounts)))
            before = self.last_row_id()
            args = (slip_id, "not needed") if step == "cancel" else (slip_id,)
            self.act(role, getattr(transit, step), *args)
            slip = session.get_one(TransitSlip, slip_id)
            for row in self.expect_new_rows(before):
                assert (row.kind, row.slip_id, row.amount) == ("transit", slip_id, slip.amount)
                assert slip.delivered_by_id != slip.authorised_by_id  # R31/R61
                self.rows[row.id] = (*self.holds[slip.hold_id], self.room.staff[role].id,
                                     self.slip_amounts[slip_id], self.shift())

        @rule(minutes=st.integers(1, 9 * 60))
        def later(self, minutes: int) -> None:
            """The clock moves on, into later shifts and gaming days (R54)."""
            self.now += timedelta(minutes=minutes)

        @rule(back=st.integers(0, 1), upto=st.integers(1, 5), off=st.sampled_from([0, 0, 100]))
        def close(self, back: int, upto: int, off: int) -> None:
            """R54: the open shifts of today or yesterday up to ``upto`` are closed in order, as
            the cage would; the first refusal (a shift not started yet, the day's last before the
            day ends) stops it."""
            day = dayclose.today(self.room.room, self.now) - timedelta(days=back)
            for which in range(1, upto + 1):
                if (day, which) not in self.closed and not self.close_one(day, which, off):
                    return

        def close_one(self, day: date, which: int, off: int) -> bool:
            """R54: a cashier and a supervisor count every table and the total (``off``: a chip
            over, explained) and close the shift."""
            room = self.room.room
            last = which == len(dayclose.shifts(room, day))
            counts = [Count(table, amount + off, "a chip over" if off else None)
                      for table, amount in expected_by_table(
                          session, room.id, day, which, last).items()]
            for role in ("cashier", "supervisor"):
                self.act(role, dayclose.record_counts, day, counts, shift=which)
            done = self.act("supervisor", dayclose.close_day, day, self.room.staff["cashier"].id,
                            shift=which)
            if done is None:
                return False
            assert (day, which) not in self.closed
            self.closed[(day, which)] = (done.row.entries, done.row.expected_total)
            return True

        @precondition(lambda self: self.keyed)
        @rule(data=st.data())
        def retry(self, data: st.DataObject) -> None:
            kind_key = data.draw(st.sampled_from(sorted(self.keyed)))
            service, role, args, first_id = self.keyed[kind_key]
            before = self.counts()
            again = self.act(role, service, *args, key=kind_key[1])
            assert again is not None and again.id == first_id
            assert self.counts() == before

        # -- invariants ----------------------------------------------------------------------------
        @invariant()
        def totals_reconcile(self) -> None:
            room = self.room.room.id
            for column, index in ((LedgerEntry.table_id, 0), (LedgerEntry.game_id, 1),
                                  (LedgerEntry.staff_id, 2)):
                got = dict(session.execute(select(column, func.sum(LedgerEntry.amount)).where(
                    LedgerEntry.room_id == room).group_by(column)).all())
                want: Counter[int | None] = Counter()
                for row in self.rows.values():
                    want[row[index]] += row[3]
                assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}
            ids = session.scalars(select(LedgerEntry.id).where(LedgerEntry.room_id == room))
            assert set(ids) == set(self.rows)

        @invariant()
        def shift_totals_are_the_sum_of_their_rows(self) -> None:
            """R54: per gaming day and shift, the rows and their sum are the model's; the day's
            report per shift says the same and each of its breakdowns adds up."""
            room = self.room.room.id
            got = {(d, s): (n, a) for d, s, n, a in session.execute(
                select(LedgerEntry.gaming_day, LedgerEntry.shift_no, func.count(),
                       func.sum(LedgerEntry.amount)).where(LedgerEntry.room_id == room)
                .group_by(LedgerEntry.gaming_day, LedgerEntry.shift_no))}
            want: dict[tuple[date, int], tuple[int, int]] = {}
            for *_, amount, key in self.rows.values():
                n, total = want.get(key, (0, 0))
                want[key] = (n + 1, total + amount)
            assert got == want
            for day in {d for d, _s in want}:
                report = day_report(session, room, Money("GBP"), day)
                assert report.reconciled
                assert {(day, x.key): (x.entries, x.amount) for x in report.by_shift} == {
                    k: v for k, v in want.items() if k[0] == day}

        @invariant()
        def closed_shifts_never_change(self) -> None:
            """R54: after a close, its shift's rows and total are those it closed with."""
            for key, (entries, total) in self.closed.items():
                rows = [r for r in self.rows.values() if r[4] == key]
                assert (len(rows), sum(r[3] for r in rows)) == (entries, total or 0)

        @invariant()
        def playovers_are_the_overplayers(self) -> None:
            """R28/R29: a playover's rows are its overplayer's, at its seat; one standing
            cash-out per playover at most."""
            rows = session.execute(
                select(LedgerEntry.playover_id, LedgerEntry.kind, LedgerEntry.player_id,
                       LedgerEntry.hold_id, Playover.player_id, Playover.hold_id, unreversed())
                .join(Playover, Playover.id == LedgerEntry.playover_id)
                .where(LedgerEntry.room_id == self.room.room.id)).all()
            for _po, _kind, player, hold, overplayer, seat, _standing in rows:
                assert (player, hold) == (overplayer, seat)
            cash_outs = Counter(po for po, kind, *_, standing in rows
                                if kind == "cash_out" and standing)
            assert all(n == 1 for n in cash_outs.values())

        @invariant()
        def reversals_net_to_zero(self) -> None:
            for rev, row in self.reversed.items():
                assert self.rows[rev][3] + self.rows[row][3] == 0
                assert session.get_one(LedgerEntry, row).kind != "reversal"

        @invariant()
        def slip_numbers_have_no_gaps(self) -> None:
            numbers = sorted(session.scalars(select(TransitSlip.number).where(
                TransitSlip.room_id == self.room.room.id)))
            assert numbers == list(range(1, len(numbers) + 1))
            assert last_slip_number(session, self.room.room.id) == len(numbers)

    return LedgerMachine


def test_random_money_actions_keep_the_books(session, now):
    run_state_machine_as_test(_machine(session, now), settings=settings(
        max_examples=20, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))
