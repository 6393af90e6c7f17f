"""R80: the figures' read model on every configured database: the hours rolled up by the sweep's
rollup, rebuilt from scratch or derived live give the same figures, and those figures match the
ones computed the slow way from the raw rows."""

from __future__ import annotations

import statistics
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from roomops.figures import keep
from roomops.figures.buckets import EDGES, bucket_of
from roomops.figures.models import FigureHour, FigureRoll, FigureRoomHour, FigureRoomWait, FigureWait
from roomops.figures.services import figures, hour_counts
from roomops.games.models import Table
from roomops.holds.models import SEATED, SeatHold
from roomops.jobs.scheduler import sweep_once
from roomops.ledger.models import LedgerEntry
from roomops.lists.models import ListEntry
from tests.services.figures_helpers import evening
from tests.services.helpers import audits

M = timedelta(minutes=1)
H = timedelta(hours=1)


def _rows(fig):
    return [(r.label, r.tables, r.seats_occupied, r.joined, r.seated, r.no_shows, r.abandoned, r.rake,
             r.wait_median, r.inside_range) for r in fig.rows]


def test_r80_rolled_up_rebuilt_and_live_hours_give_the_same_figures(room, session, now):
    game, _other = evening(room, session, now)
    later = now + 3 * H + 20 * M
    live = figures(session, room.room.id, "today", now.date(), game.id, later)
    assert keep.roll_up(session, room.room.id, now + H + M) == 1  # from the first table's hour
    rolled_in_steps = keep.roll_up(session, room.room.id, later)
    assert rolled_in_steps == 2
    assert keep.roll_up(session, room.room.id, later) == 0  # idempotent: nothing left to do
    stepped = figures(session, room.room.id, "today", now.date(), game.id, later)
    hours_written = session.scalar(select(func.count()).select_from(FigureHour))
    assert keep.rebuild(session, room.room.id, later) == 3
    rebuilt = figures(session, room.room.id, "today", now.date(), game.id, later)
    assert session.scalar(select(func.count()).select_from(FigureHour)) == hours_written
    assert _rows(live) == _rows(stepped) == _rows(rebuilt)
    assert session.get(FigureRoll, room.room.id).through == now + 3 * H


def test_r80_all_games_hours_are_the_sums_of_each_games_kept_beside_them(room, session, now):
    """A page of all games reads the room's own rows (migration 0056): the same figures as its
    games' rows summed, and as the hours derived live."""
    evening(room, session, now)
    later = now + 3 * H + 20 * M
    live = figures(session, room.room.id, "today", now.date(), None, later)
    keep.roll_up(session, room.room.id, later)
    rolled = figures(session, room.room.id, "today", now.date(), None, later)
    assert _rows(live) == _rows(rolled) and rolled.totals.table_hours > 0
    by_game = select(FigureHour.hour, func.sum(FigureHour.table_seconds), func.sum(FigureHour.joined),
                     func.sum(FigureHour.rake)).group_by(FigureHour.hour).order_by(FigureHour.hour)
    summed = select(FigureRoomHour.hour, FigureRoomHour.table_seconds, FigureRoomHour.joined,
                    FigureRoomHour.rake).order_by(FigureRoomHour.hour)
    assert [tuple(r) for r in session.execute(by_game)] == [tuple(r) for r in session.execute(summed)]
    place = (FigureWait.hour, FigureWait.measure, FigureWait.bucket)
    buckets = select(*place, func.sum(FigureWait.n)).group_by(*place)
    room_buckets = select(FigureRoomWait.hour, FigureRoomWait.measure, FigureRoomWait.bucket,
                          FigureRoomWait.n)
    assert sorted(map(tuple, session.execute(buckets))) == sorted(map(tuple, session.execute(room_buckets)))
    keep.rebuild(session, room.room.id, later)
    assert _rows(figures(session, room.room.id, "today", now.date(), None, later)) == _rows(rolled)


def test_r2_the_heat_maps_hour_after_midnight_is_on_its_evenings_row(room, session, now):
    """Saturday's tables run on past midnight: 00:00 Sunday is Saturday night's, in the gaming
    day's row (the room's day starts at 06:00), not Sunday's."""
    evening(room, session, now)  # from 20:00 on Saturday
    fig = figures(session, room.room.id, "week", now.date(), None, now + 5 * H)
    cells = {(c.weekday, c.hour) for c in fig.heat}
    assert (5, 0) in cells and (6, 0) not in cells and (5, 20) in cells
    assert fig.day_start_hour == 6


def test_r80_the_figures_match_the_raw_rows_counted_the_slow_way(room, session, now):
    game, other = evening(room, session, now)
    later = now + 3 * H
    keep.roll_up(session, room.room.id, later)
    fig = figures(session, room.room.id, "day", now.date(), game.id, later)
    end = later  # the room's tables opened at 20:00: nothing before counts
    table = session.scalar(select(Table).where(Table.game_id == game.id))
    assert fig.totals.table_hours == pytest.approx((end - table.opened_at) / H)
    seated = session.scalars(select(SeatHold).join(Table).where(Table.game_id == game.id,
                                                                SeatHold.kind == SEATED)).all()
    player_seconds = sum(((h.ended_at or end) - h.started_at).total_seconds() for h in seated)
    assert fig.totals.player_hours == pytest.approx(player_seconds / 3600)
    entries = session.scalars(select(ListEntry).where(ListEntry.game_id == game.id)).all()
    assert fig.totals.joined == len(entries) == 3
    real = [(e.ended_at - e.joined_at) / M for e in entries if e.status == "seated"]
    assert fig.totals.seated == len(real) == 1
    assert EDGES[bucket_of(statistics.median(real))] <= fig.totals.wait_median <= EDGES[bucket_of(
        statistics.median(real)) + 1]
    assert fig.totals.inside_range == 0.0  # Ann waited 12 minutes; she was shown 0-10
    assert fig.totals.no_shows == 2  # Bob's and Cid's declined calls (R22)
    rake_rows = session.scalar(select(func.sum(LedgerEntry.amount)).where(LedgerEntry.kind == "rake"))
    assert fig.totals.rake == -rake_rows == 500
    assert fig.totals.rake_per_table_hour == pytest.approx(500 / fig.totals.table_hours)
    other_fig = figures(session, room.room.id, "day", now.date(), other.id, later)
    assert (other_fig.totals.joined, other_fig.totals.rake, other_fig.totals.player_hours) == (0, 0, 0)
    assert other_fig.totals.table_hours == pytest.approx(3.0)
    both = figures(session, room.room.id, "day", now.date(), None, later)
    assert both.totals.table_hours == pytest.approx(fig.totals.table_hours + 3.0)
    assert [r.label for r in fig.rows][:2] == ["06:00", "07:00"] and len(fig.rows) == 17  # to 23:00


def test_r80_an_hour_is_rolled_up_once_its_waits_counted_by_bucket(room, session, now):
    game, _other = evening(room, session, now)
    keep.roll_up(session, room.room.id, now + 2 * H)
    waits = session.execute(select(FigureWait.measure, FigureWait.bucket, FigureWait.n).where(
        FigureWait.game_id == game.id)).all()
    assert sorted(waits) == [("error", bucket_of(7), 1), ("wait", bucket_of(12), 1)]
    counts = hour_counts(session, room.room.id, game.id, now, now + 2 * H, now + 2 * H)
    assert counts[now + H].seated == 1 and counts[now].joined == 3


def test_r80_due_rooms_are_those_with_a_closed_hour_not_rolled_up(room, session, now):
    evening(room, session, now)
    assert room.room.id in keep.due_rooms(session, now + H)
    keep.roll_up(session, room.room.id, now + H)
    assert room.room.id not in keep.due_rooms(session, now + H + 59 * M)
    assert room.room.id in keep.due_rooms(session, now + 2 * H)


def test_r80_a_new_rooms_first_hour_is_marked_so_the_sweep_does_not_ask_again(room, session, now):
    """Its first table opened this hour: nothing to roll up yet, and not due again until the hour
    closes (the sweep runs every few seconds)."""
    evening(room, session, now)
    at = now + 30 * M
    assert room.room.id in keep.due_rooms(session, at)
    assert keep.roll_up(session, room.room.id, at) == 0
    assert session.get(FigureRoll, room.room.id).through == now
    assert room.room.id not in keep.due_rooms(session, at + M)
    assert keep.roll_up(session, room.room.id, now + H) == 1


def test_r80_the_sweep_rolls_up_each_hour_as_it_closes(app, session, room, clock, now):
    game, _other = evening(room, session, now)
    clock.advance(minutes=59)
    sweep_once(app)
    assert session.get(FigureRoll, room.room.id).through == now  # 20:59: no hour has closed
    clock.advance(minutes=2)
    sweep_once(app)
    session.expire_all()  # the sweep's own session moved the mark
    assert session.get(FigureRoll, room.room.id).through == now + H
    first = session.scalar(select(FigureHour).where(FigureHour.game_id == game.id))
    assert (first.hour, first.joined, first.table_seconds) == (now, 3, 3600)
    clock.advance(minutes=5)
    sweep_once(app)  # nothing new to roll up: the hour is written once
    assert session.scalar(select(func.count()).select_from(FigureHour).where(
        FigureHour.game_id == game.id)) == 1


def test_r80_the_rebuild_command_rolls_up_the_history_again_audited(app, session, room, clock, now):
    game, _other = evening(room, session, now)
    clock.advance(hours=2)
    out = app.test_cli_runner().invoke(args=["figures", "rebuild", room.room.slug])
    assert out.exit_code == 0, out.output
    assert f"{room.room.slug}: 2 hours rolled up" in out.output
    assert session.scalar(select(func.sum(FigureHour.joined)).where(FigureHour.game_id == game.id)) == 3
    [event] = audits(session, "figures.rebuilt")
    assert event.detail["hours"] == 2
    out = app.test_cli_runner().invoke(args=["figures", "rebuild", "nowhere"])
    assert out.exit_code != 0 and "no room nowhere" in out.output
