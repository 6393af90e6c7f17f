"""the settings rooms differ on: call-ins, break expiry, posting per game, must-move timing, a
return tolerance and lockups

Revision ID: 0034
Revises: 0031
Create Date: 2026-11-27 09:00:00

R12: whether call-ins are taken at all. R24: a seat lost when a break runs out always, or only
when somebody is waiting for a seat of the game. R36: a game's own new-player posting (NULL: the
room's). R17: a must-move player moves at once, or when the big blind reaches them. R27: the
return rule accepts a buy-in this much (minor units) or this percent below the counted stack.
R10-R14: a listed player who steps away keeps their place for the room's ``lockup_minutes``
(0: no lockups), with a deposit recorded if one was taken; the sweep ends a lockup that ran out.
Existing rooms keep today's behaviour (the defaults).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, money_columns

revision: str = "0034"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOM_COLUMNS = {
    "call_ins": "BOOLEAN DEFAULT TRUE NOT NULL",
    "break_expiry": "VARCHAR(12) DEFAULT 'always' NOT NULL CONSTRAINT ck_rooms_break_expiry "
                    "CHECK (break_expiry IN ('always', 'if_waiting'))",
    "must_move_when": "VARCHAR(12) DEFAULT 'at_once' NOT NULL CONSTRAINT ck_rooms_must_move_when "
                      "CHECK (must_move_when IN ('at_once', 'big_blind'))",
    "return_tolerance_unit": "VARCHAR(8) DEFAULT 'amount' NOT NULL CONSTRAINT "
                             "ck_rooms_return_tolerance_unit "
                             "CHECK (return_tolerance_unit IN ('amount', 'percent'))",
    "return_tolerance": "{money} DEFAULT 0 NOT NULL CONSTRAINT ck_rooms_return_tolerance "
                        "CHECK (return_tolerance >= 0 AND (return_tolerance_unit = 'amount' OR "
                        "return_tolerance <= 100))",
    "lockup_minutes": "INTEGER DEFAULT 0 NOT NULL CONSTRAINT ck_rooms_lockup_minutes "
                      "CHECK (lockup_minutes BETWEEN 0 AND 120)",
}
GAME_COLUMNS = {
    "new_player_posting": "VARCHAR(12) DEFAULT 'room' NOT NULL CONSTRAINT "
                          "ck_games_new_player_posting "
                          "CHECK (new_player_posting IN ('room', 'post_or_wait', 'free'))",
}
ENTRY_COLUMNS = {
    "lockup_deposit": "{money} CONSTRAINT ck_list_entries_lockup_deposit "
                      "CHECK (lockup_deposit IS NULL OR lockup_deposit > 0)",
}
LOCKED = sa.text("status = 'active' AND locked_until IS NOT NULL")


def upgrade() -> None:
    add_checked_columns("rooms", money_columns(ROOM_COLUMNS))
    add_checked_columns("games", GAME_COLUMNS)
    op.add_column("list_entries", sa.Column("locked_until", sa.DateTime(), nullable=True))
    add_checked_columns("list_entries", money_columns(ENTRY_COLUMNS))
    # the sweep finds lockups that ran out
    op.create_index("ix_list_entries_lockup_due", "list_entries", ["locked_until"],
                    sqlite_where=LOCKED, postgresql_where=LOCKED)


def downgrade() -> None:
    op.drop_index("ix_list_entries_lockup_due", "list_entries")
    drop_columns("list_entries", ENTRY_COLUMNS)
    op.drop_column("list_entries", "locked_until")
    drop_columns("games", GAME_COLUMNS)
    drop_columns("rooms", ROOM_COLUMNS)
