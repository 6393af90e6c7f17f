"""the room's default language for the players' pages

Revision ID: 0039
Revises: 0036
Create Date: 2026-11-28 04:00:00

Issue 21: the board and the phone pages are in English, German or Italian; a room names the one
shown when neither the player nor the browser names one (``roomops.rooms.languages``). Rooms
made before it read English, as they did.
"""

from collections.abc import Sequence

from roomops.checks import one_of
from roomops.migration_ops import add_checked_columns, drop_columns
from roomops.rooms.languages import Language

revision: str = "0039"
down_revision: str | None = "0036"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"language": "VARCHAR(2) DEFAULT 'en' NOT NULL CONSTRAINT ck_rooms_language "
                       f"CHECK ({one_of('language', Language)})"}


def upgrade() -> None:
    add_checked_columns("rooms", COLUMNS)


def downgrade() -> None:
    drop_columns("rooms", COLUMNS)
