"""one over: a full table may take one more player in seat N+1, with the floor's written reason

Revision ID: 0035
Revises: 0032
Create Date: 2026-11-25 04:00:00

R4 (issue 20): seat numbers run 1..seats_per_table+1; ``seat_holds.over_reason`` keeps the floor's
reason for a hold in the extra seat. A trigger refuses a live hold in a seat above its game's
``seats_per_table`` + 1, and any hold in seat N+1 without a reason (``roomops.holds.extra_seat``
has the rules the services apply first).
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, replace_check

revision: str = "0035"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"over_reason": "TEXT"}
MESSAGE = ("seat_holds: a live hold beyond seat seats_per_table + 1 of its game, or a hold in seat "
           "seats_per_table + 1 without the written reason of the floor (R4)")
# the hold's game's seat count, and whether the row breaks the rule (NEW: the row written)
_N = "(SELECT g.seats_per_table FROM tables t JOIN games g ON g.id = t.game_id WHERE t.id = NEW.table_id)"
BAD = (f"(NEW.ended_at IS NULL AND NEW.seat_no > {_N} + 1) OR (NEW.seat_no = {_N} + 1 AND "
       "(NEW.over_reason IS NULL OR trim(NEW.over_reason) = ''))")
# every game has 9 or 10 seats (ck_games_seats): seats up to 9 never need the look-up
ABOVE_NINE = "NEW.seat_no > 9"
COLUMNS_WATCHED = "seat_no, table_id, over_reason, ended_at"


def upgrade() -> None:
    add_checked_columns("seat_holds", COLUMNS)
    replace_check("seat_holds", "ck_seat_holds_seat_no", "seat_no BETWEEN 1 AND 10",
                  "seat_no BETWEEN 1 AND 11")
    if op.get_context().dialect.name == "postgresql":
        # a check violation, as the database's other refusals of a seat (IntegrityError)
        op.execute("CREATE FUNCTION roomops_seat_count() RETURNS trigger AS $$ BEGIN "
                   f"IF {BAD} THEN RAISE EXCEPTION '{MESSAGE}' USING ERRCODE = 'check_violation'; "
                   "END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        op.execute(f"CREATE TRIGGER seat_holds_seat_count BEFORE INSERT OR UPDATE OF "
                   f"{COLUMNS_WATCHED} ON seat_holds FOR EACH ROW WHEN ({ABOVE_NINE}) "
                   "EXECUTE FUNCTION roomops_seat_count()")
        return
    for verb in ("INSERT", f"UPDATE OF {COLUMNS_WATCHED}"):
        name = verb.split()[0].lower()
        op.execute(f"CREATE TRIGGER seat_holds_seat_count_{name} BEFORE {verb} ON seat_holds "
                   f"WHEN {ABOVE_NINE} AND ({BAD}) BEGIN SELECT RAISE(ABORT, '{MESSAGE}'); END")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER seat_holds_seat_count ON seat_holds")
        op.execute("DROP FUNCTION roomops_seat_count()")
    else:
        op.execute("DROP TRIGGER seat_holds_seat_count_insert")
        op.execute("DROP TRIGGER seat_holds_seat_count_update")
    replace_check("seat_holds", "ck_seat_holds_seat_no", "seat_no BETWEEN 1 AND 11",
                  "seat_no BETWEEN 1 AND 10")
    drop_columns("seat_holds", COLUMNS)
