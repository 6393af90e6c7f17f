"""Who sends a session's texts: the provider and how the board's address is made, carried by the
session (``Session.info``, set by ``roomops.reactions.session_factory``), so the outbox's
handlers need no web import. A session without one sends nothing (``LogOnly``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from roomops.messages.providers import LogOnly, Provider

COURIER_KEY = "roomops.messages.courier"


def _no_link(_slug: str, _own_page: bool) -> str:
    return ""


@dataclass(frozen=True)
class Courier:
    provider: Provider = field(default_factory=LogOnly)
    # a room's slug, and whether the player has a page of their own (they joined from the phone,
    # R12) -> the public address the text gives: that page, else the room's board
    board_link: Callable[[str, bool], str] = _no_link
    # the app's clock, read as each text changes state; None: the time of the change that queued it
    clock: Callable[[], datetime] | None = None


LOG_ONLY = Courier()


def courier_of(session: Session) -> Courier:
    found: Courier = session.info.get(COURIER_KEY, LOG_ONLY)
    return found
