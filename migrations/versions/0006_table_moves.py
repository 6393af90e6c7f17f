"""table moves: must-move tables, moved seats, must-move offers

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 07:00:00

R17-R19: a table may feed a main table of its game (``tables.feeds_table_id``, never itself); a
seat taken by a move records the seat it came from (``seat_holds.from_hold_id``) and whether the
player owes no blind to come in (``no_blind_owed``, R19/R36); an offer of a must-move seat has no
list entry but the seat the player is due to move from; and the room's ``must_move_refusal``.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ROOMS = {
    "must_move_refusal": "VARCHAR(8) DEFAULT 'forced' NOT NULL CONSTRAINT ck_rooms_must_move_refusal "
                         "CHECK (must_move_refusal IN ('forced', 'skip'))",
}
TABLES = {
    "feeds_table_id": "INTEGER CONSTRAINT fk_tables_feeds_table_id_tables REFERENCES tables (id) "
                      "CONSTRAINT ck_tables_feeds_other CHECK (feeds_table_id <> id)",
}
HOLDS = {
    "from_hold_id": "INTEGER CONSTRAINT fk_seat_holds_from_hold_id_seat_holds "
                    "REFERENCES seat_holds (id) CONSTRAINT ck_seat_holds_from_other "
                    "CHECK (from_hold_id <> id)",
    "no_blind_owed": "BOOLEAN DEFAULT FALSE NOT NULL",
}
OFFER_OLD = "kind <> 'offer' OR (deadline IS NOT NULL AND entry_id IS NOT NULL)"
OFFER_NEW = ("kind <> 'offer' OR (deadline IS NOT NULL AND "
             "(entry_id IS NOT NULL OR from_hold_id IS NOT NULL))")
LIVE_MOVE_OFFER = sa.text("ended_at IS NULL AND kind = 'offer' AND from_hold_id IS NOT NULL")


def upgrade() -> None:
    add_checked_columns("rooms", ROOMS)
    add_checked_columns("tables", TABLES)
    add_checked_columns("seat_holds", HOLDS)
    replace_check("seat_holds", "ck_seat_holds_offer_fields", OFFER_OLD, OFFER_NEW)
    # R17: one live must-move offer per seat moved from
    op.create_index("uq_seat_holds_live_move_offer", "seat_holds", ["from_hold_id"], unique=True,
                    sqlite_where=LIVE_MOVE_OFFER, postgresql_where=LIVE_MOVE_OFFER)


def downgrade() -> None:
    op.drop_index("uq_seat_holds_live_move_offer", "seat_holds")
    # the old schema cannot hold a must-move offer (it has no list entry)
    op.execute("DELETE FROM seat_holds WHERE kind = 'offer' AND entry_id IS NULL")
    replace_check("seat_holds", "ck_seat_holds_offer_fields", OFFER_NEW, OFFER_OLD)
    drop_columns("seat_holds", HOLDS)
    drop_columns("tables", TABLES)
    drop_columns("rooms", ROOMS)
