"""The desk before the screens (issue 21): the requests a process is answering are counted, and
the publisher's pass waits for none of them, within its allowance, before each step. Plain
threading: the waits are bounded by events, never by sleeping."""

from __future__ import annotations

import sys
import threading

import pytest

from roomops.push.embedded import KEY
from roomops.push.inflight import InFlight, Patience
from roomops.runtime import SWITCH_SECONDS, favour_waiting_threads


def answering(inflight: InFlight, release: threading.Event) -> threading.Thread:
    """A request being answered in a thread of its own until ``release`` is set."""
    started = threading.Event()

    def app(environ, start_response):
        started.set()
        release.wait(10)
        return [b"ok"]

    thread = threading.Thread(target=inflight.counted(app), args=({}, None))
    thread.start()
    assert started.wait(10)
    return thread


def test_a_request_is_counted_while_the_app_answers_it_and_not_after():
    inflight, release = InFlight(), threading.Event()
    thread = answering(inflight, release)
    assert inflight.busy()
    assert inflight.wait_for_none(0) is False
    release.set()
    thread.join(10)
    assert not inflight.busy() and inflight.wait_for_none(0) is True


def test_a_request_that_fails_is_counted_out_too():
    inflight = InFlight()

    def app(environ, start_response):
        raise RuntimeError("the view failed")

    with pytest.raises(RuntimeError):
        inflight.counted(app)({}, None)
    assert not inflight.busy()


def test_the_last_request_to_end_wakes_the_waiting_pass():
    inflight, release = InFlight(), threading.Event()
    thread = answering(inflight, release)
    woke: list[bool] = []
    waiter = threading.Thread(target=lambda: woke.append(inflight.wait_for_none(30)))
    waiter.start()
    release.set()
    waiter.join(30)
    thread.join(10)
    assert woke == [True]


def test_a_pass_whose_allowance_is_spent_goes_on_beside_the_requests():
    """Under a desk that never pauses the screens are late by the allowance, never stopped."""
    inflight, release = InFlight(), threading.Event()
    thread = answering(inflight, release)
    try:
        Patience(inflight, seconds=0).wait()  # returns at once: nothing spent waiting
        assert inflight.busy()
    finally:
        release.set()
        thread.join(10)


def test_a_process_that_draws_beside_its_requests_hands_the_interpreter_over_often():
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)  # CPython's default
        favour_waiting_threads()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_SECONDS) and SWITCH_SECONDS < 0.005
    finally:
        sys.setswitchinterval(before)


def test_the_app_counts_the_request_it_answers_for_its_publisher(app, client, monkeypatch):
    """The app's own requests are what the publisher waits for (roomops.push.embedded)."""
    inflight = app.extensions[KEY].publisher.inflight
    seen: list[bool] = []
    monkeypatch.setitem(app.view_functions, "board.index",
                        lambda: seen.append(inflight.busy()) or "a view answering")
    assert client.get("/board").text == "a view answering"
    assert seen == [True] and not inflight.busy()
