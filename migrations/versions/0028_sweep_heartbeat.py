"""the sweep's heartbeat: one row per scheduler, its last successful sweep

Revision ID: 0028
Revises: 0027
Create Date: 2026-11-25 12:00:00

Every sweep rewrites its scheduler's row in its own transaction (time, how long it took, what it
did), so a sweep that fails records nothing and the row's age grows; the desk, the board and
``/health`` read the freshest row to say when nobody is releasing the room's timers (R20, R22,
R24, R26). A new table: nothing else changes, the same statements on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "sweep_heartbeats",
        sa.Column("scheduler_id", sa.String(length=120), nullable=False),
        sa.Column("ran_at", sa.DateTime(), nullable=False),
        sa.Column("took_ms", sa.Integer(), nullable=False),
        sa.Column("expired_offers", sa.Integer(), nullable=False),
        sa.Column("no_shows", sa.Integer(), nullable=False),
        sa.Column("released_absences", sa.Integer(), nullable=False),
        sa.CheckConstraint("took_ms >= 0", name=op.f("ck_sweep_heartbeats_took_ms")),
        sa.CheckConstraint("expired_offers >= 0 AND no_shows >= 0 AND released_absences >= 0",
                           name=op.f("ck_sweep_heartbeats_counts")),
        sa.PrimaryKeyConstraint("scheduler_id", name=op.f("pk_sweep_heartbeats")),
    )
    # the freshest row is what every screen's poll reads
    op.create_index("ix_sweep_heartbeats_ran_at", "sweep_heartbeats", ["ran_at"])


def downgrade() -> None:
    op.drop_index("ix_sweep_heartbeats_ran_at", "sweep_heartbeats")
    op.drop_table("sweep_heartbeats")
