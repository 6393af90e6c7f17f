"""playovers

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 07:00:00

R29: the ``playovers`` table (one live playover per seat hold and one per player, by partial unique
indexes), the owner's "no playover" deadline on the absence, and the room policies: whether the
owner's consent is needed, and how long "no playover" may last.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("ended_at IS NULL")
POLICIES = {
    "playover_needs_consent": "BOOLEAN DEFAULT false NOT NULL",
    "no_playover_max_minutes": "INTEGER DEFAULT 10 NOT NULL CONSTRAINT ck_rooms_no_playover_max_minutes "
                               "CHECK (no_playover_max_minutes BETWEEN 1 AND 60)",
}


def upgrade() -> None:
    add_checked_columns("rooms", POLICIES)
    op.add_column("absences", sa.Column("no_playover_until", roomops.db.UTCDateTime(), nullable=True))
    op.create_table(
        "playovers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("absence_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("started_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("buy_in", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("ended_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('owner_back', 'seat_released', 'seat_ended', 'seated', "
            "'stopped')", name=op.f("ck_playovers_outcome")),
        sa.CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name=op.f("ck_playovers_ended")),
        sa.CheckConstraint("ended_at IS NULL OR ended_at >= started_at",
                           name=op.f("ck_playovers_ended_after_start")),
        sa.CheckConstraint("buy_in > 0", name=op.f("ck_playovers_buy_in")),
        sa.ForeignKeyConstraint(["absence_id"], ["absences.id"],
                                name=op.f("fk_playovers_absence_id_absences")),
        sa.ForeignKeyConstraint(["entry_id"], ["list_entries.id"],
                                name=op.f("fk_playovers_entry_id_list_entries")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_playovers_hold_id_seat_holds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_playovers_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_playovers_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_playovers")),
    )
    with op.batch_alter_table("playovers", schema=None) as batch_op:
        batch_op.create_index("uq_playovers_live_hold", ["hold_id"], unique=True,
                              sqlite_where=LIVE, postgresql_where=LIVE)
        batch_op.create_index("uq_playovers_live_player", ["room_id", "player_id"], unique=True,
                              sqlite_where=LIVE, postgresql_where=LIVE)


def downgrade() -> None:
    op.drop_table("playovers")
    op.execute("ALTER TABLE absences DROP COLUMN no_playover_until")
    drop_columns("rooms", POLICIES)
