"""The claim countdown (R20, R22) in the board's HTML, filled in for the moment it is served.

A game's HTML is cached (``roomops.board.render``), but the time left on a call changes every
second. So the HTML is drawn with a *mark* per live call, carrying only the deadline, and cached as
a ``Timed``: the text between the marks and their deadlines. ``Timed.at(now_ms)`` puts the
countdown for ``now`` in each mark's place: no scan of the HTML per request. Pure Python.

Time left is whole seconds from milliseconds, ``(deadline - now) // 1000``, the same arithmetic as
``static/board.js``; a call with no whole second left reads as expired (R22: at the deadline it is
already gone), so the server and the page never disagree about a call's state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from markupsafe import Markup

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
# Only markup can match: names and notes are escaped, so they never hold a "<" or a '"'.
_MARK = re.compile(r'<span class="countdown" data-deadline="(\d+)" data-left></span>')


def to_ms(when: datetime) -> int:
    """Milliseconds since the epoch, exactly (integer arithmetic on an aware datetime, no float)."""
    return (when - _EPOCH) // _MS


def seconds_left(deadline_ms: int, now_ms: int) -> int:
    return max(0, (deadline_ms - now_ms) // 1000)


def is_live(deadline_ms: int, now_ms: int) -> bool:
    """R22: a call is live while at least a whole second is left."""
    return seconds_left(deadline_ms, now_ms) > 0


def clock_text(seconds: int) -> str:
    """6:35 for 395 seconds; 'expired' for none."""
    return f"{seconds // 60}:{seconds % 60:02d}" if seconds > 0 else "expired"


def mark(deadline_ms: int) -> Markup:
    """A live call's countdown, as drawn: ``Timed.at`` fills it in when the page is served."""
    return Markup(f'<span class="countdown" data-deadline="{deadline_ms}" data-left></span>')


def expired(deadline_ms: int, word: str = "expired") -> Markup:
    """A call past its deadline: the same whenever it is served, so it is drawn as it is shown
    (``word``: "expired" in the board's language)."""
    return Markup(f'<span class="countdown expired" data-deadline="{deadline_ms}" '
                  f'data-seconds-left="0">{Markup.escape(word)}</span>')


def shown(deadline_ms: int, now_ms: int) -> str:
    """The countdown as served at ``now_ms``: data-seconds-left and m:ss (what board.js keeps up)."""
    left = seconds_left(deadline_ms, now_ms)
    return (f'<span class="countdown" data-deadline="{deadline_ms}" data-seconds-left="{left}">'
            f"{clock_text(left)}</span>")


@dataclass(frozen=True, slots=True)
class Timed:
    """HTML split at its marks: ``texts`` has one more item than ``deadlines``."""

    texts: tuple[str, ...]
    deadlines: tuple[int, ...]

    @classmethod
    def of(cls, html: str) -> Timed:
        pieces = _MARK.split(html)  # text, deadline, text, deadline, ..., text
        return cls(tuple(pieces[::2]), tuple(int(ms) for ms in pieces[1::2]))

    def at(self, now_ms: int) -> str:
        """The HTML with every mark as the countdown at ``now_ms``."""
        out = [self.texts[0]]
        for ms, text in zip(self.deadlines, self.texts[1:], strict=True):
            out += (shown(ms, now_ms), text)
        return "".join(out)
