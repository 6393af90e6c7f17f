"""missed big blinds counted on an absence

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 06:50:00

R26: the big blinds an absent player has missed, counted on the absence, so a room that sets
``max_missed_bb`` picks the seat up when the count reaches it.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {
    "missed_bb": "INTEGER DEFAULT 0 NOT NULL CONSTRAINT ck_absences_missed_bb CHECK (missed_bb >= 0)",
}


def upgrade() -> None:
    add_checked_columns("absences", COLUMNS)


def downgrade() -> None:
    drop_columns("absences", COLUMNS)
