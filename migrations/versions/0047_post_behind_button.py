"""a room setting: a player may post behind the button

Revision ID: 0047
Revises: 0045
Create Date: 2026-12-02 03:30:00

R35, the room's exception (issue 40): where ``post_behind_button`` is set (Nevada rooms), a new
or returning player sitting between the button and the small blind may post there to be dealt in
at once; off (the default, existing rooms included), they wait until the button passes.
"""

from collections.abc import Sequence

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0047"
down_revision: str | None = "0045"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOM_COLUMNS = {"post_behind_button": "BOOLEAN DEFAULT FALSE NOT NULL"}


def upgrade() -> None:
    add_checked_columns("rooms", ROOM_COLUMNS)


def downgrade() -> None:
    drop_columns("rooms", ROOM_COLUMNS)
