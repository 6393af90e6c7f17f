"""rake as rooms take it: the game's smallest chip, percent in basis points, one chip at least

Revision ID: 0025
Revises: 0023
Create Date: 2026-11-24 20:30:00

R51: rake rounds down to the game's smallest chip, until now taken to be its small blind: every
game keeps that as its smallest chip. The percent becomes basis points (5.5% is 550) so a rake of
5.5% can be kept: 10 becomes 1000. Whether a pot that qualifies for rake is raked one chip at
least is the game's setting, off for every game as before.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0025"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {
    # money: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite, as ``roomops.db.Minor``;
    # the default only fills the rows there are, which the upgrade then sets to the small blind
    "smallest_chip": "{money} DEFAULT 1 NOT NULL CONSTRAINT ck_games_smallest_chip "
                     "CHECK (smallest_chip > 0)",
    "rake_min_one_chip": "BOOLEAN DEFAULT FALSE NOT NULL",
}
PERCENT = ("ck_games_rake_percent", "rake_bp BETWEEN 0 AND 100")
BASIS_POINTS = ("ck_games_rake_bp", "rake_bp BETWEEN 0 AND 10000")


def _columns() -> dict[str, str]:
    money = "BIGINT" if op.get_context().dialect.name == "postgresql" else "INTEGER"
    return {name: spec.replace("{money}", money) for name, spec in COLUMNS.items()}


def upgrade() -> None:
    op.execute("ALTER TABLE games RENAME COLUMN rake_percent TO rake_bp")  # its check follows it
    replace_check("games", PERCENT[0], PERCENT[1], BASIS_POINTS[1], BASIS_POINTS[0])
    op.execute("UPDATE games SET rake_bp = rake_bp * 100")
    add_checked_columns("games", _columns())
    op.execute("UPDATE games SET smallest_chip = small_blind")


def downgrade() -> None:
    drop_columns("games", _columns())
    op.execute("UPDATE games SET rake_bp = rake_bp / 100")  # a fraction of a percent is lost
    replace_check("games", BASIS_POINTS[0], BASIS_POINTS[1], PERCENT[1], PERCENT[0])
    op.execute("ALTER TABLE games RENAME COLUMN rake_bp TO rake_percent")
