"""the figures of all a room's games, kept per hour beside each game's

Revision ID: 0056
Revises: 0055
Create Date: 2026-12-04 19:10:00

Issue 43 (R80; docs/figures.md "The read model", docs/benchmarks.md "Figures"): a page of all games
summed every game's rows hour by hour, a month of a 40-game room some 30,000 ``figure_hours`` and
half a million ``figure_waits`` rows, over 1 s. ``figure_room_hours`` and ``figure_room_waits`` hold
the same per room and hour, all games summed, written with the games' rows by the rollup; filled
here from the rows rolled up so far.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime

revision: str = "0056"
down_revision: str | None = "0055"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COUNTS = ("table_seconds", "seat_seconds", "seated_seconds", "waiting_seconds", "joined", "seated",
          "no_shows", "abandoned", "scored", "inside", "dealer_seconds", "downs")
SUMMED = (*COUNTS, "rake", "fees")


def _wide() -> sa.types.TypeEngine[int]:
    return sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _place() -> list[sa.Column[object]]:
    return [sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), primary_key=True),
            sa.Column("hour", UTCDateTime, primary_key=True)]


def upgrade() -> None:
    table = "figure_room_hours"
    op.create_table(
        table, *_place(),
        *(sa.Column(name, _wide(), nullable=False) for name in SUMMED),
        *(sa.CheckConstraint(f"{name} >= 0", name=f"ck_{table}_{name}") for name in COUNTS),
        sa.CheckConstraint("inside <= scored AND scored <= seated", name=f"ck_{table}_inside_scored"),
        sa.CheckConstraint("seat_seconds >= table_seconds", name=f"ck_{table}_seats"),
    )
    table = "figure_room_waits"
    op.create_table(
        table, *_place(),
        sa.Column("measure", sa.String(5), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.CheckConstraint("measure IN ('wait', 'error')", name=f"ck_{table}_measure"),
        sa.CheckConstraint("bucket >= 0", name=f"ck_{table}_bucket"),
        sa.CheckConstraint("n > 0", name=f"ck_{table}_n"),
    )
    sums = ", ".join(f"SUM({name})" for name in SUMMED)
    op.execute(f"INSERT INTO figure_room_hours (room_id, hour, {', '.join(SUMMED)}) "
               f"SELECT room_id, hour, {sums} FROM figure_hours GROUP BY room_id, hour")
    op.execute("INSERT INTO figure_room_waits (room_id, hour, measure, bucket, n) "
               "SELECT room_id, hour, measure, bucket, SUM(n) FROM figure_waits "
               "GROUP BY room_id, hour, measure, bucket")


def downgrade() -> None:
    op.drop_table("figure_room_waits")
    op.drop_table("figure_room_hours")
