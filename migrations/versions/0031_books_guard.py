"""the books cannot be emptied or rewritten: TRUNCATE refused, a slip's amount fixed

Revision ID: 0031
Revises: 0030
Create Date: 2026-11-26 09:00:00

R52, R54, R60 on PostgreSQL: TRUNCATE fires no row trigger, so every append-only table gets a
statement trigger refusing it (``migration_ops.append_only`` makes it for tables made later; SQLite
has no TRUNCATE). R31 on both databases: a transit slip is never deleted (its number stays, gapless)
and what it is (its number, player, table, seat, amount and method) never changes once written; its
state and the who/when of each step are still set as it moves (``roomops.ledger.transit``).
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import no_truncate

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("audit_events", "ledger_entries", "hands", "penalties", "dealer_downs", "day_counts",
               "day_closes")
# what a slip is, as roomops.books.SLIP_FIXED names it at this revision
FIXED = ("room_id", "number", "player_id", "table_id", "hold_id", "amount", "method")
MESSAGE = ("transit_slips: a slip is never deleted and its number, player, table, seat, amount and "
           "method never change (R31)")
CHANGED = " OR ".join(f"NEW.{c} IS DISTINCT FROM OLD.{c}" for c in FIXED)


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        for table in APPEND_ONLY:
            no_truncate(table)
        # a check violation, as the database's other refusals of a slip (IntegrityError)
        op.execute("CREATE FUNCTION roomops_slip_fixed() RETURNS trigger AS $$ BEGIN "
                   f"RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation'; END $$ "
                   "LANGUAGE plpgsql")
        op.execute(f"CREATE TRIGGER transit_slips_fixed BEFORE UPDATE ON transit_slips "
                   f"FOR EACH ROW WHEN ({CHANGED}) EXECUTE FUNCTION roomops_slip_fixed()")
        op.execute("CREATE TRIGGER transit_slips_no_delete BEFORE DELETE ON transit_slips "
                   "FOR EACH ROW EXECUTE FUNCTION roomops_slip_fixed()")
        op.execute("CREATE TRIGGER transit_slips_no_truncate BEFORE TRUNCATE ON transit_slips "
                   "FOR EACH STATEMENT EXECUTE FUNCTION roomops_slip_fixed()")
        return
    raise_ = f"BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END"
    op.execute(f"CREATE TRIGGER transit_slips_fixed BEFORE UPDATE ON transit_slips "
               f"WHEN {CHANGED.replace('IS DISTINCT FROM', 'IS NOT')} {raise_}")
    op.execute(f"CREATE TRIGGER transit_slips_no_delete BEFORE DELETE ON transit_slips {raise_}")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        for table in (*APPEND_ONLY, "transit_slips"):
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
        op.execute("DROP TRIGGER transit_slips_fixed ON transit_slips")
        op.execute("DROP TRIGGER transit_slips_no_delete ON transit_slips")
        op.execute("DROP FUNCTION roomops_slip_fixed()")
        return
    op.execute("DROP TRIGGER transit_slips_fixed")
    op.execute("DROP TRIGGER transit_slips_no_delete")
