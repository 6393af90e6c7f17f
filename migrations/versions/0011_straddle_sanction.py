"""straddle sanction per game

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-23 07:30:00

R40: a game may require straddles to be sanctioned by the supervisor (``001_…``).
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"straddle_sanction": "BOOLEAN DEFAULT false NOT NULL"}


def upgrade() -> None:
    add_checked_columns("games", COLUMNS)


def downgrade() -> None:
    drop_columns("games", COLUMNS)
