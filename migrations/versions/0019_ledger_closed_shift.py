"""the ledger refuses a row of a closed shift

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-24 02:00:00

R54: once a shift (or the gaming day) is closed its figures never change. Until now the services
checked it before each posting; now the database refuses such a row itself, inside the INSERT, for
every writer: a trigger on ``ledger_entries`` looks for a close of the row's gaming day that covers
its shift (the day's last close, or a close of that shift or a later one; shifts close in order).
Its message carries ``ledger_entries: shift closed (R54)``, which the posting service turns into
its 409 (``roomops.ledger.dayclose.CLOSED_MARK``). A later migration that rebuilds the table on
SQLite must make the trigger again, as 0016 does for the append-only triggers of ``day_closes``.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MESSAGE = "ledger_entries: shift closed (R54)"
CLOSED = ("EXISTS (SELECT 1 FROM day_closes c WHERE c.room_id = NEW.room_id "
          "AND c.gaming_day = NEW.gaming_day AND (c.closes_day OR c.shift_no >= NEW.shift_no))")


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION roomops_shift_open() RETURNS trigger AS $$ BEGIN "
            f"IF {CLOSED} THEN RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation'; "
            "END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        op.execute("CREATE TRIGGER ledger_entries_shift_open BEFORE INSERT ON ledger_entries "
                   "FOR EACH ROW EXECUTE FUNCTION roomops_shift_open()")
        return
    op.execute(f"CREATE TRIGGER ledger_entries_shift_open BEFORE INSERT ON ledger_entries "
               f"WHEN {CLOSED} BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER ledger_entries_shift_open ON ledger_entries")
        op.execute("DROP FUNCTION roomops_shift_open()")
        return
    op.execute("DROP TRIGGER ledger_entries_shift_open")
