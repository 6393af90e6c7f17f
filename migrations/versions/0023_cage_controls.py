"""the cage's controls: approved cash-outs, one per seat, reversals by a second person

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-24 19:00:00

R27/R28: a cash-out is tied to the seat that ended; a seat (or a playover on it, R29) is cashed
out once while its cash-out stands, and a cash-out above the room's threshold or different from
the recorded leave amount carries the supervisor who approved it, never its own poster.
R52: where the room requires two people, nobody reverses a row they posted. R54: whether a close
with tables still running is refused or only warned of. The two row rules are triggers (they read
other rows); their messages carry the marks ``roomops.ledger.cash_outs`` turns into 409s.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, money_columns

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOM_COLUMNS = {
    # money: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite, as ``roomops.db.Minor``
    "cash_out_approval_over": "{money} CONSTRAINT ck_rooms_cash_out_approval_over "
                              "CHECK (cash_out_approval_over IS NULL OR cash_out_approval_over > 0)",
    "reversal_two_person": "BOOLEAN DEFAULT TRUE NOT NULL",
    "close_while_running": "VARCHAR(8) DEFAULT 'warn' NOT NULL CONSTRAINT "
                           "ck_rooms_close_while_running "
                           "CHECK (close_while_running IN ('warn', 'refuse'))",
}
LEDGER_COLUMNS = {
    "approved_by_id": "INTEGER REFERENCES staff (id) CONSTRAINT ck_ledger_entries_approved_by "
                      "CHECK (approved_by_id IS NULL OR approved_by_id <> staff_id)",
    "playover_id": "INTEGER REFERENCES playovers (id)",
}

CASHED_OUT = "ledger_entries: seat already cashed out (R28)"
OWN_REVERSAL = "ledger_entries: reversal by the poster of the row (R52)"
# a standing cash-out (not reversed) of the same seat, or of the same playover on it
STANDING_CASH_OUT = (
    "NEW.kind = 'cash_out' AND EXISTS (SELECT 1 FROM ledger_entries e WHERE e.hold_id = "
    "NEW.hold_id AND e.kind = 'cash_out' AND e.playover_id {same} NEW.playover_id AND NOT EXISTS "
    "(SELECT 1 FROM ledger_entries r WHERE r.reverses_id = e.id))")
OWN_POSTER = (
    "NEW.kind = 'reversal' AND EXISTS (SELECT 1 FROM ledger_entries o JOIN rooms m ON m.id = "
    "o.room_id WHERE o.id = NEW.reverses_id AND o.staff_id = NEW.staff_id AND "
    "m.reversal_two_person)")



def upgrade() -> None:
    add_checked_columns("rooms", money_columns(ROOM_COLUMNS))
    add_checked_columns("ledger_entries", LEDGER_COLUMNS)
    op.create_index("ix_ledger_entries_playover", "ledger_entries", ["playover_id"])
    if op.get_context().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION roomops_cage_controls() RETURNS trigger AS $$ BEGIN "
            f"IF {STANDING_CASH_OUT.format(same='IS NOT DISTINCT FROM')} THEN RAISE EXCEPTION "
            f"'{CASHED_OUT}' USING ERRCODE = 'unique_violation'; END IF; "
            f"IF {OWN_POSTER} THEN RAISE EXCEPTION '{OWN_REVERSAL}' USING ERRCODE = "
            "'check_violation'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        op.execute("CREATE TRIGGER ledger_entries_cage_controls BEFORE INSERT ON ledger_entries "
                   "FOR EACH ROW EXECUTE FUNCTION roomops_cage_controls()")
        return
    for name, when, message in (("one_cash_out", STANDING_CASH_OUT.format(same="IS"), CASHED_OUT),
                                ("second_person", OWN_POSTER, OWN_REVERSAL)):
        op.execute(f"CREATE TRIGGER ledger_entries_{name} BEFORE INSERT ON ledger_entries "
                   f"WHEN {when} BEGIN SELECT RAISE(ABORT, '{message}'); END")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER ledger_entries_cage_controls ON ledger_entries")
        op.execute("DROP FUNCTION roomops_cage_controls()")
    else:
        op.execute("DROP TRIGGER ledger_entries_one_cash_out")
        op.execute("DROP TRIGGER ledger_entries_second_person")
    op.drop_index("ix_ledger_entries_playover", "ledger_entries")
    drop_columns("ledger_entries", LEDGER_COLUMNS)
    drop_columns("rooms", money_columns(ROOM_COLUMNS))
