"""The seat-change lists with the reserve and waiting lists, by Hypothesis stateful testing on
every configured database: no seat is ever given out of the order the room's settings define
(R13, R14, R36).

Actions: seated players ask for a seat change and take it back; unseated players join the waiting
list or a table's reserve list; offers are claimed (a seat change at once or during a hand, a
seat with a buy-in), declined or left to run out (the sweep); players leave; the dealer records
hands; the room's settings change (``on_claim_expiry``, ``placement``, the claim timers). After
every step:

- no request of a table waits without an offer while a later request of that table holds one,
  or while a seat of it is held for someone off the lists offered it after the request was made
  (requesters first, oldest first, R36);
- no list entry waits without an offer while a later entry of a list that feeds the same table
  holds one (list order, R13/R14);
- every open seat some eligible player could take is offered (R14).
Refusals must name a rule and change nothing.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

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
from roomops.games.models import Game
from roomops.hands.services import record_hand
from roomops.holds.models import SeatChangeRequest, SeatHold
from roomops.lists import services as lists
from roomops.lists.models import ListEntry
from roomops.rooms.services import update_policy
from roomops.seating import offers, seat_changes, seats
from roomops.seating.seat_change import claim_seat_change
from tests.factories import Room_
from tests.units import act, sweep

ROOMS = itertools.count()
PLAYERS = 26
SEATED = 16  # two 9-seat tables, one seat open at each
TICK = timedelta(seconds=1)  # each desk action one second after the last: times order them
MISSED = ("offer.expired", "offer.declined")


def _machine(session: Session, start: datetime) -> type[RuleBasedStateMachine]:
    class SeatChangeMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.tx = session.begin_nested()
            self.now = start
            self.room = Room_(session, start, slug=f"s{next(ROOMS)}")
            self.game = self.room.game(start)
            self.tables = [self.room.table(start, self.game, name) for name in ("1", "2")]
            self.players = [p.id for p in self.room.players(start, PLAYERS, "Q")]
            for i, player in enumerate(self.players[:SEATED]):
                act(session, self.room.sup, start, seats.seat_directly, table_id=self.tables[i % 2].id,
                    seat_no=i // 2 + 1, player_id=player,
                    buy_in=self.game.min_buyin)
            self.dealt = {t.id: 0 for t in self.tables}
            self.held_back: set[int] = set()  # R22: not handed a seat straight back
            self.missed: set[int] = set()  # players who ever missed a call (R22)

        def teardown(self) -> None:
            self.tx.rollback()
            # rows read in this run stay in the identity map; SQLite hands their ids out again
            session.expunge_all()

        # -- helpers -------------------------------------------------------------------------
        def live(self, kind: str) -> list[SeatHold]:
            return list(session.scalars(select(SeatHold).where(
                SeatHold.room_id == self.room.room.id, SeatHold.kind == kind,
                SeatHold.ended_at.is_(None)).order_by(SeatHold.id)))

        def requests(self) -> list[SeatChangeRequest]:
            return list(session.scalars(select(SeatChangeRequest).where(
                SeatChangeRequest.room_id == self.room.room.id,
                SeatChangeRequest.ended_at.is_(None)).order_by(SeatChangeRequest.id)))

        def unseated(self) -> list[int]:
            seated = {h.player_id for h in self.live("seated")}
            return [p for p in self.players if p not in seated]

        def audit_ids(self) -> int:
            return session.scalar(select(func.max(AuditEvent.id))) or 0

        def act(self, service, *args, reallocates: bool = True, **kwargs) -> None:  # type: ignore[no-untyped-def]
            """A refusal names its rule and changes nothing; a change is audited (R60).
            ``reallocates``: the change always runs the allocation, so held-back players count
            again."""
            self.now += TICK
            before = self.audit_ids()
            try:
                with session.begin_nested():
                    act(session, self.room.sup, self.now, service, *args, **kwargs)
            except RoomopsError as err:
                assert err.rule or err.status == 404, err
                assert self.audit_ids() == before
                return
            assert self.audit_ids() > before
            if reallocates:
                self.held_back = set()
            self.note_missed(before)

        def note_missed(self, after_id: int) -> None:
            for row in session.scalars(select(AuditEvent).where(
                    AuditEvent.id > after_id, AuditEvent.action.in_(MISSED))):
                player = session.get_one(SeatHold, row.detail["offer_id"]).player_id
                self.held_back.add(player)
                self.missed.add(player)

        def pick(self, items: list, k: int):  # type: ignore[no-untyped-def,type-arg]
            return items[k % len(items)]

        # -- rules ---------------------------------------------------------------------------
        @rule(k=st.integers(0, 30))
        @precondition(lambda self: bool(self.live("seated")))
        def ask(self, k: int) -> None:
            self.act(seat_changes.ask, self.pick(self.live("seated"), k).id)

        @rule(k=st.integers(0, 30))
        @precondition(lambda self: bool(self.requests()))
        def withdraw(self, k: int) -> None:
            self.act(seat_changes.withdraw, self.pick(self.requests(), k).id, reallocates=False)

        @rule(k=st.integers(0, 30), where=st.integers(0, 2))
        @precondition(lambda self: bool(self.unseated()))
        def join(self, k: int, where: int) -> None:
            target = {"game_id": self.game.id} if where == 2 else {"table_id": self.tables[where].id}
            self.act(lists.join, player_id=self.pick(self.unseated(), k), **target)

        @rule(k=st.integers(0, 30), stack=st.integers(1, 3), during_hand=st.booleans())
        @precondition(lambda self: bool(self.live("offer")))
        def claim(self, k: int, stack: int, during_hand: bool) -> None:
            offer = self.pick(self.live("offer"), k)
            if offer.seat_change_id is not None:
                self.act(claim_seat_change, offer.id,
                         stack=None if during_hand else stack * self.game.min_buyin,
                         during_hand=during_hand, reallocates=not during_hand)
            else:
                self.act(seats.claim, offer.id, self.game.min_buyin)

        @rule(k=st.integers(0, 30))
        @precondition(lambda self: bool(self.live("offer")))
        def decline(self, k: int) -> None:
            self.act(offers.decline, self.pick(self.live("offer"), k).id, reallocates=False)

        @rule(k=st.integers(0, 30))
        @precondition(lambda self: bool(self.live("seated")))
        def leave(self, k: int) -> None:
            self.act(seats.leave, self.pick(self.live("seated"), k).id, self.game.min_buyin)

        @rule(t=st.integers(0, 1), high=st.integers(1, 9))
        def hand(self, t: int, high: int) -> None:
            """The dealer records the next hand; seat changes held for its end are made (R36)."""
            table = self.tables[t]
            first = {"high_card_seat": high} if self.dealt[table.id] == 0 else {}
            before = self.audit_ids()
            self.act(lambda unit, **kw: record_hand(unit.acting(self.room.actor("dealer")), **kw),
                     table_id=table.id, hand_no=self.dealt[table.id] + 1, reallocates=False,
                     **first)
            if self.audit_ids() > before:
                self.dealt[table.id] += 1

        @rule(expiry=st.sampled_from(["remove", "bottom"]),
              placement=st.sampled_from(["most_need", "first_open"]),
              minutes=st.integers(1, 3))
        def settings(self, expiry: str, placement: str, minutes: int) -> None:
            self.act(update_policy, on_claim_expiry=expiry, placement=placement,
                     seat_change_claim_minutes=minutes, claim_minutes=minutes + 1,
                     reallocates=False)

        @rule(seconds=st.sampled_from([1, 59, 60, 119, 120, 121, 180, 600]))
        def advance(self, seconds: int) -> None:
            """Time passes and the sweep runs (R22)."""
            self.now += timedelta(seconds=seconds)
            before = self.audit_ids()
            sweep(session, self.now)
            self.note_missed(before)

        # -- invariants ----------------------------------------------------------------------
        @invariant()
        def requesters_first_oldest_first(self) -> None:
            """R36: no request of a table waits without an offer while a later request of that
            table holds one, or while a seat of it is held for someone off the lists who was
            offered it after the request was made."""
            offered = {o.player_id for o in self.live("offer")}
            requests = self.requests()
            for offer in self.live("offer"):
                before = (session.get_one(SeatChangeRequest, offer.seat_change_id).asked_at
                          if offer.seat_change_id else offer.started_at)
                waiting = [r.id for r in requests if r.table_id == offer.table_id
                           and r.asked_at < before and r.player_id not in offered]
                assert not waiting, (offer.id, offer.seat_change_id, waiting)

        @invariant()
        def lists_in_order(self) -> None:
            """R13/R14: no entry of a list feeding a table waits without an offer while a later
            entry for that table holds one (a player who missed a call may have been passed over
            then, R22, and is left out)."""
            offered = {o.player_id for o in self.live("offer")}
            active = list(session.scalars(select(ListEntry).where(
                ListEntry.game_id == self.game.id, ListEntry.status == "active")))
            for offer in self.live("offer"):
                if offer.entry_id is None:
                    continue
                mine = session.get_one(ListEntry, offer.entry_id)
                passed = [e.id for e in active if e.table_id in (None, offer.table_id)
                          and e.queue_at < mine.queue_at and e.player_id not in offered
                          and e.player_id not in self.missed]
                assert not passed, (offer.id, mine.id, passed)

        @invariant()
        def no_open_seat_left_for_an_eligible_player(self) -> None:
            """R14 (with auto_offer on)."""
            game = session.get_one(Game, self.game.id)
            assert offers.plan(session, game, skip=self.held_back) == []

    return SeatChangeMachine


def test_seat_changes_and_lists_never_give_a_seat_out_of_order(session, now):
    session.commit()
    run_state_machine_as_test(_machine(session, now), settings=settings(
        max_examples=15, stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]))
