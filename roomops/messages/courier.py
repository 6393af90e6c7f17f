"""Who sends the texts: the provider, how the board's address is made, and who sends after the
commit. The application makes one (``roomops.factory``) and binds it into the handler table
(``roomops.reactions.handlers``), so the outbox's handlers need no web import. Without one,
nobody sends (``LogOnly``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from roomops.messages.providers import LogOnly, Provider
from roomops.messages.sender import Sender


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
    # the process's sender, which sends after a commit (``roomops.messages.sender``); None: at
    # once, on the committing thread (the tests' couriers)
    sender: Sender | None = None


LOG_ONLY = Courier()
