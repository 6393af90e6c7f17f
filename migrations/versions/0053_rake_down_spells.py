"""a dealer down's rake names the down of the roster it was dealt in

Revision ID: 0053
Revises: 0052
Create Date: 2026-12-03 13:20:00

Issue 42 (R51, R63): where the room runs its dealers' rotation here, the total rake of a dealer
down (``dealer_downs``, R51) is recorded for the hands of one down of the roster
(``dealer_spells``, migration 0051) and names it, so the rake per down hangs on the downs.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0053"
down_revision: str | None = "0052"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DOWNS = {"spell_id": "INTEGER REFERENCES dealer_spells (id)"}


def upgrade() -> None:
    add_checked_columns("dealer_downs", DOWNS)
    op.create_index("ix_dealer_downs_spell_id", "dealer_downs", ["spell_id"])


def downgrade() -> None:
    op.drop_index("ix_dealer_downs_spell_id", table_name="dealer_downs")
    drop_columns("dealer_downs", DOWNS)
