"""every playover ends with a leave amount: the overplayer's chips are always on the books

Revision ID: 0045
Revises: 0043
Create Date: 2026-12-02 03:40:00

Issue 40 (R29, R27, R52): a playover that ended with no stack recorded (the overplayer sat down
elsewhere, the sweep released the owner's seat, the owner left) left the overplayer's chips with
no amount the cage could pay. ``roomops.playovers.services.end_playovers`` now always records
one (counted by the desk, or the chips the books hold for the playover), and the check
``ck_playovers_leave_amount`` says so: a leave amount exactly when the playover has ended.

The ended playovers with none get one first: the amount of their standing cash-out where the
cage paid one (what it counted), else the chips their ledger rows hold (the buy-in and add-ons,
with any reversal), as the service records where nobody counts. The downgrade restores the old
check and keeps those amounts: the old check allows them.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import replace_check

revision: str = "0045"
down_revision: str | None = "0043"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ck_playovers_leave_amount"
OLD = "leave_amount IS NULL OR (leave_amount >= 0 AND ended_at IS NOT NULL)"
NEW = "(leave_amount IS NULL) = (ended_at IS NULL) AND (leave_amount IS NULL OR leave_amount >= 0)"

# the cage's standing cash-out of the playover (no reversal names it), else its rows' chips
BACKFILL = (
    "UPDATE playovers SET leave_amount = COALESCE("
    "(SELECT -c.amount FROM ledger_entries c WHERE c.playover_id = playovers.id "
    "AND c.kind = 'cash_out' AND NOT EXISTS (SELECT 1 FROM ledger_entries r "
    "WHERE r.reverses_id = c.id)), "
    "(SELECT SUM(e.amount) FROM ledger_entries e WHERE e.playover_id = playovers.id), 0) "
    "WHERE ended_at IS NOT NULL AND leave_amount IS NULL")


def upgrade() -> None:
    op.execute(BACKFILL)
    replace_check("playovers", NAME, OLD, NEW)


def downgrade() -> None:
    replace_check("playovers", NAME, NEW, OLD)
