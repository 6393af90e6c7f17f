"""each game's desk mark, moved by the database on every change the desk shows of the game and the
board does not

Revision ID: 0043
Revises: 0042
Create Date: 2026-11-29 06:40:00

Issue 21: after every floor change (a hand recorded at any table is one) each desk's live part
was drawn from the whole room read again, every hand of the night. The desk now keeps each
game's seats and lists as last read and reads again only the games whose marks moved
(``roomops.seating.rows.KeptRows``). The board's mark (migration 0020) moves on most of what the
desk shows; ``desk_marks`` moves on the rest: a seated player's missed-blind buttons and debts
(``seat_blinds``, R35/R36: every hand), how an offer's text went (``outbox``, R20), and the name
of a player playing over a seat (R29). The desk reads a game again when either mark moved.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.migration_ops import create_game_marks, drop_game_marks

revision: str = "0043"
down_revision: str | None = "0042"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The games of a set of written rows (``roomops.migration_ops.create_game_marks``): all three
# reach the game through a seat hold's table.
_VIA_HOLD = "SELECT game_id FROM tables WHERE id IN (SELECT table_id FROM seat_holds WHERE id IN ({0}))"
GAMES_OF = {
    "seat_blinds": ("hold_id", _VIA_HOLD),
    "outbox": ("hold_id", _VIA_HOLD),
    "players": ("id", _VIA_HOLD.format(
        "SELECT hold_id FROM playovers WHERE ended_at IS NULL AND player_id IN ({0})")),
}
# A text is written in its offer's transaction, whose new seat hold moves the board mark; what
# changes afterwards is its state (the sender, the provider's reports). A sweep offering a
# thousand seats writes a thousand texts, one statement each: a trigger on INSERT cost it ~10%.
# A new player plays over no seat yet; players and texts are never deleted.
EVENTS = {"players": ("UPDATE",), "outbox": ("UPDATE",)}


def upgrade() -> None:
    op.create_table(
        "desk_marks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("mark", sa.BigInteger(), server_default="0", nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_desk_marks_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_desk_marks")),
    )
    op.execute("INSERT INTO desk_marks (game_id) SELECT id FROM games")
    create_game_marks("desk", GAMES_OF, EVENTS)


def downgrade() -> None:
    drop_game_marks("desk", GAMES_OF, EVENTS)
    op.drop_table("desk_marks")
