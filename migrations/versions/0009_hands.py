"""hands, seat blind states, the dealer role and the new-player posting policy

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-23 07:00:00

R33-R36: the append-only ``hands`` log (one row per hand, numbered per table opening), each
seated player's missed-blind buttons and debts (``seat_blinds``), the ``dealer`` staff role
(R61: dealers record hands) and the room's ``new_player_posting`` policy (R36).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import add_checked_columns, append_only, drop_append_only, drop_columns, replace_check

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROLES_BEFORE = "role IN ('admin', 'supervisor', 'cashier')"
ROLES_AFTER = "role IN ('admin', 'supervisor', 'cashier', 'dealer')"
POLICY = {
    "new_player_posting": "VARCHAR(12) DEFAULT 'post_or_wait' NOT NULL CONSTRAINT "
                          "ck_rooms_new_player_posting CHECK (new_player_posting IN "
                          "('post_or_wait', 'free'))",
}


def upgrade() -> None:
    replace_check("staff", "ck_staff_role", ROLES_BEFORE, ROLES_AFTER)
    add_checked_columns("rooms", POLICY)
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hand_no", sa.Integer(), nullable=False),
        sa.Column("at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("staff_id", sa.Integer(), nullable=True),
        sa.Column("button", sa.Integer(), nullable=False),
        sa.Column("small_blind_seat", sa.Integer(), nullable=False),
        sa.Column("big_blind_seat", sa.Integer(), nullable=False),
        sa.Column("dealt_in", sa.JSON(), nullable=False),
        sa.Column("posts", sa.JSON(), nullable=False),
        sa.Column("straddles", sa.JSON(), nullable=False),
        sa.CheckConstraint("hand_no >= 1", name=op.f("ck_hands_hand_no")),
        sa.CheckConstraint("button BETWEEN 1 AND 10 AND small_blind_seat BETWEEN 1 AND 10 "
                           "AND big_blind_seat BETWEEN 1 AND 10", name=op.f("ck_hands_seats")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_hands_room_id_rooms")),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"], name=op.f("fk_hands_staff_id_staff")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_hands_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hands")),
    )
    op.create_index("uq_hands_table_hand_no", "hands", ["table_id", "hand_no"], unique=True)
    append_only("hands")
    op.create_table(
        "seat_blinds",
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("missed_sb", sa.Boolean(), nullable=False),
        sa.Column("missed_bb", sa.Boolean(), nullable=False),
        sa.Column("owes_bb", sa.Boolean(), nullable=False),
        sa.Column("updated_at", roomops.db.UTCDateTime(), nullable=False),
        sa.CheckConstraint("status IN ('new', 'active')", name=op.f("ck_seat_blinds_status")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_seat_blinds_hold_id_seat_holds")),
        sa.PrimaryKeyConstraint("hold_id", name=op.f("pk_seat_blinds")),
    )


def downgrade() -> None:
    op.drop_table("seat_blinds")
    drop_append_only("hands")
    op.drop_index("uq_hands_table_hand_no", table_name="hands")
    op.drop_table("hands")
    drop_columns("rooms", POLICY)
    replace_check("staff", "ck_staff_role", ROLES_AFTER, ROLES_BEFORE)
