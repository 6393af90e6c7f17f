"""players join lists from the phone page: personal links, blocked numbers, remote entries

Revision ID: 0036
Revises: 0037
Create Date: 2026-11-25 04:00:00

R12: a room may let players make their own remote entries (``rooms.remote_entries``, off by
default), at most ``rooms.remote_entry_cap`` active ones per phone number. Such an entry has
source 'remote', names the personal link that made it (``player_links``, its token stored as a
SHA-256 only) and the number it came from; one active remote entry per number and game. The desk
blocks numbers (``blocked_phones``, lifted, never deleted).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0036"
down_revision: str | None = "0037"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS = {
    "remote_entries": "BOOLEAN DEFAULT FALSE NOT NULL",
    "remote_entry_cap": "INTEGER DEFAULT 3 NOT NULL CONSTRAINT ck_rooms_remote_entry_cap "
                        "CHECK (remote_entry_cap BETWEEN 1 AND 20)",
}
ENTRIES = {
    "link_id": "INTEGER CONSTRAINT fk_list_entries_link_id_player_links "
               "REFERENCES player_links (id)",
    "remote_phone": "VARCHAR(20) CONSTRAINT ck_list_entries_remote CHECK ((source = 'remote') = "
                    "(link_id IS NOT NULL AND remote_phone IS NOT NULL))",
}
OLD_SOURCES = "source IN ('in_person', 'phone')"
NEW_SOURCES = "source IN ('in_person', 'phone', 'remote')"
ACTIVE_REMOTE = sa.text("status = 'active' AND source = 'remote'")
LINKED = sa.text("link_id IS NOT NULL")
BLOCKING = sa.text("lifted_at IS NULL")


def upgrade() -> None:
    op.create_table(
        "player_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_player_links_room_id_rooms")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_player_links_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_links")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_player_links_token_hash")),
    )
    op.create_index("ix_player_links_room_id", "player_links", ["room_id"])
    op.create_index("ix_player_links_player_id", "player_links", ["player_id"])
    op.create_table(
        "blocked_phones",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=False),
        sa.Column("lifted_at", sa.DateTime(), nullable=True),
        sa.Column("lifted_by_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("length(reason) > 0", name=op.f("ck_blocked_phones_reason")),
        sa.CheckConstraint("(lifted_at IS NULL) = (lifted_by_id IS NULL)",
                           name=op.f("ck_blocked_phones_lifted")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"],
                                name=op.f("fk_blocked_phones_room_id_rooms")),
        sa.ForeignKeyConstraint(["created_by_id"], ["staff.id"],
                                name=op.f("fk_blocked_phones_created_by_id_staff")),
        sa.ForeignKeyConstraint(["lifted_by_id"], ["staff.id"],
                                name=op.f("fk_blocked_phones_lifted_by_id_staff")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_blocked_phones")),
    )
    op.create_index("ix_blocked_phones_room_id", "blocked_phones", ["room_id"])
    op.create_index("uq_blocked_phones_active", "blocked_phones", ["room_id", "phone"],
                    unique=True, sqlite_where=BLOCKING, postgresql_where=BLOCKING)
    add_checked_columns("rooms", ROOMS)
    replace_check("list_entries", "ck_list_entries_source", OLD_SOURCES, NEW_SOURCES)
    add_checked_columns("list_entries", ENTRIES)
    op.create_index("uq_list_entries_remote_phone", "list_entries", ["remote_phone", "game_id"],
                    unique=True, sqlite_where=ACTIVE_REMOTE, postgresql_where=ACTIVE_REMOTE)
    op.create_index("ix_list_entries_link", "list_entries", ["link_id"],
                    sqlite_where=LINKED, postgresql_where=LINKED)


def downgrade() -> None:
    op.drop_index("ix_list_entries_link", "list_entries")
    op.drop_index("uq_list_entries_remote_phone", "list_entries")
    drop_columns("list_entries", ENTRIES)
    # the old schema knows only call-ins: a player's own entry reads as one
    op.execute("UPDATE list_entries SET source = 'phone' WHERE source = 'remote'")
    replace_check("list_entries", "ck_list_entries_source", NEW_SOURCES, OLD_SOURCES)
    drop_columns("rooms", ROOMS)
    op.drop_index("uq_blocked_phones_active", "blocked_phones")
    op.drop_index("ix_blocked_phones_room_id", "blocked_phones")
    op.drop_table("blocked_phones")
    op.drop_index("ix_player_links_player_id", "player_links")
    op.drop_index("ix_player_links_room_id", "player_links")
    op.drop_table("player_links")
