"""the manager's figures: hourly rollups kept by the sweep, and the wait shown at joining

Revision ID: 0054
Revises: 0053
Create Date: 2026-12-03 19:30:00

Issue 43 (R80; docs/figures.md):

- ``figure_hours``: per room, game and hour (UTC, its start) the counts the figures screen sums:
  time tables ran and their seats, time players sat and entries waited, entries joined, seated,
  no-shows and abandons, the waits scored against the estimate shown, rake and fees, dealing time
  and downs. Derived data, rebuilt from the books and the state rows by ``flask figures rebuild``.
- ``figure_waits``: per room, game and hour the waits of those seated from a list (and the error
  of the estimate they were shown), as counts in fixed minute buckets (``roomops.figures.buckets``):
  medians and 90th percentiles of any period are read off their sum.
- ``figure_rolls``: per room, the end of the hours rolled up so far.
- ``list_entries.shown_low``, ``shown_median``, ``shown_high``: the wait the player was shown as they
  joined (R10-R14), in whole minutes (``high`` none: "over 3 hours"), to score it against the real one.
- The role ``manager`` (R61, R80): reads the figures and the audit trail.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime
from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0054"
down_revision: str | None = "0053"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROLES_BEFORE = "role IN ('admin', 'supervisor', 'cashier', 'dealer', 'coordinator')"
ROLES_AFTER = "role IN ('admin', 'supervisor', 'cashier', 'dealer', 'coordinator', 'manager')"
SHOWN = {
    "shown_low": "INTEGER CONSTRAINT ck_list_entries_shown_low CHECK (shown_low >= 0)",
    "shown_median": "INTEGER CONSTRAINT ck_list_entries_shown_median CHECK "
                    "((shown_median IS NULL) = (shown_low IS NULL) AND shown_median >= shown_low)",
    "shown_high": "INTEGER CONSTRAINT ck_list_entries_shown_high CHECK "
                  "(shown_high IS NULL OR (shown_low IS NOT NULL AND shown_high >= shown_median))",
}
# the rollup reads each hour's rows by room and time (roomops.figures.facts); the screen by room and hour
INDEXES = {"list_entries": ("room_id", "ended_at"), "dealer_downs": ("room_id", "recorded_at"),
           "figure_hours": ("room_id", "hour"), "figure_waits": ("room_id", "hour")}
COUNTS = ("table_seconds", "seat_seconds", "seated_seconds", "waiting_seconds", "joined", "seated",
          "no_shows", "abandoned", "scored", "inside", "dealer_seconds", "downs")


def _money() -> sa.types.TypeEngine[int]:
    return sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _place() -> list[sa.Column[object]]:
    return [sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), primary_key=True),
            sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("hour", UTCDateTime, primary_key=True)]


def upgrade() -> None:
    op.create_table(
        "figure_hours", *_place(),
        *(sa.Column(name, sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False)
          for name in COUNTS),
        sa.Column("rake", _money(), nullable=False),
        sa.Column("fees", _money(), nullable=False),
        *(sa.CheckConstraint(f"{name} >= 0", name=f"ck_figure_hours_{name}") for name in COUNTS),
        sa.CheckConstraint("inside <= scored AND scored <= seated", name="ck_figure_hours_inside_scored"),
        sa.CheckConstraint("seat_seconds >= table_seconds", name="ck_figure_hours_seats"),
    )
    op.create_table(
        "figure_waits", *_place(),
        sa.Column("measure", sa.String(5), primary_key=True),
        sa.Column("bucket", sa.Integer, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
        sa.CheckConstraint("measure IN ('wait', 'error')", name="ck_figure_waits_measure"),
        sa.CheckConstraint("bucket >= 0", name="ck_figure_waits_bucket"),
        sa.CheckConstraint("n > 0", name="ck_figure_waits_n"),
    )
    op.create_table(
        "figure_rolls",
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("through", UTCDateTime, nullable=False),
        sa.Column("rolled_at", UTCDateTime, nullable=False),
    )
    add_checked_columns("list_entries", SHOWN)
    for table, columns in INDEXES.items():
        op.create_index(f"ix_{table}_room_{columns[1].split('_')[0]}", table, list(columns))
    replace_check("staff_roles", "ck_staff_roles_role", ROLES_BEFORE, ROLES_AFTER)


def downgrade() -> None:
    op.execute("DELETE FROM staff_roles WHERE role = 'manager'")
    replace_check("staff_roles", "ck_staff_roles_role", ROLES_AFTER, ROLES_BEFORE)
    for table, columns in INDEXES.items():
        op.drop_index(f"ix_{table}_room_{columns[1].split('_')[0]}", table_name=table)
    drop_columns("list_entries", SHOWN)
    op.drop_table("figure_rolls")
    op.drop_table("figure_waits")
    op.drop_table("figure_hours")
