"""shift and gaming-day close

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-23 08:00:00

R54: ``day_counts`` (what each of two staff counted per table and in total, next to what the ledger
expected, with the variance's explanation) and ``day_closes`` (one row per closed gaming day, by
two different staff). Both append-only. (0012 is the fees branch's; the chain is fixed at merge.)
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import append_only

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "day_counts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("staff_id", sa.Integer(), nullable=False),
        sa.Column("at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("counted", sa.Integer(), nullable=False),
        sa.Column("expected", sa.Integer(), nullable=False),
        sa.Column("explanation", sa.Text(), nullable=True),
        sa.CheckConstraint("counted = expected OR length(coalesce(explanation, '')) > 0",
                           name=op.f("ck_day_counts_variance_explained")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_day_counts_room_id_rooms")),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"], name=op.f("fk_day_counts_staff_id_staff")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_day_counts_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_day_counts")),
    )
    op.create_index("ix_day_counts_room_day", "day_counts", ["room_id", "gaming_day"])
    op.create_table(
        "day_closes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("closed_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("closed_by_id", sa.Integer(), nullable=False),
        sa.Column("second_staff_id", sa.Integer(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("expected_total", sa.Integer(), nullable=False),
        sa.Column("counted_total", sa.Integer(), nullable=False),
        sa.Column("last_entry_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("closed_by_id <> second_staff_id", name=op.f("ck_day_closes_two_staff")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_day_closes_room_id_rooms")),
        sa.ForeignKeyConstraint(["closed_by_id"], ["staff.id"],
                                name=op.f("fk_day_closes_closed_by_id_staff")),
        sa.ForeignKeyConstraint(["second_staff_id"], ["staff.id"],
                                name=op.f("fk_day_closes_second_staff_id_staff")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_day_closes")),
        sa.UniqueConstraint("room_id", "gaming_day", name="uq_day_closes_room_day"),
    )
    append_only("day_counts")
    append_only("day_closes")


def downgrade() -> None:
    op.drop_table("day_closes")
    op.drop_table("day_counts")
