"""The desk's live part drawn once for every desk that shows it (issue 21: each change is rendered
once and sent to every open screen that shows it).

After a floor change every open desk is told at once and re-reads ``/desk/fragment``. Drawn for
each, a 250-table room's ~300 ms render was paid once per desk, one after the other, and the last
desk waited for all the others' (bench/desks.py, docs/benchmarks.md). The fragment shows the room,
not who looks at it: its ETag names the room's version, what the viewer may do and whether the
sweep is late, and it carries no CSRF token (desk.js gives its forms the page's). So a drawing is
made once per ETag and kept, with its compressed forms, until the room moves on: each room and
viewer's rights keep their latest drawing only (a desk always asks for the room as it is now).
Desks that ask while a drawing is being made wait for it instead of making their own.

Each game is drawn apart and keyed by what it shows: a desk says which games it shows
(``X-Desk-Shows``) and is sent only the others, so after a change to one game a desk parses and
lays out that game, not the room's 3.5 MB (250 tables)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from threading import Event, Lock

from roomops.desk.parts import GAME, Parts
from roomops.seating.rows import KeptRows
from roomops.web.compression import Encoded

KEY = "roomops.desk.drawings"  # the app's Drawings, in app.extensions
# A drawing is shared by the desks asking within this of its making: the re-reads one change sets
# off. A desk asking later is drawn the room as it is then, so what the server works out from the
# clock (R25's "note needed", R27's two hours) is never older than this on a desk just opened.
SHARED_FOR = timedelta(seconds=1)
WAIT_SECONDS = 30.0  # a desk waits this long for another's drawing, then makes its own


@dataclass
class Drawing:
    """The live part as ``body`` (``whole``); also as its ``head`` and each game's drawing with its
    key (a digest of what it shows), for desks that show some of them already (``besides``)."""

    tag: str
    at: datetime
    body: bytes = b""  # made from the head and games when first asked for (``whole``)
    encoded: dict[str, Encoded] = field(default_factory=dict)  # by Accept-Encoding
    head: str = ""
    games: tuple[tuple[str, str], ...] = ()  # (key, html), in the room's order
    # by the games a desk shows of it: what it is sent, and that compressed, by Accept-Encoding
    sent: dict[frozenset[str], tuple[bytes, dict[str, Encoded]]] = field(default_factory=dict)
    _sending: Lock = field(default_factory=Lock, repr=False, compare=False)

    def for_desk(self, shown: frozenset[str], encode: Callable[[bytes, dict[str, Encoded]], Encoded]
                 ) -> Encoded:
        """What a desk showing ``shown`` is sent (``besides``, or the body) as ``encode`` compresses
        it: made once for the desks that show the same games (after a change, all of them, woken
        together by the drawing: the others wait for the first's)."""
        same = frozenset(key for key, _html in self.games if key in shown)
        with self._sending:
            found = self.sent.get(same)
            if found is None:
                besides = self.besides(same)
                found = self.sent[same] = (self.whole(), self.encoded) if besides is None else (besides, {})
            return encode(*found)

    def whole(self) -> bytes:
        """The whole part: 3.5 MB in a 250-table room, joined only for a desk that shows none of
        its games (one just opened, the page): after a change, the desks are sent one game."""
        if not self.body:
            self.body = "".join([self.head, *(html for _key, html in self.games)]).encode()
        return self.body

    def besides(self, shown: frozenset[str]) -> bytes | None:
        """The drawing for a desk showing the games ``shown`` (their keys): each of those as an
        empty section with its key, which desk.js fills with its own. None when it shows none
        of them (the whole body is sent, compressed once for all)."""
        if not any(key in shown for key, _html in self.games):
            return None
        return "".join([self.head, *(f'{GAME}data-key="{key}" data-same></section>' if key in shown
                                     else html for key, html in self.games)]).encode()


class Drawings:
    """The latest drawing of each key (a room and the rights that see it), safe to share between
    the server's threads, the rooms' seats and lists they were drawn from (``rows``: each game
    read again only when its marks moved) and each game's drawn part (``parts``: drawn again only
    when something it shows may have changed, ``roomops.desk.parts``)."""

    def __init__(self) -> None:
        self.rows = KeptRows()
        self.parts = Parts()
        self._latest: dict[Hashable, Drawing] = {}
        self._making: dict[str, Event] = {}  # by tag: a drawing some thread is making now
        self._lock = Lock()

    def get(self, key: Hashable, tag: str, at: datetime, make: Callable[[], Drawing]) -> Drawing:
        """The drawing ``tag`` of ``key`` for a desk asking ``at``: kept, being made by another
        thread (waited for), or made now by ``make``."""
        while True:
            with self._lock:
                found = self._latest.get(key)
                if found is not None and found.tag == tag and at - found.at < SHARED_FOR:
                    return found
                making = self._making.get(tag)
                if making is None:
                    mine = self._making[tag] = Event()
                    break
            if not making.wait(WAIT_SECONDS):
                return make()
            with self._lock:
                found = self._latest.get(key)
            if found is not None and found.tag == tag:
                return found  # the one this desk waited for, however long its making took
            # its maker failed: look again (this desk may make it)
        try:
            drawing = make()
            with self._lock:
                self._latest[key] = drawing
            return drawing
        finally:
            with self._lock:
                del self._making[tag]
            mine.set()
