"""A playover's chips on the books (R29, R27, R28, R30, R52): the overplayer's buy-in, add-ons and
cash-out are ledger rows of the overplayer naming the playover (``playover_id``), on the owner's
seat and table, so the table's expected figure counts the chips played over it. The owner's
play-over box (``absences.stack``) is chips the owner's own rows already hold: never on these.

The buy-in is posted when the playover starts (``at_start``, the ``PlayoverStarted`` handler);
add-ons and the cash-out go through ``services._movement`` and ``cash_outs.cash_out`` with the
playover named, checked here. Nothing here commits."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from roomops.actors import Actor, in_room
from roomops.errors import Conflict, Invalid
from roomops.floor.unit import UnitOfWork
from roomops.holds.models import SeatHold
from roomops.holds.playovers import Playover
from roomops.ledger.models import LedgerEntry, unreversed
from roomops.ledger.posting import Posting, SeatPlace, at_seat, post


def named(playover_id: int | None) -> dict[str, object]:
    """A request's fingerprint names the playover only when there is one, so a seat's requests
    keep the fingerprints they had (R52)."""
    return {} if playover_id is None else {"playover": playover_id}


def at_start(unit: UnitOfWork, hold: SeatHold, playover_id: int,
             player_id: int, amount: int, method: str) -> LedgerEntry:
    """R29/R30/R32: the overplayer's buy-in, checked and accepted by ``start_playover``, on the
    books in the same transaction, paid as the desk said (cash at the table by default)."""
    return post(unit, Posting("buy_in", amount, method,
                              **overplayer_at(unit.session, hold, player_id),
                              playover_id=playover_id), None, "")


def overplayer_at(session: Session, hold: SeatHold, player_id: int) -> SeatPlace:
    """The owner's seat and table, and the overplayer: never the owner's rows (R29)."""
    place = at_seat(session, hold)
    place["player_id"] = player_id
    return place


def locked_playover(session: Session, actor: Actor, hold: SeatHold, playover_id: int,
                    rule: str) -> Playover:
    """The playover (R1: of the actor's room) on seat ``hold``, row-locked on PostgreSQL so that
    a posting and the playover's end do not cross (SQLite's transaction holds the write lock)."""
    playover = in_room(session.scalars(_LOCKED, {"id": playover_id}).one_or_none(), playover_id,
                       actor, "playover", rule)
    if playover.hold_id != hold.id:
        raise Invalid(f"playover {playover_id} is not on seat hold {hold.id}", rule)
    return playover


def playing_over(session: Session, actor: Actor, hold: SeatHold, playover_id: int,
                 rule: str) -> SeatPlace:
    """R29/R30: where chips bought by an overplayer still playing over the seat are posted."""
    playover = locked_playover(session, actor, hold, playover_id, rule)
    if playover.ended_at is not None:
        raise Conflict("the playover has ended: the overplayer buys no more chips on this seat",
                       rule)
    return overplayer_at(session, hold, playover.player_id)


def check_first_buy_in(session: Session, playover_id: int) -> None:
    """R30: a playover's buy-in is posted as it starts; the cage posts one only when that row was
    reversed (R52). More chips are an add-on."""
    if _standing(session, playover_id, "buy_in") is not None:
        raise Conflict("this playover has its buy-in already: more chips are an add-on", "R30")


def cashable(session: Session, actor: Actor, hold: SeatHold, playover_id: int,
             rule: str) -> Playover:
    """R28/R29: a playover whose overplayer has left the seat (no chips leave play at the table)
    and which has no standing cash-out (the ledger's trigger refuses a second one too, 0023)."""
    playover = locked_playover(session, actor, hold, playover_id, rule)
    if playover.ended_at is None:
        raise Conflict("the overplayer is still playing over the seat: they cash out once the "
                       "playover has ended (no chips leave play at the table)", rule)
    earlier = _standing(session, playover_id, "cash_out")
    if earlier is not None:
        raise Conflict(f"this playover was cashed out already ({{amount}}, ledger row "
                       f"{earlier.id}): a mistake is reversed first (R52)", rule,
                       amounts={"amount": -earlier.amount})
    return playover


_LOCKED = select(Playover).where(Playover.id == bindparam("id")).with_for_update().execution_options(
    populate_existing=True)
_STANDING = select(LedgerEntry).where(
    LedgerEntry.playover_id == bindparam("po"), LedgerEntry.kind == bindparam("kind"),
    unreversed()).limit(1)


def _standing(session: Session, playover_id: int, kind: str) -> LedgerEntry | None:
    """The playover's row of ``kind`` that no reversal cancels."""
    return session.scalar(_STANDING, {"po": playover_id, "kind": kind})
