"""the room's time-collection and split-pot settings

Revision ID: 0058
Revises: 0057
Create Date: 2026-12-07 15:00:00

Issue 44 (R50, R51; docs/fees.md "Time collection", "Split pots"): how a room collects time
(``time_collection``: at the collection times on the clock, or each player's own period from when
they pay), who is exempt (``time_new_player_minutes``), when everyone pays before the next hand
(``time_all_pay_waiting``), whether a player who declines plays on until the big blind while
nobody waits (``time_decline_until_bb``), and whether a split pot is raked (``rake_split_pots``).
A new room collects at the collection times; a room that ran before this keeps each player's own
period, as it did.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0058"
down_revision: str | None = "0057"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS = {
    "time_collection": "VARCHAR(6) DEFAULT 'clock' NOT NULL CONSTRAINT ck_rooms_time_collection "
                       "CHECK (time_collection IN ('clock', 'own'))",
    "time_new_player_minutes": "INTEGER DEFAULT 10 NOT NULL CONSTRAINT ck_rooms_time_new_player_minutes "
                               "CHECK (time_new_player_minutes BETWEEN 0 AND 30)",
    "time_all_pay_waiting": "INTEGER DEFAULT 2 NOT NULL CONSTRAINT ck_rooms_time_all_pay_waiting "
                            "CHECK (time_all_pay_waiting BETWEEN 1 AND 50)",
    "time_decline_until_bb": "BOOLEAN DEFAULT true NOT NULL",
    "rake_split_pots": "BOOLEAN DEFAULT true NOT NULL",
}


def upgrade() -> None:
    add_checked_columns("rooms", ROOMS)
    op.execute("UPDATE rooms SET time_collection = 'own'")  # what the rooms ran on until now


def downgrade() -> None:
    drop_columns("rooms", ROOMS)
