"""seat changes: a seat-change list per table, its own claim timer, moves waiting for a hand's end

Revision ID: 0032
Revises: 0033
Create Date: 2026-11-25 12:00:00

R14/R36: a seated player asks for a seat change at their table (``seat_change_requests``, one live
request per seat); when a seat of that table opens the requesters are offered it first, each
offer naming its request (``seat_holds.seat_change_id``) with the room's own short timer
(``rooms.seat_change_claim_minutes``); a seat change claimed during a hand holds the seat until
the dealer records the hand (``seat_holds.reserved_at``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0032"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS = {
    "seat_change_claim_minutes": "INTEGER DEFAULT 2 NOT NULL CONSTRAINT "
                                 "ck_rooms_seat_change_claim_minutes CHECK "
                                 "(seat_change_claim_minutes BETWEEN 1 AND 30)",
}

def _holds() -> dict[str, str]:
    ts = "DATETIME" if op.get_context().dialect.name == "sqlite" else "TIMESTAMP WITHOUT TIME ZONE"
    return {
        "seat_change_id": "INTEGER CONSTRAINT fk_seat_holds_seat_change_id_seat_change_requests "
                          "REFERENCES seat_change_requests (id)",
        "reserved_at": ts,
    }

LIVE = sa.text("ended_at IS NULL")
LIVE_RESERVED = sa.text("ended_at IS NULL AND reserved_at IS NOT NULL")
OUTCOMES = "outcome IN ('moved', 'declined', 'expired', 'withdrawn', 'seat_ended')"


def upgrade() -> None:
    op.create_table(
        "seat_change_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("asked_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.Column("outcome", sa.String(length=10), nullable=True),
        sa.CheckConstraint(OUTCOMES, name=op.f("ck_seat_change_requests_outcome")),
        sa.CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)",
                           name=op.f("ck_seat_change_requests_ended")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"],
                                name=op.f("fk_seat_change_requests_room_id_rooms")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"],
                                name=op.f("fk_seat_change_requests_table_id_tables")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_seat_change_requests_hold_id_seat_holds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_seat_change_requests_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_change_requests")),
    )
    op.create_index("uq_seat_change_requests_live_hold", "seat_change_requests", ["hold_id"],
                    unique=True, sqlite_where=LIVE, postgresql_where=LIVE)
    op.create_index("ix_seat_change_requests_live_table", "seat_change_requests",
                    ["table_id", "asked_at"], sqlite_where=LIVE, postgresql_where=LIVE)
    add_checked_columns("rooms", ROOMS)
    add_checked_columns("seat_holds", _holds())
    op.create_index("ix_seat_holds_live_reserved", "seat_holds", ["table_id"],
                    sqlite_where=LIVE_RESERVED, postgresql_where=LIVE_RESERVED)


def downgrade() -> None:
    op.drop_index("ix_seat_holds_live_reserved", "seat_holds")
    # the old schema has no seat-change offers: they go with their requests
    op.execute("DELETE FROM seat_holds WHERE seat_change_id IS NOT NULL")
    drop_columns("seat_holds", _holds())
    drop_columns("rooms", ROOMS)
    op.drop_index("ix_seat_change_requests_live_table", "seat_change_requests")
    op.drop_index("uq_seat_change_requests_live_hold", "seat_change_requests")
    op.drop_table("seat_change_requests")
