"""R67-R70: what a jackpot scheme is and how a drop is shared between its pools. Pure: no Flask,
no database.

A scheme's rules never change once posted (R67): a room that wants another drop or other shares
starts a new scheme and moves the old one's pool to it (``ending``, R69). Each drop is shared, in
whole minor units, between the administrative fee (the house's, default none), the backup pool
(``backup_bp``, default 0) and the pool itself, the fee rounded down and the backup's share rounded
down, the pool taking what is left: so the three add up to the drop to the cent (R69).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from roomops.errors import Invalid
from roomops.jackpots.shares import WHOLE_BP

Kind = Literal["bad_beat", "high_hand"]
KINDS: tuple[Kind, ...] = get_args(Kind)
Pool = Literal["main", "backup"]
POOLS: tuple[Pool, ...] = get_args(Pool)
# R69: the pool ledger's rows. seed: money put in (the house's, or the backup's on a new pool);
# drop: a hand's drop (and its backup share); payout: a player's share of a prize (R70);
# adjustment: a documented correction by two staff; transfer: a pool moved to another scheme when
# one ends; reversal: a row undone by its opposite (R52).
RowKind = Literal["seed", "drop", "payout", "adjustment", "transfer", "reversal"]
ROW_KINDS: tuple[RowKind, ...] = get_args(RowKind)
# R70: a share paid in cash or chips, or owed by cheque above the scheme's cheque threshold
PaidIn = Literal["cash", "chips", "cheque"]
PAID_IN: tuple[PaidIn, ...] = get_args(PaidIn)
# R70: which part of a prize a payout row is
ShareKind = Literal["losing", "winning", "table"]
SHARE_KINDS: tuple[ShareKind, ...] = get_args(ShareKind)

# R67: the qualifying hands a scheme may post, strongest first (their words: ``terms.hands``)
QUALIFYING: tuple[str, ...] = ("royal_flush", "straight_flush", "four_of_a_kind", "quad_eights",
                               "aces_full_of_kings", "aces_full_of_tens", "full_house")
# R69: of each drop, the fee and the backup's share each at most half, so the pool always takes some
MOST_TAKEN_BP = WHOLE_BP // 2
DEFAULT_CAMERA_THRESHOLD = 50_000  # R70 (WA): 500.00 in minor units
MAX_NAME = 60
MAX_TEXT = 500


@dataclass(frozen=True)
class DropShares:
    """R69: one drop shared out: the house's administrative fee, the backup pool's share and
    the pool's, adding up to the drop."""

    fee: int
    backup: int
    main: int


def share_drop(drop: int, fee_bp: int, backup_bp: int) -> DropShares:
    """R69: ``drop`` (minor units) less the fee (``fee_bp`` of it, rounded down), the backup's
    share of the rest rounded down, the pool the remainder."""
    fee = drop * fee_bp // WHOLE_BP
    backup = (drop - fee) * backup_bp // WHOLE_BP
    return DropShares(fee, backup, drop - fee - backup)


def check_bp(value: int, what: str, rule: str, most: int = WHOLE_BP) -> int:
    """A part in basis points, 0 to ``most`` (100 %), a whole number."""
    if type(value) is not int or not 0 <= value <= most:
        raise Invalid(f"{what} is a percentage from 0 to {most / 100:g}", rule)
    return value


def check_prize_bp(value: int) -> int:
    """R69/R70: a claim wins this part of the pool, more than nothing; the rest stays in it."""
    if check_bp(value, "the prize", "R70") == 0:
        raise Invalid("the prize is a part of the pool above 0 %", "R70")
    return value


def check_name(name: str) -> str:
    text = (name or "").strip()
    if not text or len(text) > MAX_NAME:
        raise Invalid(f"a scheme needs a name of at most {MAX_NAME} characters", "R67")
    return text


def check_qualifying(key: str) -> str:
    if key not in QUALIFYING:
        raise Invalid(f"the qualifying hand is one of: {', '.join(k.replace('_', ' ') for k in QUALIFYING)}",
                      "R67")
    return key


def check_text(value: str | None, what: str, rule: str, *, required: bool = False) -> str | None:
    """A few words typed by staff (a reason, a surveillance reference, who may not win)."""
    text = (value or "").strip()
    if required and not text:
        raise Invalid(f"{what} is needed, in a few words", rule)
    if len(text) > MAX_TEXT:
        raise Invalid(f"{what} is at most {MAX_TEXT} characters", rule)
    return text or None


def check_links(games: list[int], tables: list[str]) -> None:
    """R67: a scheme runs on some games or tables; each named once."""
    if not games and not tables:
        raise Invalid("a scheme runs on one game or table at least", "R67")
    if len(set(games)) != len(games) or len(set(tables)) != len(tables):
        raise Invalid("each game and table is named once", "R67")

