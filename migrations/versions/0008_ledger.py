"""ledger and chips in transit

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23 07:00:00

R52: ``ledger_entries``, append-only in the database (a mistake is a reversing row); R31:
``transit_slips`` numbered without gaps per room from ``slip_counters``; R32: the room's currency.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import add_checked_columns, append_only, drop_columns

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {
    "currency": "VARCHAR(3) DEFAULT 'GBP' NOT NULL CONSTRAINT ck_rooms_currency "
    "CHECK (length(currency) = 3 AND currency = upper(currency))",
}


def upgrade() -> None:
    add_checked_columns("rooms", COLUMNS)
    op.create_table(
        "slip_counters",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("last_number", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_slip_counters_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_slip_counters")),
    )
    op.create_table(
        "transit_slips",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("requested_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("requested_by_id", sa.Integer(), nullable=False),
        sa.Column("funds_confirmed_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("funds_confirmed_by_id", sa.Integer(), nullable=True),
        sa.Column("authorised_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("authorised_by_id", sa.Integer(), nullable=True),
        sa.Column("delivered_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("delivered_by_id", sa.Integer(), nullable=True),
        sa.Column("cancelled_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("cancelled_by_id", sa.Integer(), nullable=True),
        sa.Column("cancel_reason", sa.Text(), nullable=True),
        sa.Column("idempotency_key", sa.String(length=100), nullable=True),
        sa.Column("fingerprint", sa.String(length=64), nullable=True),
        sa.CheckConstraint(
            "(state = 'cancelled') = (cancelled_at IS NOT NULL AND length(coalesce(cancel_reason, '')) > 0)",
            name=op.f("ck_transit_slips_cancelled"),
        ),
        sa.CheckConstraint(
            "(state = 'delivered') = (delivered_at IS NOT NULL)", name=op.f("ck_transit_slips_delivered")
        ),
        sa.CheckConstraint(
            "authorised_at IS NULL OR method NOT IN ('cheque', 'credit') OR funds_confirmed_at IS NOT NULL",
            name=op.f("ck_transit_slips_facility_funds"),
        ),
        sa.CheckConstraint(
            "method IN ('cash', 'chips', 'card', 'cheque', 'credit')", name=op.f("ck_transit_slips_method")
        ),
        sa.CheckConstraint(
            "state IN ('requested', 'funds_confirmed', 'in_transit', 'delivered', 'cancelled')",
            name=op.f("ck_transit_slips_state"),
        ),
        sa.CheckConstraint(
            "state NOT IN ('in_transit', 'delivered') OR authorised_by_id IS NOT NULL",
            name=op.f("ck_transit_slips_authorised"),
        ),
        sa.CheckConstraint(
            "(idempotency_key IS NULL) = (fingerprint IS NULL)", name=op.f("ck_transit_slips_idempotency")
        ),
        sa.CheckConstraint("amount > 0", name=op.f("ck_transit_slips_amount")),
        sa.CheckConstraint(
            "delivered_by_id IS NULL OR delivered_by_id <> authorised_by_id",
            name=op.f("ck_transit_slips_four_eyes"),
        ),
        sa.CheckConstraint("number > 0", name=op.f("ck_transit_slips_number")),
        sa.ForeignKeyConstraint(
            ["authorised_by_id"], ["staff.id"], name=op.f("fk_transit_slips_authorised_by_id_staff")
        ),
        sa.ForeignKeyConstraint(
            ["cancelled_by_id"], ["staff.id"], name=op.f("fk_transit_slips_cancelled_by_id_staff")
        ),
        sa.ForeignKeyConstraint(
            ["delivered_by_id"], ["staff.id"], name=op.f("fk_transit_slips_delivered_by_id_staff")
        ),
        sa.ForeignKeyConstraint(
            ["funds_confirmed_by_id"], ["staff.id"], name=op.f("fk_transit_slips_funds_confirmed_by_id_staff")
        ),
        sa.ForeignKeyConstraint(
            ["hold_id"], ["seat_holds.id"], name=op.f("fk_transit_slips_hold_id_seat_holds")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_transit_slips_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["requested_by_id"], ["staff.id"], name=op.f("fk_transit_slips_requested_by_id_staff")
        ),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_transit_slips_room_id_rooms")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_transit_slips_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transit_slips")),
        sa.UniqueConstraint("room_id", "idempotency_key", name="uq_transit_slips_room_key"),
        sa.UniqueConstraint("room_id", "number", name="uq_transit_slips_room_number"),
    )
    with op.batch_alter_table("transit_slips", schema=None) as batch_op:
        batch_op.create_index("ix_transit_slips_room_state", ["room_id", "state"], unique=False)

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("method", sa.String(length=8), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("hold_id", sa.Integer(), nullable=True),
        sa.Column("slip_id", sa.Integer(), nullable=True),
        sa.Column("staff_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("reverses_id", sa.Integer(), nullable=True),
        sa.Column("idempotency_key", sa.String(length=100), nullable=True),
        sa.Column("fingerprint", sa.String(length=64), nullable=True),
        sa.CheckConstraint(
            "(kind = 'reversal') = (reverses_id IS NOT NULL)", name=op.f("ck_ledger_entries_reverses")
        ),
        sa.CheckConstraint(
            "(kind IN ('buy_in', 'add_on', 'transit') AND amount > 0) OR (kind IN ('cash_out', 'session_fee', 'rake') AND amount < 0) OR (kind = 'reversal' AND amount <> 0)",
            name=op.f("ck_ledger_entries_amount_sign"),
        ),
        sa.CheckConstraint(
            "kind <> 'reversal' OR length(coalesce(reason, '')) > 0",
            name=op.f("ck_ledger_entries_reversal_reason"),
        ),
        sa.CheckConstraint(
            "kind <> 'transit' OR slip_id IS NOT NULL", name=op.f("ck_ledger_entries_transit_slip")
        ),
        sa.CheckConstraint(
            "kind IN ('buy_in', 'add_on', 'transit', 'cash_out', 'session_fee', 'rake', 'reversal')",
            name=op.f("ck_ledger_entries_kind"),
        ),
        sa.CheckConstraint(
            "method IN ('cash', 'chips', 'card', 'cheque', 'credit')", name=op.f("ck_ledger_entries_method")
        ),
        sa.CheckConstraint(
            "(idempotency_key IS NULL) = (fingerprint IS NULL)", name=op.f("ck_ledger_entries_idempotency")
        ),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_ledger_entries_game_id_games")),
        sa.ForeignKeyConstraint(
            ["hold_id"], ["seat_holds.id"], name=op.f("fk_ledger_entries_hold_id_seat_holds")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_ledger_entries_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["reverses_id"], ["ledger_entries.id"], name=op.f("fk_ledger_entries_reverses_id_ledger_entries")
        ),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_ledger_entries_room_id_rooms")),
        sa.ForeignKeyConstraint(
            ["slip_id"], ["transit_slips.id"], name=op.f("fk_ledger_entries_slip_id_transit_slips")
        ),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"], name=op.f("fk_ledger_entries_staff_id_staff")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_ledger_entries_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entries")),
        sa.UniqueConstraint("reverses_id", name=op.f("uq_ledger_entries_reverses_id")),
        sa.UniqueConstraint("room_id", "idempotency_key", name="uq_ledger_entries_room_key"),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_entries_hold", ["hold_id"], unique=False)
        batch_op.create_index("ix_ledger_entries_room_day", ["room_id", "gaming_day"], unique=False)
    append_only("ledger_entries")


def downgrade() -> None:
    # Dropping the table drops its append-only triggers; the shared PostgreSQL trigger function
    # stays, audit_events still uses it.
    op.drop_table("ledger_entries")
    op.drop_table("transit_slips")
    op.drop_table("slip_counters")
    drop_columns("rooms", COLUMNS)
