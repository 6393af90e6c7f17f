"""rake schedules, caps by players and rake per dealer down

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-23 09:30:00

R51: a game may rake by a schedule per pot size (``rake_schedule``) with caps by players dealt in
(``rake_caps_by_players``), and record its rake per hand or per dealer down (``rake_recorded``).
A dealer down (``dealer_downs``, append-only) names the hands of a dealer's spell at a table; its
rake row names it (``ledger_entries.down_id``), one rake row per down (partial unique index), and
the rake row's CHECK accepts a down in place of a hand. Plain ``ALTER TABLE ... ADD COLUMN`` on
both databases (``roomops.migration_ops``): ``games`` and ``ledger_entries`` keep their rows.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import (
    add_checked_columns,
    append_only,
    drop_append_only,
    drop_columns,
    replace_check,
)

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAME_COLUMNS = {
    "rake_schedule": "JSON",
    "rake_caps_by_players": "JSON",
    "rake_recorded": "VARCHAR(8) DEFAULT 'per_hand' NOT NULL CONSTRAINT ck_games_rake_recorded "
                     "CHECK (rake_recorded IN ('per_hand', 'per_down'))",
}
LEDGER_COLUMNS = {"down_id": "INTEGER CONSTRAINT fk_ledger_entries_down_id_dealer_downs "
                             "REFERENCES dealer_downs (id)"}
RAKE_HAND = "kind <> 'rake' OR hand_id IS NOT NULL"
RAKE_HAND_OR_DOWN = "kind <> 'rake' OR hand_id IS NOT NULL OR down_id IS NOT NULL"


def upgrade() -> None:
    add_checked_columns("games", GAME_COLUMNS)
    op.create_table(
        "dealer_downs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("first_hand_no", sa.Integer(), nullable=False),
        sa.Column("last_hand_no", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("recorded_by_id", sa.Integer(), nullable=False),
        sa.Column("recorded_at", roomops.db.UTCDateTime(), nullable=False),
        sa.CheckConstraint("first_hand_no >= 1 AND last_hand_no >= first_hand_no",
                           name=op.f("ck_dealer_downs_hands")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_dealer_downs_room_id_rooms")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"],
                                name=op.f("fk_dealer_downs_table_id_tables")),
        sa.ForeignKeyConstraint(["dealer_id"], ["staff.id"],
                                name=op.f("fk_dealer_downs_dealer_id_staff")),
        sa.ForeignKeyConstraint(["recorded_by_id"], ["staff.id"],
                                name=op.f("fk_dealer_downs_recorded_by_id_staff")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dealer_downs")),
    )
    op.create_index("ix_dealer_downs_table_hands", "dealer_downs", ["table_id", "first_hand_no"])
    append_only("dealer_downs")
    add_checked_columns("ledger_entries", LEDGER_COLUMNS)
    op.create_index("uq_ledger_entries_down_rake", "ledger_entries", ["down_id"], unique=True,
                    sqlite_where=sa.text("kind = 'rake'"), postgresql_where=sa.text("kind = 'rake'"))
    replace_check("ledger_entries", "ck_ledger_entries_rake_hand", RAKE_HAND, RAKE_HAND_OR_DOWN)


def downgrade() -> None:
    # the CHECK names down_id: back to the hand-only check before the column goes
    replace_check("ledger_entries", "ck_ledger_entries_rake_hand", RAKE_HAND_OR_DOWN, RAKE_HAND)
    op.drop_index("uq_ledger_entries_down_rake", table_name="ledger_entries")
    drop_columns("ledger_entries", LEDGER_COLUMNS)
    drop_append_only("dealer_downs")
    op.drop_index("ix_dealer_downs_table_hands", table_name="dealer_downs")
    op.drop_table("dealer_downs")
    drop_columns("games", GAME_COLUMNS)
