"""absence: breaks and away

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 09:00:00

Breaks (R23, R24) and away (R25, R26): the ``absences`` table, one live absence per seat hold,
the live deadline indexed for the sweep, and the room policies with their defaults.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import roomops.db
from roomops.migration_ops import add_checked_columns, drop_columns

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = sa.text("ended_at IS NULL")
LIVE_DUE = sa.text("ended_at IS NULL AND deadline IS NOT NULL")


def _policy(name: str, default: int | None, check: str) -> str:
    kind = "INTEGER" if default is None else f"INTEGER DEFAULT {default} NOT NULL"
    return f"{kind} CONSTRAINT ck_rooms_{name} CHECK ({check})"


POLICIES = {
    "break_minutes": _policy("break_minutes", 60, "break_minutes BETWEEN 1 AND 240"),
    "break_after_play_minutes": _policy("break_after_play_minutes", 60,
                                        "break_after_play_minutes BETWEEN 0 AND 720"),
    "breaks_per_gaming_day": _policy("breaks_per_gaming_day", 1, "breaks_per_gaming_day BETWEEN 0 AND 20"),
    "max_breaks_per_table": _policy("max_breaks_per_table", 3, "max_breaks_per_table BETWEEN 0 AND 10"),
    "away_notify_minutes": _policy("away_notify_minutes", 30, "away_notify_minutes BETWEEN 1 AND 240"),
    "max_away_minutes": _policy("max_away_minutes", None,
                                "max_away_minutes IS NULL OR max_away_minutes BETWEEN 1 AND 480"),
    "max_missed_bb": _policy("max_missed_bb", None,
                             "max_missed_bb IS NULL OR max_missed_bb BETWEEN 1 AND 100"),
}


def upgrade() -> None:
    add_checked_columns("rooms", POLICIES)
    op.create_table(
        "absences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("hold_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("started_at", roomops.db.UTCDateTime(), nullable=False),
        sa.Column("deadline", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("gaming_day", sa.Date(), nullable=False),
        sa.Column("ended_at", roomops.db.UTCDateTime(), nullable=True),
        sa.Column("outcome", sa.String(length=10), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("stack", sa.Integer(), nullable=False),
        sa.CheckConstraint("kind IN ('break', 'away')", name=op.f("ck_absences_kind")),
        sa.CheckConstraint(
            "outcome IS NULL OR outcome IN ('returned', 'released', 'seat_ended')",
            name=op.f("ck_absences_outcome"),
        ),
        sa.CheckConstraint("(ended_at IS NULL) = (outcome IS NULL)", name=op.f("ck_absences_ended")),
        sa.CheckConstraint(
            "kind <> 'break' OR deadline IS NOT NULL", name=op.f("ck_absences_break_deadline")
        ),
        sa.CheckConstraint(
            "deadline IS NULL OR deadline > started_at", name=op.f("ck_absences_deadline_after_start")
        ),
        sa.CheckConstraint("stack >= 0", name=op.f("ck_absences_stack")),
        sa.ForeignKeyConstraint(["hold_id"], ["seat_holds.id"],
                                name=op.f("fk_absences_hold_id_seat_holds")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"],
                                name=op.f("fk_absences_player_id_players")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_absences_room_id_rooms")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_absences")),
    )
    with op.batch_alter_table("absences", schema=None) as batch_op:
        batch_op.create_index("uq_absences_live_hold", ["hold_id"], unique=True,
                              sqlite_where=LIVE, postgresql_where=LIVE)
        batch_op.create_index("ix_absences_live_deadline", ["deadline"],
                              sqlite_where=LIVE_DUE, postgresql_where=LIVE_DUE)
        batch_op.create_index("ix_absences_player_day", ["player_id", "gaming_day"])
        batch_op.create_index("ix_absences_hold_ended", ["hold_id", "ended_at"])


def downgrade() -> None:
    op.drop_table("absences")
    drop_columns("rooms", POLICIES)
