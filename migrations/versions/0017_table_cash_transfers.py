"""cash at the table and stack transfers

Revision ID: 0017
Revises: 0014
Create Date: 2026-11-23 09:30:00

R32: ledger rows take the method ``table`` (cash at the table), for buy-ins and add-ons only (and
their reversals); transit slips keep the cage's methods. R18/R52/R54: the ``transfer`` kind, a
stack carried to another table, negative at the old table and positive at the new. The ledger's
CHECKs are loosened in place (``replace_check``); a downgrade needs a ledger without such rows.
(0015 and 0016 are other branches'; the chain is fixed at merge.)
"""

from collections.abc import Sequence

from roomops.migration_ops import replace_check

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "ledger_entries"
OLD_KINDS = "kind IN ('buy_in', 'add_on', 'transit', 'cash_out', 'session_fee', 'rake', 'reversal')"
NEW_KINDS = ("kind IN ('buy_in', 'add_on', 'transit', 'cash_out', 'session_fee', 'rake', 'reversal', "
             "'transfer')")
OLD_METHOD = "method IN ('cash', 'chips', 'card', 'cheque', 'credit')"
NEW_METHOD = ("method IN ('cash', 'table', 'chips', 'card', 'cheque', 'credit') AND "
              "(method <> 'table' OR kind IN ('buy_in', 'add_on', 'reversal'))")
OLD_SIGN = ("(kind IN ('buy_in', 'add_on', 'transit') AND amount > 0) OR (kind IN ('cash_out', "
            "'session_fee', 'rake') AND amount < 0) OR (kind = 'reversal' AND amount <> 0)")
NEW_SIGN = ("(kind IN ('buy_in', 'add_on', 'transit') AND amount > 0) OR (kind IN ('cash_out', "
            "'session_fee', 'rake') AND amount < 0) OR (kind IN ('reversal', 'transfer') AND "
            "amount <> 0)")
CHECKS = (("ck_ledger_entries_kind", OLD_KINDS, NEW_KINDS),
          ("ck_ledger_entries_method", OLD_METHOD, NEW_METHOD),
          ("ck_ledger_entries_amount_sign", OLD_SIGN, NEW_SIGN))


def upgrade() -> None:
    for name, old, new in CHECKS:
        replace_check(TABLE, name, old, new)


def downgrade() -> None:
    for name, old, new in reversed(CHECKS):
        replace_check(TABLE, name, new, old)
