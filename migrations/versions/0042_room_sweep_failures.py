"""a room whose sweep keeps failing: since when, so that its screens alone say it is late

Revision ID: 0042
Revises: 0041
Create Date: 2026-11-28 16:00:00

Each room is swept in a unit of work of its own (docs/architecture.md, "Scheduler"): a room whose
sweep fails is rolled back alone and the other rooms' timers are released. The scheduler's
heartbeat (``sweep_heartbeats``) says the scheduler runs; this table says which rooms it has been
failing to sweep, and since when, so that the failing room's desk and board say its times are
late while the other rooms' do not (docs/decisions.md, "The scheduler's heartbeat"). A row is
written at a room's first failed sweep, since the sweep before it, and deleted by the first run in
which its sweep does not fail. A new table: the same statements on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0042"
down_revision: str | None = "0041"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "room_sweep_failures",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("failing_since", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"],
                                name=op.f("fk_room_sweep_failures_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_room_sweep_failures")),
    )


def downgrade() -> None:
    op.drop_table("room_sweep_failures")
