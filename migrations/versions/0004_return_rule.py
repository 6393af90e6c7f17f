"""return rule policy and index

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 05:00:00

R27: the room's return window (minutes, default 120, or the rest of the gaming day) with check
constraints, and a partial index on a player's seats by end time, so looking up the seats a
returning player left recently reads only that player's rows.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SEATED = sa.text("kind = 'seated'")
COLUMNS = {
    "return_window": "VARCHAR(10) DEFAULT 'minutes' NOT NULL CONSTRAINT ck_rooms_return_window "
                     "CHECK (return_window IN ('minutes', 'gaming_day'))",
    "return_window_minutes": "INTEGER DEFAULT 120 NOT NULL CONSTRAINT ck_rooms_return_window_minutes "
                             "CHECK (return_window_minutes BETWEEN 1 AND 1440)",
}


def upgrade() -> None:
    add_checked_columns("rooms", COLUMNS)
    with op.batch_alter_table("seat_holds", schema=None) as batch_op:
        batch_op.create_index("ix_seat_holds_player_seated", ["player_id", "ended_at"],
                              sqlite_where=SEATED, postgresql_where=SEATED)


def downgrade() -> None:
    with op.batch_alter_table("seat_holds", schema=None) as batch_op:
        batch_op.drop_index("ix_seat_holds_player_seated")
    drop_columns("rooms", COLUMNS)
