"""What sends a text: the provider interface, and ``LogOnly`` for rooms without one
(docs/messages.md). The real one is ``roomops.messages.twilio_sms.TwilioSms``."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from roomops.messages.rules import NO_PROVIDER

log = logging.getLogger("roomops.messages")


@dataclass(frozen=True)
class Accepted:
    """The provider took the message; ``provider_id`` names it in its delivery reports."""

    provider_id: str | None


class SendFailed(Exception):
    """The provider did not take the message: ``permanent`` when trying again cannot help (a
    number it cannot text), else a timeout, an outage or a limit, tried again later."""

    def __init__(self, reason: str, *, permanent: bool) -> None:
        super().__init__(reason)
        self.reason = reason[:200]
        self.permanent = permanent


class Provider(Protocol):
    @property
    def configured(self) -> bool:
        """Whether texts go out at all (``LogOnly``: no; its messages are ``not_sent``)."""

    def send(self, number: str, body: str, message_id: int) -> Accepted:
        """Send ``body`` to ``number`` (E.164); ``message_id``, the outbox row, comes back with
        the provider's delivery report. Raises ``SendFailed``; returns within the provider's
        timeout."""

    def taken_before(self, number: str, body: str, since: datetime) -> Accepted | None:
        """The message the provider took with this ``body`` for ``number`` since ``since``, if
        any: asked before a text whose earlier attempt has no recorded outcome is sent again
        (R20, one text per offer). Raises ``SendFailed`` when the provider cannot tell."""


class LogOnly:
    """No provider: texts are written ``not_sent`` with the offer, and logged. One queued while
    the deployment had a provider, and due after it was taken away, fails when the sweep comes
    to it rather than waiting for ever."""

    configured = False

    def send(self, number: str, body: str, message_id: int) -> Accepted:
        log.info("text %d not sent (%s): %s", message_id, NO_PROVIDER, body)
        raise SendFailed(NO_PROVIDER, permanent=True)

    def taken_before(self, number: str, body: str, since: datetime) -> Accepted | None:
        return None  # it never takes one
