"""The one-time code a join from the phone texts to its number (R12, issue 40; docs/messages.md,
"Codes"). Sent after the join's commit through the courier's provider (on the process's sender
thread where there is one), straight, not through the outbox: a code lives minutes and a player
who did not get one asks again, so it is never tried twice; it is not kept, so a crash loses it
rather than texting it again."""

from __future__ import annotations

import logging

from roomops.floor.unit import UnitOfWork
from roomops.messages.courier import Courier
from roomops.messages.providers import Provider, SendFailed

log = logging.getLogger("roomops.messages")
NO_ROW = 0  # a code has no outbox row: the provider's delivery report for it names none


def text_code(unit: UnitOfWork, courier: Courier, number: str, body: str) -> None:
    """Text ``body`` (the code) to ``number`` once the unit has committed."""
    provider, sender = courier.provider, courier.sender
    if sender is None:
        unit.after_commit(lambda: _send(provider, number, body))
    else:
        unit.after_commit(lambda: sender.post(lambda: _send(provider, number, body)))


def _send(provider: Provider, number: str, body: str) -> None:
    try:
        provider.send(number, body, NO_ROW)
    except SendFailed as exc:  # the player asks again; nothing to undo
        log.warning("code text not sent: %s", exc.reason)
