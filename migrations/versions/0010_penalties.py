"""penalties

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-23 07:20:00

R55/R57: penalties given at a seat, append-only; a sit-out runs for the hands recorded at the
table after it was given.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import append_only, drop_append_only

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("players_at_table", sa.Integer(), nullable=False),
        sa.Column("hands_out", sa.Integer(), nullable=False),
        sa.Column("from_hand_no", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("given_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("given_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("kind IN ('warning', 'hands', 'rounds', 'removal')",
                           name=op.f("ck_penalties_kind")),
        sa.CheckConstraint("count >= 0 AND players_at_table >= 0 AND hands_out >= 0 "
                           "AND from_hand_no >= 0", name=op.f("ck_penalties_counts")),
        sa.CheckConstraint("length(trim(reason)) > 0", name=op.f("ck_penalties_reason")),
        sa.ForeignKeyConstraint(["given_by_id"], ["staff.id"],
                                name=op.f("fk_penalties_given_by_id_staff")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_penalties_hold_id_seat_holds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_penalties_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_penalties_room_id_rooms")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_penalties_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalties")),
    )
    op.create_index("ix_penalties_player_given", "penalties", ["player_id", "given_at"])
    op.create_index("ix_penalties_hold", "penalties", ["hold_id"])
    append_only("penalties")


def downgrade() -> None:
    drop_append_only("penalties")
    op.drop_index("ix_penalties_hold", table_name="penalties")
    op.drop_index("ix_penalties_player_given", table_name="penalties")
    op.drop_table("penalties")
