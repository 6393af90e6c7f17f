"""The figures' read model as rows (R80, migration 0054; docs/figures.md "The read model").

Derived data, kept by the sweep (``roomops.figures.keep``) and rebuilt from the books and the state
rows by ``flask figures rebuild``: nothing here is the record of anything.

- ``FigureHour``: per room, game and UTC hour, the counts the screen sums (``COUNTS``).
- ``FigureWait``: per room, game and hour, how many waits (``measure`` "wait": joining to seat) and
  estimate errors ("error": |shown - real|) fell in each minute bucket (``roomops.figures.buckets``).
- ``FigureRoomHour``, ``FigureRoomWait``: the same per room and hour, all its games summed (migration
  0056): a page of all games reads a fortieth of the rows of a 40-game room.
- ``FigureRoll``: per room, the end of the hours rolled up so far (the hours after it are derived
  live)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from sqlalchemy import BigInteger, CheckConstraint, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from roomops.db import Base, Minor, UTCDateTime

Measure = Literal["wait", "error"]
COUNTS = ("table_seconds", "seat_seconds", "seated_seconds", "waiting_seconds", "joined", "seated",
          "no_shows", "abandoned", "scored", "inside", "dealer_seconds", "downs")
_COUNT = BigInteger().with_variant(Integer(), "sqlite")


class _Counted:
    """An hour's counts (``COUNTS``), rake and fees: a game's, or all the room's games' summed."""

    table_seconds: Mapped[int] = mapped_column(_COUNT)
    seat_seconds: Mapped[int] = mapped_column(_COUNT)  # table time times the game's seats a table
    seated_seconds: Mapped[int] = mapped_column(_COUNT)
    waiting_seconds: Mapped[int] = mapped_column(_COUNT)
    joined: Mapped[int] = mapped_column(_COUNT)
    seated: Mapped[int] = mapped_column(_COUNT)
    no_shows: Mapped[int] = mapped_column(_COUNT)
    abandoned: Mapped[int] = mapped_column(_COUNT)
    scored: Mapped[int] = mapped_column(_COUNT)  # seated from a list with an estimate shown at joining
    inside: Mapped[int] = mapped_column(_COUNT)  # of those, the real wait inside the range shown
    dealer_seconds: Mapped[int] = mapped_column(_COUNT)
    downs: Mapped[int] = mapped_column(_COUNT)
    rake: Mapped[Minor]
    fees: Mapped[Minor]


def _counted_checks() -> tuple[CheckConstraint, ...]:
    return (*(CheckConstraint(f"{name} >= 0", name=name) for name in COUNTS),
            CheckConstraint("inside <= scored AND scored <= seated", name="inside_scored"),
            CheckConstraint("seat_seconds >= table_seconds", name="seats"))


class _Bucketed:
    """How many waits or estimate errors of an hour fell in a minute bucket."""

    hour: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    measure: Mapped[Measure] = mapped_column(String(5), primary_key=True)
    bucket: Mapped[int] = mapped_column(primary_key=True)
    n: Mapped[int]


def _bucketed_checks() -> tuple[CheckConstraint, ...]:
    return (CheckConstraint("measure IN ('wait', 'error')", name="measure"),
            CheckConstraint("bucket >= 0", name="bucket"), CheckConstraint("n > 0", name="n"))


class FigureHour(_Counted, Base):
    __tablename__ = "figure_hours"
    __table_args__ = (*_counted_checks(), Index("ix_figure_hours_room_hour", "room_id", "hour"))

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    hour: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)


class FigureRoomHour(_Counted, Base):
    """All the room's games' hour: the sum of its ``FigureHour`` rows, kept with them."""

    __tablename__ = "figure_room_hours"
    __table_args__ = _counted_checks()

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    hour: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)


class FigureWait(_Bucketed, Base):
    __tablename__ = "figure_waits"
    __table_args__ = (*_bucketed_checks(), Index("ix_figure_waits_room_hour", "room_id", "hour"))

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)


class FigureRoomWait(_Bucketed, Base):
    """All the room's games' buckets of an hour: the sum of its ``FigureWait`` rows."""

    __tablename__ = "figure_room_waits"
    __table_args__ = _bucketed_checks()

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)


class FigureRoll(Base):
    __tablename__ = "figure_rolls"

    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    through: Mapped[datetime] = mapped_column(UTCDateTime)  # the hours before it are rolled up
    rolled_at: Mapped[datetime] = mapped_column(UTCDateTime)
