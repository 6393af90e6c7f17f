"""the language each phone joined in, for the texts sent to its player

Revision ID: 0041
Revises: 0040
Create Date: 2026-11-28 05:00:00

Issue 21: a seat offered to a player who joined from the phone is texted in the language the
phone page was in (docs/messages.md). The phone's personal link keeps it: a phone that joins
several games, together or one after another, uses one link, and each join sets its language to
the page's, the phone's latest choice. NULL: not known (links made before this migration, joins
through the API), so the room's default language.
"""

from collections.abc import Sequence

from roomops.checks import one_of
from roomops.migration_ops import add_checked_columns, drop_columns
from roomops.rooms.languages import Language

revision: str = "0041"
down_revision: str | None = "0040"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"language": "VARCHAR(2) CONSTRAINT ck_player_links_language "
                       f"CHECK (language IS NULL OR {one_of('language', Language)})"}


def upgrade() -> None:
    add_checked_columns("player_links", COLUMNS)


def downgrade() -> None:
    drop_columns("player_links", COLUMNS)
