"""Sending the outbox, outside the floor's transactions (docs/messages.md): right after the
commit that queued a text, and by the scheduler's sweep for what is due (a retry, a lease run
out, a text queued by a process that stopped before sending).

Each text is claimed, sent and recorded in transactions of its own, so no lock is held while the
provider is called: the claim is a conditional UPDATE queued -> sending (or a sending row whose
lease ran out) that only one sender wins; the provider is called within its timeout; the outcome
is written only by the sender whose attempt it was. An attempt after the first asks the provider
first whether an earlier one got through with its outcome never recorded (a sender killed between
the provider's answer and the record): one text per offer (R20). A sender stops at the first provider that
fails for a passing reason (a timeout, an outage): the rest wait for the sweep, so a desk request
is never held for more than one timeout."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Literal, NamedTuple

from sqlalchemy import ColumnElement, Update, and_, case, exists, func, or_, select, update
from sqlalchemy.orm import Session

from roomops.games.locks import lock_rooms
from roomops.holds.models import SeatHold
from roomops.messages.models import OutboxMessage
from roomops.messages.providers import Accepted, Provider, SendFailed
from roomops.messages.rules import LEASE, MOVES_FROM, PROVIDER_STATES, MessageState, after_failure

log = logging.getLogger("roomops.messages")

M = OutboxMessage
Clock = Callable[[], datetime]
DUE_PER_SWEEP = 20  # at most this many per sweep: each may take the provider's timeout
# how far the provider's clock may be behind ours when its messages are matched by time
CLOCK_SKEW = timedelta(minutes=5)


class Claim(NamedTuple):
    """A text claimed for one attempt: where it goes, what it says, which attempt, when queued."""

    number: str
    body: str
    attempt: int
    queued_at: datetime


def _update() -> Update:
    """An UPDATE of outbox rows; the session holds none of them as objects to keep in step."""
    return update(M).execution_options(synchronize_session=False)


def _rooms_first(session: Session, which: ColumnElement[bool]) -> None:
    """The rooms of the texts ``which`` picks, locked before the texts are written: a text's state
    moves its game's desk mark (migration 0043), which a desk action holding its room's lock may
    hold while it waits to cancel that very text (R21/R22); every writer of a mark takes the room
    first (``roomops.games.locks.lock_room``), so the two cannot deadlock."""
    lock_rooms(session, select(M.room_id).where(which))


def _live_offer(now: datetime) -> ColumnElement[bool]:
    """The text's offer is still open: not ended, its claim time not run out (R20, R22)."""
    return exists().where(SeatHold.id == M.hold_id, SeatHold.ended_at.is_(None),
                          SeatHold.deadline > now)


def _claimable(now: datetime) -> ColumnElement[bool]:
    return or_(and_(M.state == "queued", M.next_attempt_at <= now),
               and_(M.state == "sending", M.lease_until <= now))


def send_now(session: Session, provider: Provider, clock: Clock, hold_ids: Sequence[int]) -> int:
    """The texts of these offers, just committed; returns how many the provider took. ``clock``
    is read at each step: a state's time is when it happened (the desk's poll keys on it)."""
    ids = list(session.scalars(select(M.id).where(M.hold_id.in_(hold_ids), M.state == "queued")
                               .order_by(M.id)))
    session.commit()
    return _send_each(session, provider, clock, ids)


def send_due(session: Session, provider: Provider, clock: Clock,
             limit: int = DUE_PER_SWEEP) -> int:
    """The sweep's part: texts of offers that ended or ran out are cancelled, then the due ones
    sent, oldest first; idempotent, and safe to run in several processes at once."""
    now = clock()
    cancel_stale(session, now)
    ids = list(session.scalars(select(M.id).where(_claimable(now), M.state.in_(
        ("queued", "sending"))).order_by(M.next_attempt_at, M.id).limit(limit)))
    session.commit()
    return _send_each(session, provider, clock, ids)


def cancel_stale(session: Session, now: datetime) -> int:
    """Queued texts (or claims abandoned by a sender that stopped) whose offer is over."""
    stale = and_(M.state.in_(("queued", "sending")), _claimable(now), ~_live_offer(now))
    _rooms_first(session, stale)
    result = session.execute(_update().where(stale).values(
        state="cancelled", next_attempt_at=None, lease_until=None, updated_at=now))
    return int(result.rowcount)  # type: ignore[attr-defined]  # a CursorResult for an UPDATE


def _send_each(session: Session, provider: Provider, clock: Clock, ids: list[int]) -> int:
    sent = 0
    for message_id in ids:
        outcome = _send_one(session, provider, clock, message_id)
        if outcome == "wait":
            break
        sent += outcome == "sent"
    return sent


def _send_one(session: Session, provider: Provider, clock: Clock,
              message_id: int) -> Literal["sent", "skipped", "failed", "wait"]:
    """skipped: another sender had it, or its offer is over; failed: refused for good; wait: a
    failure that may pass (stop sending for now)."""
    claim = claim_one(session, clock(), message_id)
    session.commit()  # the attempt, and its time, are recorded before the provider is called
    if claim is None:
        return "skipped"
    attempt = claim.attempt
    try:
        accepted = (_taken_before(provider, claim, message_id)
                    or provider.send(claim.number, claim.body, message_id))
    except SendFailed as exc:
        record_failure(session, clock(), message_id, attempt, exc)
        session.commit()
        log.warning("text %d, attempt %d, failed: %s", message_id, attempt, exc.reason)
        return "failed" if exc.permanent else "wait"
    record_sent(session, clock(), message_id, attempt, accepted.provider_id)
    session.commit()
    return "sent"


def _taken_before(provider: Provider, claim: Claim, message_id: int) -> Accepted | None:
    """R20, one text per offer: every attempt but the first may follow one whose outcome was
    never recorded (the sender killed after the provider took the text, or its answer lost in a
    timeout), so the provider is asked whether it already has this text before it is sent again:
    to the same number, the same words, since the text was queued."""
    if claim.attempt == 1:
        return None
    found = provider.taken_before(claim.number, claim.body, claim.queued_at - CLOCK_SKEW)
    if found is not None:
        log.info("text %d was taken by an earlier attempt: not sent again", message_id)
    return found


def claim_one(session: Session, now: datetime, message_id: int) -> Claim | None:
    """Move the text to ``sending`` with a lease, if it is still to send and its offer still
    open: one conditional UPDATE, so of two senders exactly one gets it (``Claim``)."""
    _rooms_first(session, M.id == message_id)
    row = session.execute(_update().where(M.id == message_id, _claimable(now), _live_offer(now))
                          .values(state="sending", lease_until=now + LEASE,
                                  attempts=M.attempts + 1, updated_at=now)
                          .returning(M.number, M.body, M.attempts, M.created_at)).first()
    if row is None or row.number is None:
        return None
    return Claim(row.number, row.body, row.attempts, row.created_at)


def record_sent(session: Session, now: datetime, message_id: int, attempt: int,
                provider_id: str | None) -> None:
    """The provider took it. A delivery report that came first keeps its word."""
    sending = M.state == "sending"
    _rooms_first(session, M.id == message_id)
    session.execute(_update().where(M.id == message_id, M.attempts == attempt).values(
        state=case((sending, "sent"), else_=M.state), lease_until=None,
        provider_id=func.coalesce(M.provider_id, provider_id), sent_at=now,
        last_error=case((sending, None), else_=M.last_error), updated_at=now))


def record_failure(session: Session, now: datetime, message_id: int, attempt: int,
                   failure: SendFailed) -> None:
    """Queued again after a back-off, or failed for good; only by the sender of this attempt."""
    after = after_failure(attempt, now, failure.permanent)
    _rooms_first(session, M.id == message_id)
    session.execute(_update().where(M.id == message_id, M.attempts == attempt,
                                    M.state == "sending").values(
        state=after.state, next_attempt_at=after.retry_at, lease_until=None,
        last_error=failure.reason, updated_at=now))


def record_report(session: Session, now: datetime, message_id: int | None, provider_id: str,
                  status: str, error: str | None) -> bool:
    """A delivery report (Twilio's status callback): the text moves forward to sent, delivered
    or failed; a report for a text it does not name, or one that says nothing new, changes
    nothing. Returns whether it changed the row."""
    state: MessageState | None = PROVIDER_STATES.get(status)
    if state is None:
        return False
    named = M.id == message_id if message_id is not None else M.provider_id == provider_id
    _rooms_first(session, named)
    result = session.execute(_update().where(
        named, M.state.in_(MOVES_FROM[state]),
        or_(M.provider_id.is_(None), M.provider_id == provider_id)).values(
        state=state, provider_id=provider_id, lease_until=None, updated_at=now,
        last_error=error if state == "failed" else None))
    return bool(result.rowcount)  # type: ignore[attr-defined]  # a CursorResult for an UPDATE


def texts_changed(session: Session, room_id: int) -> datetime | None:
    """When a text of the room last changed state: the desk's poll keys on it with the audit
    trail's version, as a text's sending and delivery are not audited (docs/decisions.md). One
    indexed statement (``ix_outbox_room_updated``)."""
    return session.scalar(select(func.max(M.updated_at)).where(M.room_id == room_id))
