"""each game's board mark, moved by the database on every change the board shows of the game

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-24 14:40:00

``board_marks`` holds one number a game, which moves on every change to what the public board
draws of the game beyond its own row: its open tables and their seats (R5), calls and seated
players (R20), breaks and away (R23-R25), playovers (R29), chips playing behind (R31), its list
entries (R10-R13) and the names on them (R61). Triggers move it inside the writing transaction,
whoever writes (a service, the sweep, a hand-made fix), so the board re-reads only the games whose
mark moved (docs/board.md). A mark only grows, and moves with the commit of its change.

A table of its own, not a column of ``games``: every move leaves a row version behind until it is
vacuumed, and the foreign keys that point at ``games`` (checked on every list entry and table
written) would read past them. PostgreSQL: one trigger a statement and event, reading the
statement's transition tables, and a mark moves once a transaction (a sweep's many statements on
a game leave one version, not one each). SQLite: one trigger a row and event. A later migration
that rebuilds one of these tables on SQLite must make its triggers again (``create_marks``).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import create_game_marks, drop_game_marks

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The games a set of written rows of each table belongs to; ``{0}``: the values of the named
# column of those rows (``roomops.migration_ops.create_game_marks`` fills it in for each
# database and event).
_VIA_TABLE = "SELECT game_id FROM tables WHERE id IN ({0})"
_VIA_HOLD = _VIA_TABLE.format("SELECT table_id FROM seat_holds WHERE id IN ({0})")
GAMES_OF = {
    "list_entries": ("game_id", "{0}"),
    "tables": ("game_id", "{0}"),
    "seat_holds": ("table_id", _VIA_TABLE),
    "transit_slips": ("table_id", _VIA_TABLE),
    "absences": ("hold_id", _VIA_HOLD),
    "playovers": ("hold_id", _VIA_HOLD),
    # a player's name is on the lists they wait on and on the seats called for them (R61)
    "players": ("id", "SELECT game_id FROM list_entries WHERE status = 'active' AND player_id IN ({0}) "
                      "UNION " + _VIA_TABLE.format(
                          "SELECT table_id FROM seat_holds WHERE ended_at IS NULL AND player_id IN ({0})")),
}
EVENTS = {"players": ("UPDATE",)}  # a new player is on no list yet; players are never deleted


def upgrade() -> None:
    op.create_table(
        "board_marks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("mark", sa.BigInteger(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_board_marks_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_board_marks")),
    )
    op.execute("INSERT INTO board_marks (game_id) SELECT id FROM games")
    create_marks()


def downgrade() -> None:
    drop_marks()
    op.drop_table("board_marks")


def create_marks() -> None:
    """The triggers that give each new game its mark and move the marks."""
    create_game_marks("board", GAMES_OF, EVENTS)


def drop_marks() -> None:
    drop_game_marks("board", GAMES_OF, EVENTS)
