"""failed log-ins and wrong approvals per (username, address), and the addresses each staff
member is known at

Revision ID: 0049
Revises: 0047
Create Date: 2026-12-02 03:30:00

R61, R28 (issue 40): the throttle counted failures per typed username from any address, so ten
wrong passwords from anywhere locked the right one out for 15 minutes. ``login_failures`` counts
them per (kind, typed username, address), on the app's clock, so a lockout holds one address,
an admin can see and clear it, and the counts survive a restart; ``known_addresses`` are those an
account logged in or approved from with its password, where failures slow it down and never lock
it out (docs/security.md, "Logins"). New tables: the same statements on SQLite and PostgreSQL.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0049"
down_revision: str | None = "0047"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("username", sa.String(100), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("first_at", sa.DateTime(), nullable=False),
        sa.Column("last_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("kind IN ('login', 'approval')", name=op.f("ck_login_failures_kind")),
        sa.CheckConstraint("failures >= 1", name=op.f("ck_login_failures_failures")),
        sa.CheckConstraint("last_at >= first_at", name=op.f("ck_login_failures_times")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failures")),
        sa.UniqueConstraint("kind", "username", "address", name="uq_login_failures_key"),
    )
    op.create_index("ix_login_failures_address", "login_failures",
                    ["kind", "address", "last_at"])
    op.create_table(
        "known_addresses",
        sa.Column("staff_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("last_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["staff_id"], ["staff.id"], ondelete="CASCADE",
                                name=op.f("fk_known_addresses_staff_id_staff")),
        sa.PrimaryKeyConstraint("staff_id", "address", name=op.f("pk_known_addresses")),
    )


def downgrade() -> None:
    op.drop_table("known_addresses")
    op.drop_index("ix_login_failures_address", table_name="login_failures")
    op.drop_table("login_failures")
