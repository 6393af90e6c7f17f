"""indexes for the board's reads by game

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-24 01:40:00

The board (and the desk's snapshot) read a room's active list entries by game, in list order
(R13): the room's partial index of active entries gains the game, so the rows come in that order
without a sort. The board reads a room's live absences (R23, R25) from a partial index of its own
instead of every seat it has.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")
LIVE = sa.text("ended_at IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_list_entries_room_active")
        batch_op.create_index("ix_list_entries_room_active", ["room_id", "game_id", "queue_at", "id"],
                              sqlite_where=ACTIVE, postgresql_where=ACTIVE)
    with op.batch_alter_table("absences", schema=None) as batch_op:
        batch_op.create_index("ix_absences_live_room", ["room_id"], sqlite_where=LIVE,
                              postgresql_where=LIVE)


def downgrade() -> None:
    with op.batch_alter_table("absences", schema=None) as batch_op:
        batch_op.drop_index("ix_absences_live_room")
    with op.batch_alter_table("list_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_list_entries_room_active")
        batch_op.create_index("ix_list_entries_room_active", ["room_id", "queue_at", "id"],
                              sqlite_where=ACTIVE, postgresql_where=ACTIVE)
