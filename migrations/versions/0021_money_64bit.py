"""amounts in 64-bit integers

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-25 09:00:00

R52/R54: every column holding an amount of minor units becomes BIGINT on PostgreSQL, so a stake,
a buy-in, a ledger row, a count and the expected and counted totals of a gaming day's close fit
any real currency's minor units (``roomops.schemas.MAX_AMOUNT``, and the sum of a day's rows of
that size), where INTEGER (int4) stopped at 2147483647 minor units: 21 million in a two-decimal
currency, about a thousand pounds' worth of Indonesian rupiah. The columns' sums (``sum(bigint)``,
NUMERIC) are read back as ints by the code that reads them.

One ALTER TABLE per table, so each table is rewritten once whatever the number of its columns. No
view, index or trigger names these columns (the triggers of 0008, 0016, 0019 and 0020 read other
columns, and a rewrite fires no row trigger), so nothing is dropped and made again. The schedules
kept as JSON (R50/R51) and the amounts inside hands' JSON need nothing.

SQLite: nothing to do. Its INTEGER is already a 64-bit integer, and rebuilding the tables to spell
the type differently would drop the ledger's append-only and closed-shift triggers (0008, 0019)
and the board marks' triggers (0020) for no change in what is stored.

The downgrade goes back to INTEGER, and fails (integer out of range) rather than truncate when an
amount no longer fits it.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# every column of minor units (``roomops.db.Minor`` in the models), by table
MONEY = {
    "games": ("small_blind", "big_blind", "ante", "min_buyin", "max_buyin", "hourly_fee", "rake_cap"),
    "seat_holds": ("buy_in", "leave_amount"),
    "absences": ("stack",),
    "playovers": ("buy_in",),
    "transit_slips": ("amount",),
    "ledger_entries": ("amount",),
    "day_counts": ("counted", "expected"),
    "day_closes": ("expected_total", "counted_total"),
}


def upgrade() -> None:
    _retype("BIGINT")


def downgrade() -> None:
    _retype("INTEGER")


def _retype(sql_type: str) -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    for table, columns in MONEY.items():
        op.execute(f"ALTER TABLE {table} "
                   + ", ".join(f"ALTER COLUMN {c} TYPE {sql_type}" for c in columns))
