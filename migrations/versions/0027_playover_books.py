"""every chip on the table is on the books: the overplayer's stack as they leave, and playover rows

Revision ID: 0027
Revises: 0026
Create Date: 2026-11-25 10:00:00

R29/R27: a playover records the overplayer's counted stack when it ends (``leave_amount``, as a
seat's), the amount its cash-out is tied to; it is recorded at the end or later, never while the
playover runs. R29/R52: a ledger row naming a playover (the overplayer's buy-in, add-ons and
cash-out) is on the playover's seat and of its overplayer, never the owner's: a trigger (it reads
another table) whose message ``roomops.ledger.posting`` never meets, the service checking first.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, money_columns

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {
    # money: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite, as ``roomops.db.Minor``
    "leave_amount": "{money} CONSTRAINT ck_playovers_leave_amount CHECK (leave_amount IS NULL OR "
                    "(leave_amount >= 0 AND ended_at IS NOT NULL))",
}

OFF_ITS_SEAT = "ledger_entries: playover row off its seat or overplayer (R29)"
# a row naming a playover that is not on the row's seat, or not of the row's player
NOT_THE_PLAYOVERS = (
    "NEW.playover_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM playovers p WHERE p.id = "
    "NEW.playover_id AND p.hold_id = NEW.hold_id AND p.player_id = NEW.player_id)")



def upgrade() -> None:
    add_checked_columns("playovers", money_columns(COLUMNS))
    if op.get_context().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION roomops_playover_rows() RETURNS trigger AS $$ BEGIN "
            f"IF {NOT_THE_PLAYOVERS} THEN RAISE EXCEPTION '{OFF_ITS_SEAT}' USING ERRCODE = "
            "'check_violation'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        op.execute("CREATE TRIGGER ledger_entries_playover_rows BEFORE INSERT ON ledger_entries "
                   "FOR EACH ROW EXECUTE FUNCTION roomops_playover_rows()")
        return
    op.execute("CREATE TRIGGER ledger_entries_playover_rows BEFORE INSERT ON ledger_entries "
               f"WHEN {NOT_THE_PLAYOVERS} BEGIN SELECT RAISE(ABORT, '{OFF_ITS_SEAT}'); END")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER ledger_entries_playover_rows ON ledger_entries")
        op.execute("DROP FUNCTION roomops_playover_rows()")
    else:
        op.execute("DROP TRIGGER ledger_entries_playover_rows")
    drop_columns("playovers", money_columns(COLUMNS))
