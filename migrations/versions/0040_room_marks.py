"""each room's audit mark, moved by the database with every audit row the room commits

Revision ID: 0040
Revises: 0039
Create Date: 2026-11-28 04:00:00

Issue 21: every poll of a live screen reads the room's change mark (``roomops.web.live``). It
read the room's latest audit id and counted the room's rows among the last thousand ids (on
PostgreSQL a lower id can commit after a higher one); on PostgreSQL, once the audit trail passed a
million rows of several rooms, the planner walked the primary key back from the newest row to the
room's latest (85 ms a poll for a room whose last change is far back in the trail,
docs/benchmarks.md). ``room_marks`` holds one number a room instead, which a trigger moves in the
writing transaction by the number of audit rows it adds: a poll reads one row by its key, as
cheap at a million rows as at ten thousand, and the mark moves with the commit, whatever order
the ids were handed out in. Writers take the room's lock first (docs/architecture.md), and the
audit rows are written at the commit, so the row's lock adds no wait.

PostgreSQL: one trigger a statement (the COPY of a sweep's thousand rows moves the mark once),
reading the statement's transition table. SQLite: one trigger a row. A new room gets its row from
a trigger on ``rooms``. A later migration that rebuilds ``rooms`` or ``audit_events`` on SQLite
must make these triggers again (``create_marks``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0040"
down_revision: str | None = "0039"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_MOVE = ("UPDATE room_marks SET mark = mark + n.rows FROM (SELECT room_id, count(*) AS rows "
         "FROM new_rows GROUP BY room_id) AS n WHERE room_marks.room_id = n.room_id")


def upgrade() -> None:
    op.create_table(
        "room_marks",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("mark", sa.BigInteger(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_room_marks_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", name=op.f("pk_room_marks")),
    )
    op.execute("INSERT INTO room_marks (room_id, mark) SELECT rooms.id, (SELECT count(*) "
               "FROM audit_events WHERE audit_events.room_id = rooms.id) FROM rooms")
    create_marks()


def downgrade() -> None:
    drop_marks()
    op.drop_table("room_marks")


def create_marks() -> None:
    if op.get_context().dialect.name != "postgresql":
        op.execute("CREATE TRIGGER rooms_room_mark AFTER INSERT ON rooms FOR EACH ROW "
                   "BEGIN INSERT INTO room_marks (room_id) VALUES (NEW.id); END")
        op.execute("CREATE TRIGGER audit_events_room_mark AFTER INSERT ON audit_events FOR EACH ROW "
                   "BEGIN UPDATE room_marks SET mark = mark + 1 WHERE room_id = NEW.room_id; END")
        return
    op.execute("CREATE FUNCTION rooms_room_mark() RETURNS trigger AS $$ BEGIN "
               "INSERT INTO room_marks (room_id) SELECT id FROM new_rows; RETURN NULL; END $$ "
               "LANGUAGE plpgsql")
    op.execute(f"CREATE FUNCTION audit_events_room_mark() RETURNS trigger AS $$ BEGIN {_MOVE}; "
               "RETURN NULL; END $$ LANGUAGE plpgsql")
    for table in ("rooms", "audit_events"):
        op.execute(f"CREATE TRIGGER {table}_room_mark AFTER INSERT ON {table} REFERENCING NEW TABLE "
                   f"AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION {table}_room_mark()")


def drop_marks() -> None:
    postgres = op.get_context().dialect.name == "postgresql"
    for table in ("rooms", "audit_events"):
        op.execute(f"DROP TRIGGER IF EXISTS {table}_room_mark" + (f" ON {table}" if postgres else ""))
        if postgres:
            op.execute(f"DROP FUNCTION IF EXISTS {table}_room_mark()")
