"""session fees as rooms collect them: hourly, half-hourly and a drop per hand

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-24 22:00:00

R50: a game's fee is one of ``none``, ``hourly`` and ``halfhour`` (time paid in advance for the
coming period), ``drop`` (a fixed amount taken from each hand dealt) and ``rake`` (R51). The time
fee serves both periods, so ``hourly_fee`` and its schedule become ``time_fee`` and
``time_fee_by_players`` (their check follows the rename on both databases); the drop has its own
amount and schedule by players dealt in. The ledger takes a ``drop`` row: chips out of play, taken
in chips, naming its hand, one standing drop a hand (a trigger: whether a drop stands is read from
its reversals). A downgrade needs no drop row and no half-hourly or drop game.
"""

from collections.abc import Sequence

from alembic import op

from roomops.migration_ops import add_checked_columns, drop_columns, money_columns, replace_check

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

RENAMED = (("hourly_fee", "time_fee"), ("hourly_fee_by_players", "time_fee_by_players"))
GAME_COLUMNS = {
    # money: BIGINT on PostgreSQL, INTEGER (already 64-bit) on SQLite, as ``roomops.db.Minor``
    "drop_fee": "{money} DEFAULT 0 NOT NULL CONSTRAINT ck_games_drop_fee CHECK (drop_fee >= 0)",
    "drop_by_players": "JSON",
}
GAME_CHECKS = (("games", "ck_games_fee_kind", "fee_kind IN ('none', 'hourly', 'rake')",
                "fee_kind IN ('none', 'hourly', 'halfhour', 'drop', 'rake')", None),)

_KINDS = ("kind IN ('buy_in', 'add_on', 'transit', 'cash_out', 'session_fee', 'rake', {}'reversal', "
          "'transfer')")
_METHOD = ("method IN ('cash', 'table', 'chips', 'card', 'cheque', 'credit') AND "
           "(method <> 'table' OR kind IN ('buy_in', 'add_on', 'reversal'))")
_SIGN = ("(kind IN ('buy_in', 'add_on', 'transit') AND amount > 0) OR (kind IN ('cash_out', "
         "'session_fee', 'rake'{}) AND amount < 0) OR (kind IN ('reversal', 'transfer') AND "
         "amount <> 0)")
_RAKE_HAND = "kind <> 'rake' OR hand_id IS NOT NULL OR down_id IS NOT NULL"
LEDGER = "ledger_entries"
LEDGER_CHECKS = (
    (LEDGER, "ck_ledger_entries_kind", _KINDS.format(""), _KINDS.format("'drop', "), None),
    (LEDGER, "ck_ledger_entries_method", _METHOD,
     f"{_METHOD} AND (kind <> 'drop' OR method = 'chips')", None),
    (LEDGER, "ck_ledger_entries_amount_sign", _SIGN.format(""), _SIGN.format(", 'drop'"), None),
    # R50/R51: rake names its hand or down; a drop names its hand
    (LEDGER, "ck_ledger_entries_rake_hand", _RAKE_HAND,
     f"({_RAKE_HAND}) AND (kind <> 'drop' OR hand_id IS NOT NULL)", "ck_ledger_entries_hand"),
)

DROPPED = "ledger_entries: drop of the hand already recorded (R50)"
# a standing drop (no reversal names it) of the same hand
STANDING_DROP = (
    "NEW.kind = 'drop' AND EXISTS (SELECT 1 FROM ledger_entries e WHERE e.hand_id = NEW.hand_id "
    "AND e.kind = 'drop' AND NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_id = "
    "e.id))")



def upgrade() -> None:
    for old, new in RENAMED:
        op.execute(f"ALTER TABLE games RENAME COLUMN {old} TO {new}")  # ck_games_fees follows
    add_checked_columns("games", money_columns(GAME_COLUMNS))
    for table, name, old, new, new_name in GAME_CHECKS + LEDGER_CHECKS:
        replace_check(table, name, old, new, new_name)
    if op.get_context().dialect.name == "postgresql":
        op.execute("CREATE FUNCTION roomops_one_drop() RETURNS trigger AS $$ BEGIN "
                   f"IF {STANDING_DROP} THEN RAISE EXCEPTION '{DROPPED}' USING ERRCODE = "
                   "'unique_violation'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql")
        op.execute("CREATE TRIGGER ledger_entries_one_drop BEFORE INSERT ON ledger_entries "
                   "FOR EACH ROW EXECUTE FUNCTION roomops_one_drop()")
        return
    op.execute(f"CREATE TRIGGER ledger_entries_one_drop BEFORE INSERT ON ledger_entries "
               f"WHEN {STANDING_DROP} BEGIN SELECT RAISE(ABORT, '{DROPPED}'); END")


def downgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        op.execute("DROP TRIGGER ledger_entries_one_drop ON ledger_entries")
        op.execute("DROP FUNCTION roomops_one_drop()")
    else:
        op.execute("DROP TRIGGER ledger_entries_one_drop")
    for table, name, old, new, new_name in reversed(GAME_CHECKS + LEDGER_CHECKS):
        replace_check(table, new_name or name, new, old, name)
    drop_columns("games", money_columns(GAME_COLUMNS))
    for old, new in reversed(RENAMED):
        op.execute(f"ALTER TABLE games RENAME COLUMN {new} TO {old}")
