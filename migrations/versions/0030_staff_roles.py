"""staff roles per room: one person, several roles, several rooms

Revision ID: 0030
Revises: 0029
Create Date: 2026-11-25 09:00:00

R61: a staff member's roles are rows of ``staff_roles`` (staff, room, role), so one person may
work in several rooms of a deployment and hold several roles in one (an admin who also
supervises). ``staff.room_id`` and ``staff.role`` move there; an API token is issued for one of
the person's rooms (``staff.api_token_room_id``, set exactly when a token is). SQLite cannot
drop a column named by a table CHECK, a foreign key or an index, so those clauses leave the
stored definition first (``roomops.migration_ops.drop_clause``); nothing is rebuilt, as tables
point at ``staff``.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_clause, drop_columns

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROLES = "role IN ('admin', 'supervisor', 'cashier', 'dealer')"
TOKEN_ROOM = {
    "api_token_room_id": "INTEGER REFERENCES rooms (id) CONSTRAINT ck_staff_api_token_room "
                         "CHECK ((api_token_room_id IS NULL) = (api_token_hash IS NULL))",
}
# what staff held before: its room and role, as 0029 left them (the downgrade puts them back)
OLD = {
    "room_id": "INTEGER REFERENCES rooms (id)",
    "role": f"VARCHAR(12) CONSTRAINT ck_staff_role CHECK ({ROLES})",
}


def upgrade() -> None:
    op.create_table(
        "staff_roles",
        sa.Column("staff_id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("granted_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(ROLES, name=op.f("ck_staff_roles_role")),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"], name=op.f("fk_staff_roles_staff_id_staff")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_staff_roles_room_id_rooms")),
        sa.PrimaryKeyConstraint("staff_id", "room_id", "role", name=op.f("pk_staff_roles")),
    )
    op.create_index(op.f("ix_staff_roles_room_id"), "staff_roles", ["room_id"])
    op.execute("INSERT INTO staff_roles (staff_id, room_id, role, granted_at) "
               "SELECT id, room_id, role, created_at FROM staff")
    add_checked_columns("staff", TOKEN_ROOM)
    op.execute("UPDATE staff SET api_token_room_id = room_id WHERE api_token_hash IS NOT NULL")
    op.drop_index("ix_staff_room_id", table_name="staff")
    drop_clause("staff", "ck_staff_role", f"CHECK ({ROLES})")
    drop_clause("staff", "fk_staff_room_id_rooms", "FOREIGN KEY(room_id) REFERENCES rooms (id)")
    op.drop_column("staff", "role")
    op.drop_column("staff", "room_id")


def downgrade() -> None:
    """Each person keeps one room and one role: the first room they were given, their highest
    role there."""
    add_checked_columns("staff", OLD)
    first_room = ("(SELECT min(room_id) FROM staff_roles r WHERE r.staff_id = staff.id)")
    op.execute(f"UPDATE staff SET room_id = {first_room}")
    op.execute("UPDATE staff SET role = (SELECT role FROM staff_roles r WHERE r.staff_id = staff.id "
               "AND r.room_id = staff.room_id ORDER BY CASE role WHEN 'admin' THEN 0 "
               "WHEN 'supervisor' THEN 1 WHEN 'cashier' THEN 2 ELSE 3 END LIMIT 1)")
    op.create_index("ix_staff_room_id", "staff", ["room_id"])
    drop_columns("staff", TOKEN_ROOM)
    op.drop_index(op.f("ix_staff_roles_room_id"), table_name="staff_roles")
    op.drop_table("staff_roles")
