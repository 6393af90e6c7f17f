"""the room's locale, for money as people read it

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-24 17:00:00

R32: amounts are the minor units of the room's currency; the locale says how they are shown and
typed (the symbol's place, the decimal sign, the thousands separator: ``roomops.money``). Rooms
made before it read as British English, as they did.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"locale": "VARCHAR(16) DEFAULT 'en_GB' NOT NULL CONSTRAINT ck_rooms_locale "
                     "CHECK (length(locale) BETWEEN 2 AND 16)"}


def upgrade() -> None:
    add_checked_columns("rooms", COLUMNS)


def downgrade() -> None:
    drop_columns("rooms", COLUMNS)
