"""short buy-in after an all-in loss

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-23 08:20:00

R30: a player who lost all-in on the previous hand may buy in again for less than the minimum
once per session; the row says so, so the once is counted by the database's rows.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"short_buy_in": "BOOLEAN DEFAULT false NOT NULL CONSTRAINT ck_ledger_entries_short_buy_in "
                           "CHECK (NOT short_buy_in OR kind = 'add_on')"}


def upgrade() -> None:
    add_checked_columns("ledger_entries", COLUMNS)


def downgrade() -> None:
    drop_columns("ledger_entries", COLUMNS)
