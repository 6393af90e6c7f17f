"""A local server speaking Twilio's Messages API (``POST /2010-04-01/Accounts/{sid}/Messages.json``)
as Twilio answers it, for the real adapter and Twilio's own library to talk to in tests.

By the number texted: ``REFUSED`` gets Twilio's 400 for a number it cannot text (21211),
``BROKEN`` a 500, ``SLOW`` its answer only after ``SLOW_SECONDS`` (the text taken at once); any
other a 201 with the new message resource, kept. ``GET …/Messages.json`` lists the kept messages
as Twilio does: newest first, filtered by ``To``, one page of ``PageSize``. Requests are kept
(method, path, form fields or query, the Basic auth user); ``clock`` dates the messages (the
tests' clock, or the wall's)."""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from roomops.messages.settings import TwilioSettings

ACCOUNT = "AC" + "0" * 31 + "1"
TOKEN = "test-auth-token"
FROM = "+15005550006"
REFUSED, BROKEN, SLOW = "+15005550001", "+15005550002", "+15005550003"
SLOW_SECONDS = 1.5


@dataclass
class Seen:
    path: str
    form: dict[str, str]
    user: str
    method: str = "POST"


def _wall() -> datetime:
    return datetime.now(UTC)


@dataclass
class FakeTwilio:
    url: str
    requests: list[Seen] = field(default_factory=list)
    messages: list[dict[str, object]] = field(default_factory=list)
    clock: Callable[[], datetime] = _wall

    def sent_to(self, number: str) -> int:
        """How many texts were sent (POSTed and taken) to ``number``."""
        return sum(m["to"] == number for m in self.messages)


def _message(account: str, form: dict[str, str], when: datetime) -> dict[str, object]:
    sid = "SM" + uuid.uuid4().hex
    date = format_datetime(when.astimezone(UTC), usegmt=True)
    return {
        "account_sid": account, "api_version": "2010-04-01", "body": form.get("Body", ""),
        "date_created": date, "date_sent": None,
        "date_updated": date, "direction": "outbound-api",
        "error_code": None, "error_message": None, "from": form.get("From"),
        "messaging_service_sid": form.get("MessagingServiceSid"), "num_media": "0",
        "num_segments": "1", "price": None, "price_unit": "USD", "sid": sid,
        "status": "accepted" if form.get("MessagingServiceSid") else "queued",
        "subresource_uris": {"media": f"/2010-04-01/Accounts/{account}/Messages/{sid}/Media.json"},
        "to": form.get("To"), "uri": f"/2010-04-01/Accounts/{account}/Messages/{sid}.json",
    }


def _error(code: int, status: int, message: str) -> dict[str, object]:
    return {"code": code, "message": message, "more_info": f"https://www.twilio.com/docs/errors/{code}",
            "status": status}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def _seen(self, method: str, form: dict[str, str]) -> list[str] | None:
        """The request kept; the path's parts when it names an account's messages, else None
        (answered 404)."""
        auth = self.headers.get("Authorization", "")
        user = base64.b64decode(auth.removeprefix("Basic ")).decode().split(":")[0] if auth else ""
        path = urlsplit(self.path).path
        self.server.fake.requests.append(Seen(path, form, user, method))
        parts = path.split("/")
        if len(parts) != 5 or parts[1] != "2010-04-01" or parts[4] != "Messages.json":
            self._answer(404, _error(20404, 404, "The requested resource was not found"))
            return None
        return parts

    def do_GET(self) -> None:
        query = {k: v[0] for k, v in parse_qs(urlsplit(self.path).query).items()}
        parts = self._seen("GET", query)
        if parts is None:
            return
        size = int(query.get("PageSize", "50"))
        found = [m for m in reversed(self.server.fake.messages)
                 if m["account_sid"] == parts[3] and query.get("To") in (None, m["to"])]
        uri = f"/2010-04-01/Accounts/{parts[3]}/Messages.json"
        self._answer(200, {"messages": found[:size], "end": min(size, len(found)) - 1,
                           "first_page_uri": uri, "next_page_uri": None, "page": 0,
                           "page_size": size, "previous_page_uri": None, "start": 0,
                           "uri": uri})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        parts = self._seen("POST", form)
        if parts is None:
            return
        to = form.get("To", "")
        if to == REFUSED:
            return self._answer(400, _error(21211, 400, f"The 'To' number {to} is not a valid "
                                                        "phone number."))
        if to == BROKEN:
            return self._answer(500, _error(20500, 500, "Internal Server Error"))
        message = _message(parts[3], form, self.server.fake.clock())
        self.server.fake.messages.append(message)  # taken, even when the answer comes too late
        if to == SLOW:
            time.sleep(SLOW_SECONDS)
        return self._answer(201, message)

    def _answer(self, status: int, body: dict[str, object]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with suppress(BrokenPipeError, ConnectionResetError):  # the client timed out and left
            self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakeTwilio


@contextmanager
def fake_twilio() -> Iterator[FakeTwilio]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.fake = FakeTwilio(f"http://127.0.0.1:{server.server_address[1]}")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def twilio_settings(url: str, **over: object) -> TwilioSettings:
    """A provider pointed at the fake (every field given: nothing read from the environment)."""
    values: dict[str, object] = {
        "account_sid": ACCOUNT, "auth_token": TOKEN, "api_key_sid": "", "api_key_secret": "",
        "from_number": FROM, "messaging_service_sid": "", "status_callback_url": "",
        "api_base": url, "timeout_seconds": 0.5}
    return TwilioSettings(**{**values, **over})
