"""The outbox's rules with no Flask or database (docs/messages.md): what the player is sent when
a seat is offered (R20), when a failed send is tried again, and how a state reads on the desk."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from roomops.words import Translate, english

Channel = Literal["sms"]
# queued: waiting to be sent (now, or at next_attempt_at after a failure); sending: claimed by one
# sender until lease_until; sent: the provider took it; delivered / failed: the provider's last
# word (failed also when the provider refused it or every attempt failed); cancelled: the offer
# ended before it went out; not_sent: no number, or no provider, so nothing was ever to be sent
MessageState = Literal["queued", "sending", "sent", "delivered", "failed", "cancelled", "not_sent"]

NO_PROVIDER = "no text-message provider"  # why a room without a provider texts nobody
NO_NUMBER = "no phone number"
BAD_NUMBER = "phone number not readable"
NUMBERLESS = (NO_NUMBER, BAD_NUMBER)

FIRST_RETRY = timedelta(seconds=15)
LONGEST_RETRY = timedelta(minutes=2)
MAX_ATTEMPTS = 5
LEASE = timedelta(seconds=60)  # well past the provider's timeout: only a crash lets one run out


def retry_delay(attempts: int) -> timedelta:
    """Exponential back-off after ``attempts`` failed tries (15 s, 30 s, 60 s, ...), capped."""
    return min(FIRST_RETRY * (1 << max(0, attempts - 1)), LONGEST_RETRY)


@dataclass(frozen=True)
class AfterFailure:
    """What a failed try leaves: queued again at ``retry_at``, or failed for good."""

    state: MessageState
    retry_at: datetime | None


def after_failure(attempts: int, now: datetime, permanent: bool) -> AfterFailure:
    """A refusal by the provider (a number it cannot text) is final; a transient failure (a
    timeout, the provider down, too many requests) is tried again until ``MAX_ATTEMPTS``."""
    if permanent or attempts >= MAX_ATTEMPTS:
        return AfterFailure("failed", None)
    return AfterFailure("queued", now + retry_delay(attempts))


@dataclass(frozen=True)
class OfferText:
    """What the text about one offered seat says (R20)."""

    room: str
    game: str
    table: str
    seat_no: int
    deadline: datetime
    timezone: str
    link: str = ""

    def body(self, tr: Translate = english) -> str:
        """Short enough for two SMS segments; the claim-by time in the room's own clock; the
        words in the player's language (``tr``, roomops.words), the room's names as written."""
        by = self.deadline.astimezone(ZoneInfo(self.timezone))
        text = tr("{room}: your seat is ready. {game}, table {table}, seat {seat}. Claim it at "
                  "the desk by {time}, or it goes to the next player.").format(
            room=self.room, game=self.game, table=self.table, seat=self.seat_no,
            time=f"{by:%H:%M}")
        return f"{text} {self.link}" if self.link else text


# Twilio's message statuses (its delivery callback's MessageStatus) as outbox states; the others
# (queued, accepted, sending, scheduled, ...) say nothing new
PROVIDER_STATES: dict[str, MessageState] = {
    "sent": "sent", "delivered": "delivered", "read": "delivered",
    "undelivered": "failed", "failed": "failed",
}
# a callback may move a message only forward: delivered and failed are the provider's last word
MOVES_FROM: dict[MessageState, tuple[MessageState, ...]] = {
    "sent": ("sending",),
    "delivered": ("sending", "sent"),
    "failed": ("sending", "sent"),
}

_DESK: dict[str, str] = {
    "queued": "text queued", "sending": "text sending", "sent": "text sent",
    "delivered": "text delivered", "failed": "text failed", "not_sent": "no text",
}


def desk_label(state: str | None, error: str | None, said_elsewhere: bool = False) -> str | None:
    """How the desk reads a live offer's text (R20): "text sent", "text failed: ...", "no text:
    no phone number"; None when there is none to show (no row, or cancelled). A player without a
    usable number is said once (issue 40): ``said_elsewhere``, the offer's list entry says it, so
    the seat's tile does not."""
    label = _DESK.get(state or "")
    if label is None or error == NO_PROVIDER or (said_elsewhere and error in NUMBERLESS):
        return None
    return f"{label}: {error}" if error and state in ("failed", "not_sent", "queued") else label
