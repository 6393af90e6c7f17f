"""the dealers' tips: a shift's toke pool counted by two staff, and each dealer's share of it

Revision ID: 0052
Revises: 0051
Create Date: 2026-12-03 13:00:00

Issue 42 (R66; docs/dealers.md, "Tips (R66)"):

- ``toke_counts``: the pool of one shift of a gaming day (R54, named as the cage names it: day
  and shift number, with the shift's start and end frozen as they were), counted by one staff
  member and confirmed by a second, different one. Append-only: a wrong count is replaced by a
  new count of the same shift naming it (``replaces_id``) with the reason; the shift's count is
  the one nothing replaces. One first count a shift, each count replaced at most once, and only
  by a later count of the same room, day and shift (a foreign key on all four): a line, never a
  fork.
- ``toke_shares``: a dealer's share of a count, for the downs they dealt in the shift.
  Append-only; one row a dealer and count.

Tips are never house revenue: nothing here touches the ledger.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime
from roomops.migration_ops import append_only, drop_append_only

revision: str = "0052"
down_revision: str | None = "0051"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIRST = sa.text("replaces_id IS NULL")


def _money() -> sa.types.TypeEngine[int]:
    """As ``roomops.db.Minor``: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite."""
    return sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "toke_counts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("shift_no", sa.Integer, nullable=False),
        sa.Column("shift_start", UTCDateTime, nullable=False),
        sa.Column("shift_end", UTCDateTime, nullable=False),
        sa.Column("amount", _money(), nullable=False),
        sa.Column("counted_by_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("confirmed_by_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("counted_at", UTCDateTime, nullable=False),
        sa.Column("replaces_id", sa.Integer),
        sa.Column("reason", sa.Text),
        sa.CheckConstraint("shift_no >= 1", name="ck_toke_counts_shift_no"),
        sa.CheckConstraint("shift_end > shift_start", name="ck_toke_counts_window"),
        sa.CheckConstraint("amount >= 0", name="ck_toke_counts_amount"),
        sa.CheckConstraint("counted_by_id <> confirmed_by_id", name="ck_toke_counts_two_staff"),
        sa.CheckConstraint("replaces_id IS NULL OR replaces_id < id", name="ck_toke_counts_replaces_earlier"),
        sa.CheckConstraint("replaces_id IS NULL OR length(trim(coalesce(reason, ''))) > 0",
                           name="ck_toke_counts_reason"),
        sa.UniqueConstraint("replaces_id", name="uq_toke_counts_replaces"),
        sa.UniqueConstraint("id", "room_id", "gaming_day", "shift_no", name="uq_toke_counts_shift"),
        sa.ForeignKeyConstraint(["replaces_id", "room_id", "gaming_day", "shift_no"],
                                ["toke_counts.id", "toke_counts.room_id", "toke_counts.gaming_day",
                                 "toke_counts.shift_no"], name="fk_toke_counts_same_shift"),
    )
    op.create_index("uq_toke_counts_first", "toke_counts", ["room_id", "gaming_day", "shift_no"],
                    unique=True, sqlite_where=FIRST, postgresql_where=FIRST)
    op.create_table(
        "toke_shares",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("count_id", sa.Integer, sa.ForeignKey("toke_counts.id"), nullable=False),
        sa.Column("dealer_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("downs", sa.Integer, nullable=False),
        sa.Column("share", _money(), nullable=False),
        sa.CheckConstraint("downs >= 1", name="ck_toke_shares_downs"),
        sa.CheckConstraint("share >= 0", name="ck_toke_shares_share"),
        sa.UniqueConstraint("count_id", "dealer_id", name="uq_toke_shares_count_dealer"),
    )
    append_only("toke_counts")
    append_only("toke_shares")


def downgrade() -> None:
    drop_append_only("toke_shares")
    drop_append_only("toke_counts")
    op.drop_table("toke_shares")
    op.drop_table("toke_counts")
