"""the outbox: one row per text to a player about an offered seat (R20)

Revision ID: 0037
Revises: 0038
Create Date: 2026-11-25 04:00:00

Written in the transaction that makes the offer (so a rollback sends nothing, a crash after the
commit loses nothing), sent after the commit and by the sweep, retried with back-off. One row per
offer and channel (a unique index: never two texts for one offer); a sender claims a row by a
conditional UPDATE to ``sending`` with a lease. A new table, the same statements on SQLite and
PostgreSQL (docs/messages.md).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0037"
down_revision: str | None = "0038"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("state IN ('queued', 'sending')")
STATES = "('queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled', 'not_sent')"


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=8), nullable=False),
        sa.Column("number", sa.String(length=40), nullable=True),
        sa.Column("body", sa.String(length=640), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
        sa.Column("last_error", sa.String(length=200), nullable=True),
        sa.Column("provider_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("channel IN ('sms')", name=op.f("ck_outbox_channel")),
        sa.CheckConstraint(f"state IN {STATES}", name=op.f("ck_outbox_state")),
        sa.CheckConstraint("attempts >= 0", name=op.f("ck_outbox_attempts")),
        sa.CheckConstraint("state <> 'sending' OR lease_until IS NOT NULL",
                           name=op.f("ck_outbox_lease")),
        sa.CheckConstraint("state <> 'queued' OR next_attempt_at IS NOT NULL",
                           name=op.f("ck_outbox_next_attempt")),
        sa.CheckConstraint("state NOT IN ('queued', 'sending', 'sent', 'delivered') OR "
                           "number IS NOT NULL", name=op.f("ck_outbox_number")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_outbox_room_id_rooms")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_outbox_hold_id_seat_holds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_outbox_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    # never two texts on one channel for one offer (R20)
    op.create_index("uq_outbox_hold_channel", "outbox", ["hold_id", "channel"], unique=True)
    # the sweep's due rows: only those still to send
    op.create_index("ix_outbox_pending", "outbox", ["next_attempt_at"],
                    sqlite_where=PENDING, postgresql_where=PENDING)
    # Twilio's delivery callback names the message by its SID
    op.create_index("ix_outbox_provider_id", "outbox", ["provider_id"])
    # the desk's poll: when the room's texts last changed
    op.create_index("ix_outbox_room_updated", "outbox", ["room_id", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_outbox_room_updated", "outbox")
    op.drop_index("ix_outbox_provider_id", "outbox")
    op.drop_index("ix_outbox_pending", "outbox")
    op.drop_index("uq_outbox_hold_channel", "outbox")
    op.drop_table("outbox")
