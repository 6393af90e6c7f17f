"""The desk before the screens (issue 21: "the desk must not pay for the phones"): how many
requests this process is answering, for the publisher's thread to draw between them.

One interpreter runs a process's threads one at a time. While the publisher draws, a request
waits for the interpreter at each database call, and a burst of desk actions beside a pass of
drawing took 100-200 ms each (docs/benchmarks.md, "The desk beside the drawing"). So the
publisher draws a game at a time and, before each, waits until no request is being answered,
for at most ``PATIENCE`` seconds a pass: under a desk that never pauses, the screens are late
by that much, never stopped. Plain Python (threading)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # typeshed's WSGI types, as werkzeug's own middleware is typed
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

PATIENCE = 0.25  # seconds a pass may wait for the requests, in all


class InFlight:
    """A count of the requests being answered, and a wait for none."""

    def __init__(self) -> None:
        self._count = 0
        self._none = threading.Condition()

    def counted(self, app: WSGIApplication) -> WSGIApplication:
        """``app`` (a WSGI callable) counting its requests while the app answers them: not while
        the server sends a long body (a stream's events are sent after the answer returns)."""
        def wsgi_app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            with self._none:
                self._count += 1
            try:
                return app(environ, start_response)
            finally:
                with self._none:
                    self._count -= 1
                    if self._count == 0:
                        self._none.notify_all()
        return wsgi_app

    def busy(self) -> bool:
        return self._count > 0

    def wait_for_none(self, timeout: float) -> bool:
        """Wait until no request is being answered, ``timeout`` seconds at most; whether none is."""
        with self._none:
            return self._none.wait_for(lambda: self._count == 0, timeout)


class Patience:
    """One pass's allowance of waiting (``PATIENCE`` in all, however many waits)."""

    def __init__(self, inflight: InFlight, seconds: float = PATIENCE) -> None:
        self.inflight = inflight
        self.until = time.monotonic() + seconds

    def wait(self) -> None:
        """Let the requests being answered finish first, while the allowance lasts."""
        if self.inflight.busy():
            self.inflight.wait_for_none(max(0.0, self.until - time.monotonic()))
