"""the rule holes: why a seat was lost, and whether an absence's stack was counted

Revision ID: 0033
Revises: 0034
Create Date: 2026-11-27 09:00:00

R27 with R17, R19, R24 and R26: a seat released by the room (a break that ran out, an away player
picked up, a forced must-move refused, a broken table with no seat left) records why
(``seat_holds.release_cause``), so the return rule counts its stack as it counts a player leaving
and its refusal names the rule that took the seat. R25: an away player's stack may be the buy-in
kept for want of a count (``absences.stack_counted`` false); such a stack is not a leave amount.
Existing rows: no cause, counted (as every break was). The same statements on both databases.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0033"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# the causes as roomops.holds.models.ReleaseCause names them at this revision
CAUSES = ("break", "away", "missed_bb", "must_move", "broken")
SEAT_HOLDS = {
    "release_cause": "VARCHAR(10) CONSTRAINT ck_seat_holds_release_cause CHECK (release_cause IS NULL "
                     f"OR (outcome = 'released' AND release_cause IN ({', '.join(repr(c) for c in CAUSES)})))",
}
ABSENCES = {"stack_counted": "BOOLEAN DEFAULT TRUE NOT NULL"}


def upgrade() -> None:
    add_checked_columns("seat_holds", SEAT_HOLDS)
    add_checked_columns("absences", ABSENCES)


def downgrade() -> None:
    drop_columns("absences", ABSENCES)
    drop_columns("seat_holds", SEAT_HOLDS)
