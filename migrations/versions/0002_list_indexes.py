"""list indexes for the board and the sweep

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 04:40:00

The public board reads a room's active entries in list order (R13), and the sweep looks for phone
entries past their check-in deadline (R12): two partial indexes, so neither reads the list history.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")
AWAITING_CHECKIN = sa.text("status = 'active' AND checked_in_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.create_index("ix_list_entries_room_active", ["room_id", "queue_at", "id"],
                              sqlite_where=ACTIVE, postgresql_where=ACTIVE)
        batch_op.create_index("ix_list_entries_checkin_due", ["checkin_deadline"],
                              sqlite_where=AWAITING_CHECKIN, postgresql_where=AWAITING_CHECKIN)


def downgrade() -> None:
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_list_entries_checkin_due")
        batch_op.drop_index("ix_list_entries_room_active")
