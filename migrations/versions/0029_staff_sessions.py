"""staff sessions end on the server: each staff member's session version

Revision ID: 0029
Revises: 0028
Create Date: 2026-11-25 18:00:00

R61: every log-in carries the version of its staff member's sessions it began under; log-out
moves the version on, so every copy of that log-in's cookie (and any other of theirs) is refused
(roomops.auth.views). Existing rows start at 1; the same statements on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {
    "session_version": "INTEGER DEFAULT 1 NOT NULL CONSTRAINT ck_staff_session_version "
                       "CHECK (session_version >= 1)",
}


def upgrade() -> None:
    add_checked_columns("staff", COLUMNS)


def downgrade() -> None:
    drop_columns("staff", COLUMNS)
