"""the room's seat history by time, for the estimated waits

Revision ID: 0038
Revises: 0035
Create Date: 2026-11-25 04:00:00

Issue 21 (docs/waits.md): the estimated waits read a room's seats that started or ended in the
last weeks, grouped by hour (``roomops.waits.services``). Two indexes, by room and time, make
that a range read instead of a walk through every seat the room ever had.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0038"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seat_holds_room_started", "seat_holds", ["room_id", "started_at"])
    op.create_index("ix_seat_holds_room_ended", "seat_holds", ["room_id", "ended_at"])


def downgrade() -> None:
    op.drop_index("ix_seat_holds_room_ended", table_name="seat_holds")
    op.drop_index("ix_seat_holds_room_started", table_name="seat_holds")
