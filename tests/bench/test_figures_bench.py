"""Issue 43: ``bench/figures.py``'s history, made tiny (a few days of a few tables, SQLite): its
rows pass the schema's constraints and the hourly rollup (R80), and the room's figures read from
the read model after ``rebuild`` are those derived live from the same rows. Not timed."""

from __future__ import annotations

import dataclasses
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from roomops.db import make_engine, make_sessionmaker
from roomops.figures import keep
from roomops.figures.models import FigureHour, FigureRoll
from roomops.figures.services import figures
from tests.databases import migrated_database

BENCH = Path(__file__).resolve().parents[2] / "bench" / "figures.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_figures", BENCH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture()
def built(bench: ModuleType, tmp_path: Path) -> Iterator[tuple[Session, Any]]:
    with migrated_database("sqlite", tmp_path, "figures_bench") as url:
        engine = make_engine(url)
        room = bench.build_history(engine, bench.HistorySpec(days=3, tables=6, games=3, players=300))
        with make_sessionmaker(engine)() as session:
            yield session, room
        engine.dispose()


def test_r80_the_generated_history_rolls_up_and_its_figures_are_a_rebuilds(
        bench: ModuleType, built: tuple[Session, Any]) -> None:
    session, room = built
    live = {name: figures(session, room.room_id, kind, day, game, bench.NOW)
            for name, kind, day, game in bench.period_calls(room)}
    assert session.scalar(select(FigureRoll).where(FigureRoll.room_id == room.room_id)) is None
    assert keep.rebuild(session, room.room_id, bench.NOW) > 72  # three days and today, by the hour
    session.commit()
    sums = session.execute(select(func.sum(FigureHour.seated), func.sum(FigureHour.no_shows),
                                  func.sum(FigureHour.abandoned), func.sum(FigureHour.scored),
                                  func.sum(FigureHour.rake), func.sum(FigureHour.fees),
                                  func.sum(FigureHour.downs))
                           .where(FigureHour.room_id == room.room_id)).one()
    assert all(n > 0 for n in sums), sums  # every kind of row the figures count was made
    for name, kind, day, game in bench.period_calls(room):
        rebuilt = figures(session, room.room_id, kind, day, game, bench.NOW)
        assert dataclasses.asdict(rebuilt) == dataclasses.asdict(live[name]), name
    week = live["week all games"]
    assert week.totals.tables > 0 and week.totals.wait_median is not None
