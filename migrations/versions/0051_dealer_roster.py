"""the dealers' roster: shifts checked in and out, downs and breaks as spells, the coordinator

Revision ID: 0051
Revises: 0050
Create Date: 2026-12-03 12:30:00

Issue 42 (R62-R64; docs/dealers.md):

- ``dealer_shifts``: a dealer checked in (R62), and out once they leave. One open shift a dealer.
- ``dealer_spells``: what a checked-in dealer is doing, a row a spell: a down at a table (R63) or
  a break (R64), from its start to its deadline (``ends_at``: the push, or the break's end),
  ended when it is. One open spell a dealer, so a dealer is exactly one of dealing, on break,
  waiting (an open shift and no open spell) or out (no open shift); one open down a table.
  Triggers keep spells inside open shifts: no spell starts on a shift checked out, and no shift
  is checked out while one of its spells runs.
- ``dealer_overrides``: the coordinator's choice of the next dealer at a table (R64, audited
  with its reason, R60), pending until that table's next push takes it or it is dropped.
- ``hands.spell_id``: the down a hand was dealt in (R63: the down card's hands).
- The room's policies ``dealer_rotation`` (the room runs its roster here; off, hands are
  recorded with no down as before), ``down_minutes``, ``downs_before_break``,
  ``dealer_break_minutes``, ``start_at`` (R65) and ``toke_pool`` (R66).
- The role ``coordinator`` (R61, R62).
- ``sweep_heartbeats.pushes``: the dealers' spells a sweep started (R64).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime
from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0051"
down_revision: str | None = "0050"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROLES_BEFORE = "role IN ('admin', 'supervisor', 'cashier', 'dealer')"
ROLES_AFTER = "role IN ('admin', 'supervisor', 'cashier', 'dealer', 'coordinator')"
ROOMS = {
    "dealer_rotation": "BOOLEAN DEFAULT false NOT NULL",
    "down_minutes": "INTEGER DEFAULT 30 NOT NULL CONSTRAINT ck_rooms_down_minutes "
                    "CHECK (down_minutes BETWEEN 10 AND 120)",
    "downs_before_break": "INTEGER DEFAULT 2 NOT NULL CONSTRAINT ck_rooms_downs_before_break "
                          "CHECK (downs_before_break BETWEEN 1 AND 8)",
    "dealer_break_minutes": "INTEGER DEFAULT 30 NOT NULL CONSTRAINT ck_rooms_dealer_break_minutes "
                            "CHECK (dealer_break_minutes BETWEEN 5 AND 120)",
    "start_at": "INTEGER DEFAULT 6 NOT NULL CONSTRAINT ck_rooms_start_at CHECK (start_at BETWEEN 2 AND 10)",
    "toke_pool": "VARCHAR(10) DEFAULT 'pooled' NOT NULL CONSTRAINT ck_rooms_toke_pool "
                 "CHECK (toke_pool IN ('pooled', 'individual'))",
}
HANDS = {"spell_id": "INTEGER REFERENCES dealer_spells (id)"}
BEATS = {"pushes": "INTEGER DEFAULT 0 NOT NULL CONSTRAINT ck_sweep_heartbeats_pushes CHECK (pushes >= 0)"}
OPEN_SHIFT = sa.text("checked_out_at IS NULL")
OPEN_SPELL = sa.text("ended_at IS NULL")
OPEN_DOWN = sa.text("ended_at IS NULL AND kind = 'down'")
PENDING = sa.text("used_at IS NULL AND dropped_at IS NULL")
# R62: a spell belongs to an open shift (the services end a shift's spell before checking it out)
_NO_SPELL_OFF_SHIFT = "a spell of a dealer starts only on a shift checked in and not out (R62)"
_NO_OUT_WHILE_SPELL = "a dealer is checked out only once their down or break has ended (R62)"


def upgrade() -> None:
    op.create_table(
        "dealer_shifts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("dealer_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("checked_in_at", UTCDateTime, nullable=False),
        sa.Column("checked_out_at", UTCDateTime),
        sa.CheckConstraint("checked_out_at IS NULL OR checked_out_at >= checked_in_at",
                           name="ck_dealer_shifts_out_after_in"),
    )
    op.create_index("uq_dealer_shifts_open", "dealer_shifts", ["dealer_id"], unique=True,
                    sqlite_where=OPEN_SHIFT, postgresql_where=OPEN_SHIFT)
    op.create_index("ix_dealer_shifts_room_open", "dealer_shifts", ["room_id", "checked_out_at"])
    op.create_table(
        "dealer_spells",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("shift_id", sa.Integer, sa.ForeignKey("dealer_shifts.id"), nullable=False),
        sa.Column("dealer_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("started_at", UTCDateTime, nullable=False),
        sa.Column("ends_at", UTCDateTime, nullable=False),
        sa.Column("ended_at", UTCDateTime),
        sa.Column("end_reason", sa.String(12)),
        sa.CheckConstraint("kind IN ('down', 'break')", name="ck_dealer_spells_kind"),
        sa.CheckConstraint("(kind = 'down') = (table_id IS NOT NULL)", name="ck_dealer_spells_table"),
        sa.CheckConstraint("ends_at > started_at", name="ck_dealer_spells_ends_after_start"),
        sa.CheckConstraint("ended_at IS NULL OR ended_at >= started_at", name="ck_dealer_spells_ended"),
        sa.CheckConstraint("(ended_at IS NULL) = (end_reason IS NULL)", name="ck_dealer_spells_reason"),
        sa.CheckConstraint("end_reason IS NULL OR end_reason IN ('pushed', 'break_over', "
                           "'table_closed', 'checked_out', 'moved')", name="ck_dealer_spells_end_reason"),
    )
    op.create_index("uq_dealer_spells_dealer_open", "dealer_spells", ["dealer_id"], unique=True,
                    sqlite_where=OPEN_SPELL, postgresql_where=OPEN_SPELL)
    op.create_index("uq_dealer_spells_table_open", "dealer_spells", ["table_id"], unique=True,
                    sqlite_where=OPEN_DOWN, postgresql_where=OPEN_DOWN)
    op.create_index("ix_dealer_spells_room_open", "dealer_spells", ["room_id", "ended_at", "ends_at"])
    op.create_index("ix_dealer_spells_table", "dealer_spells", ["table_id", "started_at"])
    op.create_table(
        "dealer_overrides",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("dealer_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("made_by_id", sa.Integer, sa.ForeignKey("staff.id"), nullable=False),
        sa.Column("made_at", UTCDateTime, nullable=False),
        sa.Column("used_at", UTCDateTime),
        sa.Column("dropped_at", UTCDateTime),
        sa.CheckConstraint("length(trim(reason)) > 0", name="ck_dealer_overrides_reason"),
        sa.CheckConstraint("used_at IS NULL OR dropped_at IS NULL", name="ck_dealer_overrides_settled"),
    )
    op.create_index("uq_dealer_overrides_table_pending", "dealer_overrides", ["table_id"], unique=True,
                    sqlite_where=PENDING, postgresql_where=PENDING)
    op.create_index("uq_dealer_overrides_dealer_pending", "dealer_overrides", ["dealer_id"], unique=True,
                    sqlite_where=PENDING, postgresql_where=PENDING)
    add_checked_columns("rooms", ROOMS)
    add_checked_columns("hands", HANDS)
    op.create_index("ix_hands_spell_id", "hands", ["spell_id"])  # a down card's hands (R63)
    add_checked_columns("sweep_heartbeats", BEATS)
    replace_check("staff_roles", "ck_staff_roles_role", ROLES_BEFORE, ROLES_AFTER)
    _create_triggers()


def downgrade() -> None:
    _drop_triggers()
    op.execute("DELETE FROM staff_roles WHERE role = 'coordinator'")
    replace_check("staff_roles", "ck_staff_roles_role", ROLES_AFTER, ROLES_BEFORE)
    drop_columns("sweep_heartbeats", BEATS)
    op.drop_index("ix_hands_spell_id", table_name="hands")
    drop_columns("hands", HANDS)
    drop_columns("rooms", ROOMS)
    op.drop_table("dealer_overrides")
    op.drop_table("dealer_spells")
    op.drop_table("dealer_shifts")


def _create_triggers() -> None:
    if op.get_context().dialect.name != "postgresql":
        op.execute("CREATE TRIGGER dealer_spells_on_shift BEFORE INSERT ON dealer_spells FOR EACH ROW "
                   "WHEN (SELECT checked_out_at FROM dealer_shifts WHERE id = NEW.shift_id) IS NOT NULL "
                   f"BEGIN SELECT RAISE(ABORT, '{_NO_SPELL_OFF_SHIFT}'); END")
        op.execute("CREATE TRIGGER dealer_shifts_out BEFORE UPDATE OF checked_out_at ON dealer_shifts "
                   "FOR EACH ROW WHEN NEW.checked_out_at IS NOT NULL AND EXISTS (SELECT 1 FROM "
                   "dealer_spells WHERE shift_id = NEW.id AND ended_at IS NULL) "
                   f"BEGIN SELECT RAISE(ABORT, '{_NO_OUT_WHILE_SPELL}'); END")
        return
    op.execute("CREATE FUNCTION dealer_spells_on_shift() RETURNS trigger AS $$ BEGIN "
               "IF (SELECT checked_out_at FROM dealer_shifts WHERE id = NEW.shift_id) IS NOT NULL THEN "
               f"RAISE EXCEPTION '{_NO_SPELL_OFF_SHIFT}' USING ERRCODE = 'check_violation'; END IF; "
               "RETURN NEW; END $$ LANGUAGE plpgsql")
    op.execute("CREATE TRIGGER dealer_spells_on_shift BEFORE INSERT ON dealer_spells FOR EACH ROW "
               "EXECUTE FUNCTION dealer_spells_on_shift()")
    op.execute("CREATE FUNCTION dealer_shifts_out() RETURNS trigger AS $$ BEGIN "
               "IF NEW.checked_out_at IS NOT NULL AND EXISTS (SELECT 1 FROM dealer_spells "
               "WHERE shift_id = NEW.id AND ended_at IS NULL) THEN "
               f"RAISE EXCEPTION '{_NO_OUT_WHILE_SPELL}' USING ERRCODE = 'check_violation'; END IF; "
               "RETURN NEW; END $$ LANGUAGE plpgsql")
    op.execute("CREATE TRIGGER dealer_shifts_out BEFORE UPDATE OF checked_out_at ON dealer_shifts "
               "FOR EACH ROW EXECUTE FUNCTION dealer_shifts_out()")


def _drop_triggers() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for trigger, table in (("dealer_spells_on_shift", "dealer_spells"), ("dealer_shifts_out", "dealer_shifts")):
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}" + (f" ON {table}" if postgres else ""))
        if postgres:
            op.execute(f"DROP FUNCTION IF EXISTS {trigger}()")
