"""Jackpot schemes, drops and pools (R67-R69, R52, R60, R61) on the services, on every configured
database: a scheme set up on its games, a table never in two; the drop recorded with its hand after
the rake, only from qualifying pots; the pool the sum of its append-only rows, with the database's
own refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from roomops.errors import Conflict, Forbidden, Invalid
from roomops.jackpots import boxes, reads
from roomops.jackpots import pool as pools
from roomops.jackpots.drops import record_drop
from roomops.jackpots.models import JackpotLink, JackpotRow
from roomops.jackpots.schemes import Terms, end, scheme_of_table, start
from roomops.ledger.models import LedgerEntry
from roomops.ledger.rake import record_rake
from tests.services.helpers import audits, refused
from tests.services.jackpot_helpers import BAD_BEAT, night
from tests.units import act

MIN = timedelta(minutes=1)


def _amounts(session, scheme):
    return pools.amounts(session, [scheme.id])[scheme.id]


def test_r67_a_scheme_runs_on_its_games_and_a_table_in_one_scheme_at_most(room, session, now):
    n = night(room, session, now)
    assert scheme_of_table(session, n.table).id == n.scheme.id
    assert audits(session, "jackpot.scheme_started")[0].detail["games"] == ["NL Hold'em"]
    high = dict(BAD_BEAT, name="High hand", kind="high_hand")
    refused(lambda: act(session, room.sup, now, start, Terms(**high, games=(n.game.id,))), "R67",
            "already takes part in Bad beat", error=Conflict)
    refused(lambda: act(session, room.sup, now, start, Terms(**high, tables=(n.table.name,))), "R67",
            f"table {n.table.name} (NL Hold'em) already takes part in Bad beat", error=Conflict)
    # a table of another game, named, takes part through its name
    other = room.game(now, variant="PLO")
    t2 = room.table(now, other, "7")
    s2 = act(session, room.sup, now, start, Terms(**high, tables=("7",)))
    assert scheme_of_table(session, t2).id == s2.id
    refused(lambda: act(session, room.sup, now, start, Terms(**dict(high, name="Other"), games=(other.id,))),
            "R67", "table 7 (PLO) already takes part in High hand", error=Conflict)


def test_r67_the_database_keeps_a_game_in_one_running_scheme(room, session, now):
    n = night(room, session, now)
    with pytest.raises(IntegrityError), session.begin_nested():
        session.execute(insert(JackpotLink).values(scheme_id=n.scheme.id, room_id=room.room.id,
                                                   game_id=n.game.id, ended=False))


@pytest.mark.parametrize(("terms", "words"), [
    (dict(drop=0), "positive"),
    (dict(threshold=-1), "not below nothing"),
    (dict(min_dealt=1), "from 2 to 10"),
    (dict(qualifying="two pair"), "aces full of tens"),
    (dict(prize_bp=0), "above 0 %"),
    (dict(backup_bp=5_001), "0 to 50"),
    (dict(name=" "), "a name"),
])
def test_r67_r68_a_scheme_is_refused_in_words(room, session, now, terms, words):
    game = room.game(now)
    with pytest.raises(Invalid) as err:
        act(session, room.sup, now, start, Terms(**{**BAD_BEAT, "games": (game.id,), **terms}))
    assert words in err.value.message and err.value.rule in ("R67", "R68", "R69", "R70")


def test_r61_only_a_supervisor_starts_a_scheme(room, session, now):
    game = room.game(now)
    refused(lambda: act(session, room.actor("dealer"), now, start, Terms(**BAD_BEAT, games=(game.id,))),
            "R61", error=Forbidden)


def test_r68_the_drop_is_taken_after_the_rake_from_a_qualifying_pot(room, session, now):
    n = night(room, session, now)
    n.hand(now)
    rake = act(session, room.actor("dealer"), now, record_rake, n.table.id, 1, pot=3000, flop=True, rake=100)
    taken = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    assert rake.amount == -100 and taken.amount == 100
    assert _amounts(session, n.scheme) == pools.Amounts(100, 0)
    [row] = taken.rows
    assert (row.kind, row.pool, row.hand_id, row.table_id) == ("drop", "main", rake.hand_id, n.table.id)
    assert audits(session, "jackpot.drop")[0].detail["amount"] == 100
    # a second drop of the hand is refused, by the service and by the database
    refused(lambda: act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000,
                        flop=True, drop=100), "R68", "already recorded", error=Conflict)
    with pytest.raises(DBAPIError), session.begin_nested():
        session.execute(insert(JackpotRow).values(
            room_id=room.room.id, scheme_id=n.scheme.id, pool="main", kind="drop", amount=100, fee=0,
            gaming_day=row.gaming_day, shift_no=1, at=now, table_id=n.table.id, hand_id=row.hand_id))


@pytest.mark.parametrize(("pot", "flop", "free", "words"), [
    (1900, True, 1, "no jackpot drop from a pot under 20.00"),
    (3000, False, 1, "no flop, no jackpot drop"),
    (3000, True, 6, "dealt to fewer than 4 players"),
])
def test_r68_a_pot_that_does_not_qualify_takes_no_drop(room, session, now, pot, flop, free, words):
    n = night(room, session, now, free=free)
    n.hand(now)
    err = refused(lambda: act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=pot,
                              flop=flop, drop=100), "R68", error=Conflict)
    assert words in err.text(lambda a: f"{a / 100:.2f}")
    taken = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=pot, flop=flop, drop=0)
    assert taken.rows == [] and _amounts(session, n.scheme).main == 0


def test_r68_the_wrong_amount_is_refused_naming_the_right_one(room, session, now):
    n = night(room, session, now)
    n.hand(now)
    err = refused(lambda: act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000,
                              flop=True, drop=50), "R68", error=Conflict)
    assert err.text(lambda a: f"{a / 100:.2f}") == "the jackpot drop from this pot is 1.00, not 0.50"
    refused(lambda: act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000,
                        flop=True, drop=0), "R68", error=Conflict)


def test_r67_r69_the_fee_and_the_backup_share_of_each_drop(room, session, now):
    n = night(room, session, now, fee_bp=1000, backup_bp=2500, drop=150)
    n.hand(now)
    taken = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=150)
    main, backup = taken.rows
    # 10 % of 1.50 is 0.15 the house's; a quarter of the 1.35 left (0.3375) rounds down to 0.33
    assert (main.fee, main.amount, backup.pool, backup.amount) == (15, 102, "backup", 33)
    assert _amounts(session, n.scheme) == pools.Amounts(102, 33)


def test_r69_an_adjustment_needs_two_staff_and_a_reason(room, session, now):
    n = night(room, session, now)
    sup, cashier = room.actor("supervisor"), room.staff["cashier"]
    refused(lambda: act(session, sup, now, pools.adjust, n.scheme.id, "main", 500, "", cashier), "R69",
            "reason", error=Invalid)
    refused(lambda: act(session, sup, now, pools.adjust, n.scheme.id, "main", 500, "miscount",
                        room.staff["supervisor"]), "R70", "second person", error=Conflict)
    refused(lambda: act(session, sup, now, pools.adjust, n.scheme.id, "main", -1, "miscount", cashier),
            "R69", "below nothing", error=Conflict)
    row = act(session, sup, now, pools.adjust, n.scheme.id, "main", 500, "seed counted twice", cashier)
    assert (row.kind, row.second_staff_id) == ("adjustment", cashier.id)
    assert _amounts(session, n.scheme).main == 500


def test_r52_r69_a_wrong_drop_is_reversed_and_the_hand_dropped_again(room, session, now):
    n = night(room, session, now)
    n.hand(now)
    taken = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    [back] = act(session, room.sup, now, pools.reverse, taken.rows[0].id, "wrong table")
    assert (back.kind, back.amount, back.reverses_id) == ("reversal", -100, taken.rows[0].id)
    refused(lambda: act(session, room.sup, now, pools.reverse, taken.rows[0].id, "again"), "R52",
            "already reversed", error=Conflict)
    refused(lambda: act(session, room.sup, now, pools.reverse, back.id, "again"), "R52", error=Conflict)
    assert reads.drops_of_day(session, room.room.id, back.gaming_day) == (0, 0)
    again = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    assert again.amount == 100 and _amounts(session, n.scheme).main == 100
    assert reads.drops_of_day(session, room.room.id, back.gaming_day) == (100, 0)


def test_r52_r69_a_drop_with_a_fee_and_a_backup_share_is_undone_whole(room, session, now):
    n = night(room, session, now, fee_bp=1000, backup_bp=2500, drop=150)
    n.hand(now)
    taken = act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=150)
    day = taken.rows[0].gaming_day
    assert reads.drops_of_day(session, room.room.id, day) == (150, 15)
    back = act(session, room.sup, now, pools.reverse, taken.rows[1].id, "wrong hand")
    assert sorted((r.pool, r.amount, r.fee) for r in back) == [("backup", -33, 0), ("main", -102, -15)]
    assert reads.drops_of_day(session, room.room.id, day) == (0, 0)
    assert _amounts(session, n.scheme) == pools.Amounts(0, 0)
    pool_day = reads.day_pool(session, n.scheme.id, day)
    assert (pool_day.opening, pool_day.closing, pool_day.dropped) == (0, 0, 0)


def test_r69_the_pool_ledger_is_append_only_and_never_below_nothing(room, session, now):
    n = night(room, session, now)
    act(session, room.sup, now, pools.seed, n.scheme.id, 1000, reason="opening seed")
    row = session.scalars(select(JackpotRow)).one()
    for statement in (update(JackpotRow).values(amount=1), delete(JackpotRow)):
        with pytest.raises(DBAPIError), session.begin_nested():
            session.execute(statement)
    with pytest.raises(DBAPIError), session.begin_nested():
        session.execute(insert(JackpotRow).values(
            room_id=room.room.id, scheme_id=n.scheme.id, pool="main", kind="adjustment", amount=-1001,
            fee=0, gaming_day=row.gaming_day, shift_no=1, at=now, staff_id=room.staff["supervisor"].id,
            second_staff_id=room.staff["cashier"].id, reason="x"))
    assert _amounts(session, n.scheme).main == 1000


def test_r69_a_scheme_that_ends_names_where_its_pool_goes(room, session, now):
    n = night(room, session, now, backup_bp=5000)
    n.hand(now)
    act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    refused(lambda: act(session, room.sup, now, end, n.scheme.id, None), "R69", "players' money",
            error=Conflict)
    other = room.game(now, variant="PLO")
    heir = act(session, room.sup, now, start, Terms(**dict(BAD_BEAT, name="New bad beat"), games=(other.id,)))
    act(session, room.sup, now + MIN, end, n.scheme.id, heir.id, "new rules")
    session.refresh(n.scheme)
    assert n.scheme.ended and n.scheme.pool_went == "to New bad beat"
    assert _amounts(session, n.scheme) == pools.Amounts(0, 0)
    assert _amounts(session, heir) == pools.Amounts(50, 50)
    assert scheme_of_table(session, n.table) is None  # its game is free for another scheme
    act(session, room.sup, now, start, Terms(**dict(BAD_BEAT, name="Bad beat"), games=(n.game.id,)))


def test_r54_r68_the_jackpot_drop_box_is_counted_apart_by_two_staff(room, session, now):
    n = night(room, session, now, fee_bp=1000)
    n.hand(now)
    act(session, room.actor("dealer"), now, record_drop, n.table.id, 1, pot=3000, flop=True, drop=100)
    day = now.date()
    cashier, sup = room.actor("cashier"), room.staff["supervisor"]
    refused(lambda: act(session, cashier, now, boxes.count_box, day, None, 90, sup), "R54", "explanation",
            error=Invalid)
    refused(lambda: act(session, cashier, now, boxes.count_box, day, None, 100, room.staff["cashier"]),
            "R70", "second person", error=Conflict)
    row = act(session, cashier, now, boxes.count_box, day, None, 90, sup, "a chip fell behind the tray")
    assert (row.expected, row.variance, row.confirmed_by_id) == (100, -10, sup.id)
    part = boxes.section(session, room.room.id, day, None)
    assert (part.dropped, part.fees, part.held, [c.id for c in part.counts]) == (100, 10, 90, [row.id])
    assert session.scalar(select(func.count()).select_from(LedgerEntry)) == 0  # never the room's ledger
    assert audits(session, "jackpot.box_counted")[0].detail["expected"] == 100
