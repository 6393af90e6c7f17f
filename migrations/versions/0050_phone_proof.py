"""a remote join proves its phone, and a personal link ends

Revision ID: 0050
Revises: 0049
Create Date: 2026-12-02 03:20:00

Issue 40 (R12, R61; docs/phone.md): anyone who knew a player's number could join lists as them.

- ``phone_codes``: a join from the phone waiting for the one-time code texted to its number
  (where the room has a provider): the code's keyed hash, never the code; the pending join's
  secret (the phone's cookie) as its SHA-256; a deadline on the row and the tries made.
- ``list_entries.phone_verified``: the entry's phone proved its number (a code, or a link that
  proved it before). One active remote entry per number and game, and the number's cap, count
  verified entries only: an unverified join cannot keep the number's player off a list.
- ``player_links.phone``: the number the link proved (NULL: unverified); ``expires_at``: when
  the link ends (the end of the gaming day after its last join, R2). Links made before this
  migration end two days after they were made, as their cookie did.
"""

from collections.abc import Sequence
from datetime import timedelta

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime
from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0050"
down_revision: str | None = "0049"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ENTRIES = {"phone_verified": "BOOLEAN DEFAULT false NOT NULL CONSTRAINT "
                             "ck_list_entries_phone_verified CHECK (source = 'remote' OR NOT "
                             "phone_verified)"}
# NOT NULL: every link ends; the epoch only fills the rows already there until they are set
EXPIRES = "{ts} DEFAULT '1970-01-01 00:00:00' NOT NULL"
ACTIVE_REMOTE = sa.text("status = 'active' AND source = 'remote'")
VERIFIED_REMOTE = sa.text("status = 'active' AND source = 'remote' AND phone_verified")
OPEN = sa.text("confirmed_at IS NULL")


def _links() -> dict[str, str]:
    ts = "DATETIME" if op.get_context().dialect.name == "sqlite" else "TIMESTAMP WITHOUT TIME ZONE"
    return {"phone": "VARCHAR(20)", "expires_at": EXPIRES.format(ts=ts)}


def upgrade() -> None:
    op.create_table(
        "phone_codes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("phone", sa.String(20), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("first_name", sa.String(60), nullable=False),
        sa.Column("last_name", sa.String(60), nullable=False),
        sa.Column("game_ids", sa.String(240), nullable=False),
        sa.Column("language", sa.String(2)),
        sa.Column("created_at", UTCDateTime, nullable=False),
        sa.Column("deadline", UTCDateTime, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("confirmed_at", UTCDateTime),
        sa.Column("link_id", sa.Integer, sa.ForeignKey("player_links.id")),
        sa.CheckConstraint("attempts >= 0", name="ck_phone_codes_attempts"),
        sa.CheckConstraint("deadline > created_at", name="ck_phone_codes_deadline"),
        sa.CheckConstraint("(confirmed_at IS NULL) = (link_id IS NULL)",
                           name="ck_phone_codes_confirmed"),
        sa.CheckConstraint("length(game_ids) > 0", name="ck_phone_codes_game_ids"),
    )
    op.create_index("ix_phone_codes_room_phone", "phone_codes", ["room_id", "phone", "created_at"])
    add_checked_columns("list_entries", ENTRIES)
    op.drop_index("uq_list_entries_remote_phone", "list_entries")
    op.create_index("uq_list_entries_remote_phone", "list_entries", ["remote_phone", "game_id"],
                    unique=True, sqlite_where=VERIFIED_REMOTE, postgresql_where=VERIFIED_REMOTE)
    add_checked_columns("player_links", _links())
    links = sa.table("player_links", sa.column("id", sa.Integer),
                     sa.column("created_at", UTCDateTime), sa.column("expires_at", UTCDateTime))
    bind = op.get_bind()
    for link_id, made in bind.execute(sa.select(links.c.id, links.c.created_at)).all():
        bind.execute(links.update().where(links.c.id == link_id).values(
            expires_at=made + timedelta(days=2)))


def downgrade() -> None:
    drop_columns("player_links", _links())
    op.drop_index("uq_list_entries_remote_phone", "list_entries")
    op.create_index("uq_list_entries_remote_phone", "list_entries", ["remote_phone", "game_id"],
                    unique=True, sqlite_where=ACTIVE_REMOTE, postgresql_where=ACTIVE_REMOTE)
    drop_columns("list_entries", ENTRIES)
    op.drop_index("ix_phone_codes_room_phone", "phone_codes")
    op.drop_table("phone_codes")
