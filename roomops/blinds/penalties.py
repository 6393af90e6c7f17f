"""Penalty sit-outs (R55) and removal (R57): how many hands, how many left, what comes next."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from roomops.errors import Invalid

PenaltyKind = Literal["warning", "hands", "rounds", "removal"]


@dataclass(frozen=True)
class Penalty:
    kind: PenaltyKind
    count: int = 0  # hands for "hands"; 1 or 2 for "rounds"
    players_at_table: int = 0  # "rounds": players at the table when given, the offender included
    reason: str = ""


# R55: the ladder of the UK casino's house rules (``001_…``): warning, one round, two rounds; then
# removal (R57), which the supervisor decides.
LADDER: tuple[Penalty, ...] = (Penalty("warning"), Penalty("rounds", 1), Penalty("rounds", 2),
                               Penalty("removal"))


def check_penalty(penalty: Penalty) -> None:
    """R55/R57: raise ``Invalid`` unless the penalty is one the rules know, with its reason."""
    if not penalty.reason.strip():
        raise Invalid("a penalty needs a reason", "R57" if penalty.kind == "removal" else "R55")
    if penalty.kind == "hands" and penalty.count < 1:
        raise Invalid("a sit-out is for at least one hand", "R55")
    if penalty.kind == "rounds" and (penalty.count not in (1, 2) or penalty.players_at_table < 2):
        raise Invalid("a sit-out is for 1 or 2 complete rounds, counted on the players at the "
                      "table (at least two)", "R55")


def hands_out(penalty: Penalty) -> int:
    """R55: hands the seat is dealt out for; a round is one hand per player at the table when the
    penalty was given (``000_…`` 64). A warning or a removal sits nobody out."""
    if penalty.kind == "hands":
        return penalty.count
    if penalty.kind == "rounds":
        return penalty.count * penalty.players_at_table
    return 0


def hands_remaining(penalty: Penalty, hands_since: int) -> int:
    """R55: hands still to sit out, given the hands recorded at the table since the penalty was
    given (it starts with the next hand)."""
    return max(0, hands_out(penalty) - hands_since)


def next_penalty(history: Sequence[Penalty], players_at_table: int, reason: str) -> Penalty:
    """R55: the next step on the ladder after the player's earlier penalties (their count, in the
    window the caller chooses), at least one step above the harshest so far."""
    step = max((_rank(p) + 1 for p in history), default=0)
    rung = LADDER[min(max(step, len(history)), len(LADDER) - 1)]
    players = players_at_table if rung.kind == "rounds" else 0
    return Penalty(rung.kind, rung.count, players, reason)


def _rank(penalty: Penalty) -> int:
    """Where a penalty sits on the ladder; N hands counts as a warning-and-more, below a round."""
    if penalty.kind == "rounds":
        return penalty.count
    return {"warning": 0, "hands": 0, "removal": len(LADDER) - 1}[penalty.kind]
