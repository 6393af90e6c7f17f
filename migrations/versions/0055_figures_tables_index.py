"""the figures' rollup reads a room's tables by when they closed

Revision ID: 0055
Revises: 0054
Create Date: 2026-12-03 20:10:00

Issue 43 (R80; docs/benchmarks.md "Figures"): an hour's rollup reads the tables running in it
(``roomops.figures.facts``: closed after the hour began, or still open). With no index on a room's
tables by time both databases read every table the room ever opened, about 70,000 in a year of a
250-table room, for each hour rolled up and each figures page: ``ix_tables_room_closed`` reads
those of the hour (SQLite: a multi-index OR of its two ranges; PostgreSQL: a bitmap OR).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0055"
down_revision: str | None = "0054"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_tables_room_closed", "tables", ["room_id", "closed_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_room_closed", table_name="tables")
