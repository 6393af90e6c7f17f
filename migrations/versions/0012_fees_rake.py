"""session fees and rake

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-23 08:00:00

R50: a session fee row names the hour it covers (``period_start``/``period_end`` on
``ledger_entries``); a game may set its hourly fee by the number of players seated
(``hourly_fee_by_players``). R51: a rake row names its hand (``hand_id``); a game's no-flop-no-drop
policy (``rake_no_flop_no_drop``, default on). Plain ``ALTER TABLE ... ADD COLUMN`` on both
databases (``roomops.migration_ops.add_checked_columns``): ``ledger_entries`` keeps its
append-only triggers and its rows.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAME_COLUMNS = {"hourly_fee_by_players": "JSON",
                "rake_no_flop_no_drop": "BOOLEAN DEFAULT true NOT NULL"}


def _ledger_columns() -> dict[str, str]:
    ts = "DATETIME" if op.get_context().dialect.name == "sqlite" else "TIMESTAMP WITHOUT TIME ZONE"
    return {
        "period_start": ts,
        "period_end": f"{ts} CONSTRAINT ck_ledger_entries_fee_period CHECK (kind <> 'session_fee' "
                      "OR (period_start IS NOT NULL AND period_end > period_start))",
        "hand_id": "INTEGER CONSTRAINT fk_ledger_entries_hand_id_hands REFERENCES hands (id) "
                   "CONSTRAINT ck_ledger_entries_rake_hand CHECK (kind <> 'rake' OR hand_id IS NOT NULL)",
    }


def upgrade() -> None:
    add_checked_columns("games", GAME_COLUMNS)
    add_checked_columns("ledger_entries", _ledger_columns())
    op.create_index("ix_ledger_entries_hand", "ledger_entries", ["hand_id"])


def downgrade() -> None:
    op.drop_index("ix_ledger_entries_hand", table_name="ledger_entries")
    drop_columns("ledger_entries", _ledger_columns())
    drop_columns("games", GAME_COLUMNS)
