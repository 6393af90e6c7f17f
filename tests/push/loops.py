"""An asyncio test's own event loop, on a thread of its own: Playwright's sync API, when browser
tests ran first in this process, leaves an event loop running on the main thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any

LOOP_SECONDS = 60  # far beyond any of these tests; a loop still running then is a hang


def in_own_loop(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` on a daemon thread, waited for ``LOOP_SECONDS`` at most: a loop that
    never ends fails its test, and holds neither the run nor the test process's exit (a pool's
    thread would be joined for ever at both)."""
    ended: list[BaseException | None] = []

    def run() -> None:
        try:
            asyncio.run(main())
        except BaseException as err:  # the test's failure, raised again on the test's thread
            ended.append(err)
        else:
            ended.append(None)

    thread = threading.Thread(target=run, name="test-loop", daemon=True)
    thread.start()
    thread.join(LOOP_SECONDS)
    assert ended, f"the test's event loop was still running after {LOOP_SECONDS} s"
    if ended[0] is not None:
        raise ended[0]
