"""jackpot schemes, their pools held in trust, and claims verified by two staff

Revision ID: 0057
Revises: 0056
Create Date: 2026-12-07 03:00:00

Issue 44 (R67-R70; docs/jackpots.md):

- ``jackpot_schemes``: a scheme's rules, fixed once posted; its end (who, when, where its pool
  went) is the one change made to a row. One running scheme of a name per room.
- ``jackpot_links``: the games and table names a scheme runs on; a game, and a table name, in one
  running scheme at most (R67).
- ``jackpot_rows``: the pool ledger (R69), append-only; the kinds' shapes are checked, and two
  triggers refuse a row that would take a pool below nothing and a second standing drop of a hand
  into one pool.
- ``jackpot_claims`` and ``jackpot_decisions``: a claim made at the table and its verification (or
  refusal) by two different staff, with the surveillance reference above the camera threshold
  (R70). Append-only; one decision a claim.
- ``jackpot_box_counts``: a shift's jackpot drop box counted by two staff against the drops
  recorded (R54), a variance explained. Append-only.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from roomops.db import UTCDateTime
from roomops.migration_ops import append_only, drop_append_only

revision: str = "0057"
down_revision: str | None = "0056"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RUNNING = sa.text("NOT ended")
LINK_GAME = sa.text("game_id IS NOT NULL AND NOT ended")
LINK_TABLE = sa.text("table_name IS NOT NULL AND NOT ended")
ROW_SHAPE = (  # as roomops.jackpots.models.ROW_SHAPE
    "(kind <> 'drop' OR (amount > 0 AND hand_id IS NOT NULL AND table_id IS NOT NULL)) AND "
    "(kind <> 'payout' OR (amount < 0 AND claim_id IS NOT NULL AND method IS NOT NULL "
    "AND share IS NOT NULL)) AND "
    "(kind <> 'seed' OR amount > 0 OR pool = 'backup') AND "
    "(kind NOT IN ('adjustment', 'transfer', 'reversal') OR length(trim(coalesce(reason, ''))) > 0) AND "
    "(kind <> 'adjustment' OR second_staff_id IS NOT NULL) AND "
    "((kind = 'reversal') = (reverses_id IS NOT NULL)) AND "
    "(kind IN ('drop', 'reversal') OR fee = 0) AND "
    "((coalesce(method, '') = 'cheque') = (cheque_due_at IS NOT NULL))"
)
# R69: the database's own guards on the pool ledger, refused as the ledger's are
BELOW_NOTHING = "jackpot_rows: a pool never goes below nothing (R69)"
POOL_AFTER = ("(SELECT coalesce(sum(amount), 0) FROM jackpot_rows WHERE scheme_id = NEW.scheme_id "
              "AND pool = NEW.pool) + NEW.amount < 0")
DROPPED = "jackpot_rows: the jackpot drop of the hand is already recorded (R68)"
STANDING_DROP = (
    "NEW.kind = 'drop' AND EXISTS (SELECT 1 FROM jackpot_rows d WHERE d.hand_id = NEW.hand_id "
    "AND d.pool = NEW.pool AND d.kind = 'drop' AND NOT EXISTS (SELECT 1 FROM jackpot_rows r "
    "WHERE r.reverses_id = d.id))")
GUARDS = (("jackpot_rows_not_below", POOL_AFTER, BELOW_NOTHING, "check_violation"),
          ("jackpot_rows_one_drop", STANDING_DROP, DROPPED, "unique_violation"))


def _money() -> sa.types.TypeEngine[int]:
    """As ``roomops.db.Minor``: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite."""
    return sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _staff(name: str, nullable: bool = False) -> sa.Column[int]:
    return sa.Column(name, sa.Integer, sa.ForeignKey("staff.id"), nullable=nullable)


def upgrade() -> None:
    _schemes()
    _links()
    _claims()
    _rows()
    _decisions()
    _box_counts()
    for table in ("jackpot_rows", "jackpot_claims", "jackpot_decisions", "jackpot_box_counts"):
        append_only(table)
    _guards()


def _schemes() -> None:
    t = "jackpot_schemes"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("drop_amount", _money(), nullable=False),
        sa.Column("threshold", _money(), nullable=False),
        sa.Column("min_dealt", sa.Integer, nullable=False),
        sa.Column("flop_required", sa.Boolean, nullable=False),
        sa.Column("qualifying", sa.String(40), nullable=False),
        sa.Column("both_cards_play", sa.Boolean, nullable=False),
        sa.Column("split_losing_bp", sa.Integer, nullable=False),
        sa.Column("split_winning_bp", sa.Integer, nullable=False),
        sa.Column("split_table_bp", sa.Integer, nullable=False),
        sa.Column("prize_bp", sa.Integer, nullable=False),
        sa.Column("fee_bp", sa.Integer, nullable=False),
        sa.Column("backup_bp", sa.Integer, nullable=False),
        sa.Column("camera_threshold", _money(), nullable=False),
        sa.Column("cheque_threshold", _money()),
        sa.Column("away_table_share", sa.Boolean, nullable=False),
        sa.Column("not_eligible", sa.Text, nullable=False),
        sa.Column("created_at", UTCDateTime, nullable=False),
        _staff("created_by_id"),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.Column("ended_at", UTCDateTime),
        _staff("ended_by_id", nullable=True),
        sa.Column("pool_went", sa.Text),
        sa.CheckConstraint("kind IN ('bad_beat', 'high_hand')", name=f"ck_{t}_kind"),
        sa.CheckConstraint("drop_amount > 0 AND threshold >= 0 AND min_dealt >= 2", name=f"ck_{t}_drop"),
        sa.CheckConstraint("split_losing_bp >= 0 AND split_winning_bp >= 0 AND split_table_bp >= 0 AND "
                           "split_losing_bp + split_winning_bp + split_table_bp = 10000",
                           name=f"ck_{t}_split"),
        sa.CheckConstraint("prize_bp BETWEEN 1 AND 10000 AND fee_bp BETWEEN 0 AND 10000 AND "
                           "backup_bp BETWEEN 0 AND 10000", name=f"ck_{t}_parts"),
        sa.CheckConstraint("camera_threshold >= 0 AND (cheque_threshold IS NULL OR cheque_threshold >= 0)",
                           name=f"ck_{t}_thresholds"),
        sa.CheckConstraint("NOT ended OR (ended_at IS NOT NULL AND ended_by_id IS NOT NULL AND "
                           "length(trim(coalesce(pool_went, ''))) > 0)", name=f"ck_{t}_ending"),
    )
    op.create_index("uq_jackpot_schemes_name", t, ["room_id", "name"], unique=True,
                    sqlite_where=RUNNING, postgresql_where=RUNNING)


def _links() -> None:
    t = "jackpot_links"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("scheme_id", sa.Integer, sa.ForeignKey("jackpot_schemes.id"), nullable=False),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id")),
        sa.Column("table_name", sa.String(40)),
        sa.Column("ended", sa.Boolean, nullable=False),
        sa.CheckConstraint("(game_id IS NULL) <> (table_name IS NULL)", name=f"ck_{t}_one"),
    )
    op.create_index("uq_jackpot_links_game", t, ["room_id", "game_id"], unique=True,
                    sqlite_where=LINK_GAME, postgresql_where=LINK_GAME)
    op.create_index("uq_jackpot_links_table", t, ["room_id", "table_name"], unique=True,
                    sqlite_where=LINK_TABLE, postgresql_where=LINK_TABLE)
    op.create_index("ix_jackpot_links_scheme", t, ["scheme_id"])


def _claims() -> None:
    t = "jackpot_claims"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("scheme_id", sa.Integer, sa.ForeignKey("jackpot_schemes.id"), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("hand_no", sa.Integer, nullable=False),
        sa.Column("losing_seat", sa.Integer),
        sa.Column("losing_cards", sa.String(40)),
        sa.Column("winning_seat", sa.Integer, nullable=False),
        sa.Column("winning_cards", sa.String(40), nullable=False),
        sa.Column("dealt", sa.JSON, nullable=False),
        sa.Column("made_at", UTCDateTime, nullable=False),
        _staff("made_by_id"),
        sa.CheckConstraint("winning_seat BETWEEN 1 AND 11 AND "
                           "(losing_seat IS NULL OR losing_seat BETWEEN 1 AND 11)", name=f"ck_{t}_seats"),
    )
    op.create_index("ix_jackpot_claims_scheme", t, ["scheme_id"])


def _rows() -> None:
    t = "jackpot_rows"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("scheme_id", sa.Integer, sa.ForeignKey("jackpot_schemes.id"), nullable=False),
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("amount", _money(), nullable=False),
        sa.Column("fee", _money(), nullable=False),
        sa.Column("gaming_day", sa.Date, nullable=False),
        sa.Column("shift_no", sa.Integer, nullable=False),
        sa.Column("at", UTCDateTime, nullable=False),
        _staff("staff_id", nullable=True),
        _staff("second_staff_id", nullable=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id")),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id")),
        sa.Column("claim_id", sa.Integer, sa.ForeignKey("jackpot_claims.id")),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("seat_no", sa.Integer),
        sa.Column("share", sa.String(8)),
        sa.Column("method", sa.String(8)),
        sa.Column("cheque_due_at", UTCDateTime),
        sa.Column("reverses_id", sa.Integer, sa.ForeignKey("jackpot_rows.id")),
        sa.Column("other_scheme_id", sa.Integer, sa.ForeignKey("jackpot_schemes.id")),
        sa.Column("reason", sa.Text),
        sa.CheckConstraint("pool IN ('main', 'backup')", name=f"ck_{t}_pool"),
        sa.CheckConstraint("kind IN ('seed', 'drop', 'payout', 'adjustment', 'transfer', 'reversal')",
                           name=f"ck_{t}_kind"),
        sa.CheckConstraint("method IS NULL OR method IN ('cash', 'chips', 'cheque')", name=f"ck_{t}_method"),
        sa.CheckConstraint("share IS NULL OR share IN ('losing', 'winning', 'table')", name=f"ck_{t}_share"),
        sa.CheckConstraint("amount <> 0 AND shift_no >= 1 AND (fee >= 0 OR kind = 'reversal')",
                           name=f"ck_{t}_amount"),
        sa.CheckConstraint("second_staff_id IS NULL OR second_staff_id <> staff_id",
                           name=f"ck_{t}_two_staff"),
        sa.CheckConstraint(ROW_SHAPE, name=f"ck_{t}_shape"),
    )
    op.create_index("ix_jackpot_rows_scheme_pool", t, ["scheme_id", "pool"])
    op.create_index("ix_jackpot_rows_hand", t, ["hand_id"])
    op.create_index("ix_jackpot_rows_room_day", t, ["room_id", "gaming_day"])
    op.create_index("uq_jackpot_rows_reverses", t, ["reverses_id"], unique=True)


def _decisions() -> None:
    t = "jackpot_decisions"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("claim_id", sa.Integer, sa.ForeignKey("jackpot_claims.id"), nullable=False),
        sa.Column("decision", sa.String(8), nullable=False),
        sa.Column("at", UTCDateTime, nullable=False),
        _staff("supervisor_id"),
        _staff("second_staff_id"),
        sa.Column("prize", _money(), nullable=False),
        sa.Column("camera_threshold", _money(), nullable=False),
        sa.Column("camera_ref", sa.Text),
        sa.Column("sealed_until", UTCDateTime),
        sa.Column("reason", sa.Text),
        sa.CheckConstraint("decision IN ('paid', 'refused')", name=f"ck_{t}_decision"),
        sa.CheckConstraint("supervisor_id <> second_staff_id", name=f"ck_{t}_two_staff"),
        sa.CheckConstraint("decision <> 'refused' OR length(trim(coalesce(reason, ''))) > 0",
                           name=f"ck_{t}_reason"),
        sa.CheckConstraint("prize >= 0 AND camera_threshold >= 0", name=f"ck_{t}_prize"),
        sa.CheckConstraint("decision <> 'paid' OR prize <= camera_threshold OR "
                           "(length(trim(coalesce(camera_ref, ''))) > 0 AND sealed_until IS NOT NULL)",
                           name=f"ck_{t}_camera"),
    )
    op.create_index("uq_jackpot_decisions_claim", t, ["claim_id"], unique=True)


def _box_counts() -> None:
    t = "jackpot_box_counts"
    op.create_table(
        t,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room_id", sa.Integer, sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("gaming_day", sa.Date, nullable=False),
        sa.Column("shift_no", sa.Integer, nullable=False),
        sa.Column("counted", _money(), nullable=False),
        sa.Column("expected", _money(), nullable=False),
        _staff("counted_by_id"),
        _staff("confirmed_by_id"),
        sa.Column("at", UTCDateTime, nullable=False),
        sa.Column("explanation", sa.Text),
        sa.CheckConstraint("shift_no >= 1 AND counted >= 0", name=f"ck_{t}_counted"),
        sa.CheckConstraint("counted_by_id <> confirmed_by_id", name=f"ck_{t}_two_staff"),
        sa.CheckConstraint("counted = expected OR length(trim(coalesce(explanation, ''))) > 0",
                           name=f"ck_{t}_variance_explained"),
    )
    op.create_index("ix_jackpot_box_counts_room_day", t, ["room_id", "gaming_day"])


def _guards() -> None:
    postgresql = op.get_context().dialect.name == "postgresql"
    for name, condition, message, code in GUARDS:
        if postgresql:
            op.execute(f"CREATE FUNCTION {name}() RETURNS trigger AS $$ BEGIN IF {condition} THEN "
                       f"RAISE EXCEPTION '{message}' USING ERRCODE = '{code}'; END IF; RETURN NEW; "
                       "END $$ LANGUAGE plpgsql")
            op.execute(f"CREATE TRIGGER {name} BEFORE INSERT ON jackpot_rows "
                       f"FOR EACH ROW EXECUTE FUNCTION {name}()")
        else:
            op.execute(f"CREATE TRIGGER {name} BEFORE INSERT ON jackpot_rows WHEN {condition} "
                       f"BEGIN SELECT RAISE(ABORT, '{message}'); END")


def downgrade() -> None:
    postgresql = op.get_context().dialect.name == "postgresql"
    for name, *_rest in GUARDS:
        op.execute(f"DROP TRIGGER {name} ON jackpot_rows" if postgresql else f"DROP TRIGGER {name}")
        if postgresql:
            op.execute(f"DROP FUNCTION {name}()")
    for table in ("jackpot_box_counts", "jackpot_decisions", "jackpot_claims", "jackpot_rows"):
        drop_append_only(table)
    for table in ("jackpot_box_counts", "jackpot_decisions", "jackpot_rows", "jackpot_claims", "jackpot_links",
                  "jackpot_schemes"):
        op.drop_table(table)
