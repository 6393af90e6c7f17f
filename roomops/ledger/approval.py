"""When a cash-out needs a second person's approval, and who may give it (R27, R28, R61), with no
Flask or database.

A cash-out is tied to the seat that ended and to the amount recorded as the player left (R27). The
cage pays that amount on its own; anything else is a second person's decision: an amount different
from the recorded one (or no amount recorded), or one above the room's threshold (policy
``cash_out_approval_over``). The approver is a supervisor other than the cashier posting it."""

from __future__ import annotations

from roomops.errors import Conflict, Forbidden


def approval_needed(amount: int, recorded: int | None, threshold: int | None) -> Conflict | None:
    """Why a cash-out of ``amount`` needs approval, as the refusal to raise without one; None when
    the cage may pay it alone."""
    if recorded is None:
        return Conflict("no amount was recorded when the player left: a cash-out of {amount} "
                        "needs a supervisor's approval", "R27", amounts={"amount": amount})
    if amount != recorded:
        return Conflict("{amount} differs from the {recorded} recorded when the player left: "
                        "a supervisor's approval is needed", "R27",
                        amounts={"amount": amount, "recorded": recorded})
    if threshold is not None and amount > threshold:
        return Conflict("{amount} is above the room's approval threshold of {threshold}: a "
                        "supervisor's approval is needed", "R28",
                        amounts={"amount": amount, "threshold": threshold})
    return None


def check_approver(approver_id: int, poster_id: int | None, supervises: bool, active: bool) -> None:
    """R28/R61: the approval is a second person's, an active supervisor's."""
    if approver_id == poster_id:
        raise Conflict("a cash-out is approved by a second person, not by the staff member "
                       "paying it", "R28")
    if not active or not supervises:
        raise Forbidden("only an active supervisor approves a cash-out", "R61")
