"""shifts of the gaming day

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-23 09:40:00

R54: the room's shift policy (``rooms.shift_starts``, NULL: one shift, the gaming day); the shift
of each ledger row and count (1 for the rows already there: those rooms had one shift); a close per
room, day and shift, ``closes_day`` on the one that closes the gaming day (at most one per day;
every close before this revision closed its whole day).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import add_checked_columns, append_only, drop_append_only, drop_columns

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS = {"shift_starts": "VARCHAR(71) CONSTRAINT ck_rooms_shift_starts "
                         "CHECK (shift_starts IS NULL OR length(shift_starts) BETWEEN 11 AND 71)"}


def _shift_no(table: str) -> dict[str, str]:
    return {"shift_no": f"INTEGER DEFAULT 1 NOT NULL CONSTRAINT ck_{table}_shift_no "
                        "CHECK (shift_no >= 1)"}


CLOSES = {**_shift_no("day_closes"), "closes_day": "BOOLEAN DEFAULT true NOT NULL"}
OLD_UNIQUE = ("uq_day_closes_room_day", ["room_id", "gaming_day"])
NEW_UNIQUE = ("uq_day_closes_room_day_shift", ["room_id", "gaming_day", "shift_no"])


def _day_closes(shifts: bool) -> sa.Table:
    """``day_closes`` as SQLite rebuilds it (the unique constraint cannot be altered there)."""
    name, columns = NEW_UNIQUE if shifts else OLD_UNIQUE
    extra = [sa.Column("shift_no", sa.Integer(), server_default=sa.text("1"), nullable=False),
             sa.Column("closes_day", sa.Boolean(), server_default=sa.true(), nullable=False),
             sa.CheckConstraint("shift_no >= 1", name="ck_day_closes_shift_no")] if shifts else []
    return sa.Table(
        "day_closes", sa.MetaData(),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("closed_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("closed_by_id", sa.Integer(), nullable=False),
        sa.Column("second_staff_id", sa.Integer(), nullable=False),
        sa.Column("entries", sa.Integer(), nullable=False),
        sa.Column("expected_total", sa.Integer(), nullable=False),
        sa.Column("counted_total", sa.Integer(), nullable=False),
        sa.Column("last_entry_id", sa.Integer(), nullable=True),
        *extra,
        sa.CheckConstraint("closed_by_id <> second_staff_id", name="ck_day_closes_two_staff"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_day_closes_room_id_rooms"),
        sa.ForeignKeyConstraint(["closed_by_id"], ["staff.id"],
                                name="fk_day_closes_closed_by_id_staff"),
        sa.ForeignKeyConstraint(["second_staff_id"], ["staff.id"],
                                name="fk_day_closes_second_staff_id_staff"),
        sa.PrimaryKeyConstraint("id", name="pk_day_closes"),
        sa.UniqueConstraint(*columns, name=name),
    )


def _swap_unique(shifts: bool) -> None:
    """One close per day becomes one per day and shift (or back). SQLite rebuilds the table (no
    table points at ``day_closes``), which drops its append-only triggers: they are made again."""
    old, new = (OLD_UNIQUE, NEW_UNIQUE) if shifts else (NEW_UNIQUE, OLD_UNIQUE)
    if op.get_context().dialect.name == "postgresql":
        op.drop_constraint(old[0], "day_closes", type_="unique")
        op.create_unique_constraint(new[0], "day_closes", new[1])
        return
    drop_append_only("day_closes")
    with op.batch_alter_table("day_closes", copy_from=_day_closes(shifts), recreate="always"):
        pass
    append_only("day_closes")


def upgrade() -> None:
    add_checked_columns("rooms", ROOMS)
    add_checked_columns("ledger_entries", _shift_no("ledger_entries"))
    add_checked_columns("day_counts", _shift_no("day_counts"))
    add_checked_columns("day_closes", CLOSES)
    _swap_unique(True)
    op.create_index("uq_day_closes_room_day_closed", "day_closes", ["room_id", "gaming_day"],
                    unique=True, sqlite_where=sa.text("closes_day"),
                    postgresql_where=sa.text("closes_day"))


def downgrade() -> None:
    op.drop_index("uq_day_closes_room_day_closed", table_name="day_closes")
    _swap_unique(False)
    if op.get_context().dialect.name == "postgresql":  # SQLite's rebuild left the columns out
        drop_columns("day_closes", CLOSES)
    drop_columns("day_counts", _shift_no("day_counts"))
    drop_columns("ledger_entries", _shift_no("ledger_entries"))
    drop_columns("rooms", ROOMS)
