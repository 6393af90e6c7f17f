"""The outbox's sender: one thread per process that sends the texts queued by committed changes
(R20), woken after each commit that queued some, so a desk request never waits on the provider
(docs/messages.md, "Who sends").

Woken, it sends what is due (``send_due``: the texts just committed, and any retry whose time
came), oldest first; being woken again while it sends makes it look once more. It shares the
claims and leases of every sender, so several processes, or the sweep's own pass, never send one
text twice."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from roomops.messages.providers import Provider
from roomops.messages.sending import send_due

log = logging.getLogger("roomops.messages")


class Sender:
    def __init__(self, sessions: sessionmaker[Session], provider: Provider,
                 clock: Callable[[], datetime]) -> None:
        self.sessions, self.provider, self.clock = sessions, provider, clock
        self._woken = threading.Event()
        self._posted: list[Callable[[], None]] = []  # one-off texts (a code), sent as they come
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._done = threading.Condition()
        self._busy = False  # a pass is running, or due

    def wake(self) -> None:
        """After a commit that queued texts: send them on the sender's thread."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="roomops-sender", daemon=True)
                self._thread.start()
        self._woken.set()

    def post(self, work: Callable[[], None]) -> None:
        """A text that is not in the outbox (a code, R12), sent on the sender's thread."""
        with self._lock:
            self._posted.append(work)
        self.wake()

    def settled(self, timeout: float) -> bool:
        """Until every wake-up so far has had its pass (True), or ``timeout`` seconds (False)."""
        with self._done:
            return self._done.wait_for(lambda: not self._woken.is_set() and not self._busy,
                                       timeout)

    def _run(self) -> None:
        while True:
            self._woken.wait()
            with self._done:
                self._busy = True
                self._woken.clear()
            try:
                self._send()
            except Exception:  # the sweep sends what this pass could not (docs/messages.md)
                log.exception("the outbox's sender failed; the sweep will send what is due")
            with self._done:
                self._busy = self._woken.is_set()
                self._done.notify_all()

    def _send(self) -> None:
        with self._lock:
            posted, self._posted = self._posted, []
        for work in posted:
            work()
        with self.sessions() as session:
            send_due(session, self.provider, self.clock)
