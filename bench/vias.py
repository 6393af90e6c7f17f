"""The two ways a timed request reaches the app.

* ``client``: Flask's test client, in the benchmark's thread: the app's own cost, no network.
* ``server``: waitress serving the same app object, exactly as ``flask --app app serve`` builds
  it (``waitress.create_server`` with 8 threads, after ``gc.freeze()``), in a background thread
  on 127.0.0.1 and a free port, asked by ``http.client`` over one keep-alive connection: what a
  desk's browser or an integration waits for on the same machine.

Both send the same request (method, path, JSON body, the API token) and return the status, the
headers and the body once the whole answer has arrived.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import waitress
from flask import Flask
from waitress import wasyncore


@dataclass
class Request:
    method: str
    path: str
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class Via(Protocol):
    name: str

    def send(self, req: Request) -> Answer: ...


class ClientVia:
    """Flask's test client, no cookie jar (a token or nothing: no cookie to keep)."""

    name = "client"

    def __init__(self, app: Flask) -> None:
        self.client = app.test_client(use_cookies=False)

    def send(self, req: Request) -> Answer:
        resp = self.client.open(req.path, method=req.method, json=req.body, headers=req.headers)
        return Answer(resp.status_code, dict(resp.headers), resp.get_data())


class ServerVia:
    """One keep-alive HTTP/1.1 connection to the waitress server."""

    name = "server"

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(self, req: Request) -> Answer:
        headers = dict(req.headers)
        payload = None
        if req.body is not None:
            payload = json.dumps(req.body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(req.method, req.path, body=payload, headers=headers)
        resp = self.conn.getresponse()
        body = resp.read()
        return Answer(resp.status, dict(resp.getheaders()), body)

    def close(self) -> None:
        self.conn.close()


@contextmanager
def served(app: Flask, threads: int = 8) -> Iterator[ServerVia]:
    """waitress serving ``app`` in a background thread on a free port, as ``serve`` runs it; the
    caller freezes what start-up built (``gc.freeze()``) as ``serve`` does just before serving."""
    server: Any = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads,
                                         ident="roomops")
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    via = ServerVia(server.effective_port)
    try:
        yield via
    finally:
        via.close()
        server.task_dispatcher.shutdown()
        # closed from the loop's own thread (waitress's trigger runs the function there): closed
        # from this one, a socket went under the loop's select() (EBADF, printed as the thread
        # died); the loop ends once nothing is left open
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        thread.join(timeout=10)
