"""Texts through Twilio's Messages API, with Twilio's own Python library (docs/messages.md).

The library is Twilio's supported client: it speaks the API (form fields, auth, errors as
``TwilioRestException``) and its ``RequestValidator`` checks the signature of Twilio's delivery
reports. ``api_base`` points it at another server speaking the same API (the tests' fake Twilio)
through a custom ``http_client``, the hook Twilio documents for proxies and mocks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import urlencode

import requests
from twilio.base.exceptions import TwilioException, TwilioRestException
from twilio.http.http_client import TwilioHttpClient
from twilio.request_validator import RequestValidator
from twilio.rest import Client

from roomops.messages.providers import Accepted, SendFailed
from roomops.messages.settings import TwilioSettings

TWILIO_API = "https://api.twilio.com"
# how many of a number's latest messages are read to find a text already taken: one page, newest
# first; a player gets a handful of texts a night
LOOKBACK = 50
T = TypeVar("T")
# Twilio's error codes a desk reads most often, in words (www.twilio.com/docs/api/errors)
ERRORS = {
    21211: "not a valid phone number", 21408: "the room's account cannot text that country",
    21610: "the player has opted out (STOP)", 21614: "not a mobile number",
    30003: "phone unreachable", 30004: "blocked by the player", 30005: "unknown number",
    30006: "landline or unreachable carrier", 30007: "filtered by the carrier",
    30008: "not delivered (unknown reason)",
}


def error_text(code: int | str | None, message: str = "") -> str:
    """A Twilio error in the desk's words, with its code for looking it up."""
    try:
        number = int(code) if code is not None else None
    except ValueError:
        number = None
    words = ERRORS.get(number) if number is not None else None
    return f"{words or message or 'refused by Twilio'} (Twilio {code})" if code else (
        message or "refused by Twilio")


class _Rebased(TwilioHttpClient):  # type: ignore[misc]  # twilio ships no type information
    """Twilio's HTTP client, sending what it would send to api.twilio.com to ``base`` instead."""

    def __init__(self, base: str, timeout: float) -> None:
        super().__init__(timeout=timeout)
        self.base = base.rstrip("/")

    def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        if url.startswith(TWILIO_API):
            url = self.base + url[len(TWILIO_API):]
        return super().request(method, url, *args, **kwargs)


class TwilioSms:
    """The real provider: one ``Messages.create`` per text, within ``timeout_seconds``."""

    configured = True

    def __init__(self, settings: TwilioSettings, status_callback_url: str) -> None:
        settings.check()
        self.settings, self.status_callback_url = settings, status_callback_url
        http = (_Rebased(settings.api_base, settings.timeout_seconds) if settings.api_base
                else TwilioHttpClient(timeout=settings.timeout_seconds))
        self.client = Client(settings.api_key_sid or settings.account_sid,
                             settings.api_key_secret or settings.auth_token,
                             account_sid=settings.account_sid, http_client=http)

    def send(self, number: str, body: str, message_id: int) -> Accepted:
        sender: dict[str, str] = ({"messaging_service_sid": self.settings.messaging_service_sid}
                                  if self.settings.messaging_service_sid
                                  else {"from_": self.settings.from_number})
        message = _asked(lambda: self.client.messages.create(
            to=number, body=body, status_callback=callback_url(self.status_callback_url,
                                                               message_id), **sender))
        if message.status in ("failed", "undelivered"):
            raise SendFailed(error_text(message.error_code, str(message.error_message or "")),
                             permanent=True)
        return Accepted(str(message.sid) if message.sid else None)

    def taken_before(self, number: str, body: str, since: datetime) -> Accepted | None:
        """Twilio lists an account's messages by recipient (``To``), newest first: the one with
        this very body created since ``since``. Not filtered by ``DateSent``, which Twilio sets
        only once it has handed the text on: one still in its queue has none. A failure to list
        is never final (the text is tried again later)."""
        try:
            found = _asked(lambda: self.client.messages.list(to=number, limit=LOOKBACK,
                                                             page_size=LOOKBACK))
        except SendFailed as exc:
            raise SendFailed(exc.reason, permanent=False) from exc
        for message in found:
            created = message.date_created
            if message.body == body and created is not None and created >= since:
                return Accepted(str(message.sid) if message.sid else None)
        return None


def _asked(call: Callable[[], T]) -> T:
    """A call to Twilio, its failures as ``SendFailed``: a 4xx is Twilio refusing, and it will
    again; a 429, a 5xx, a timeout or no answer may pass."""
    try:
        return call()
    except TwilioRestException as exc:
        permanent = 400 <= exc.status < 500 and exc.status != 429
        message = str(exc.msg).removeprefix("Unable to create record: ")  # the library's words
        raise SendFailed(error_text(exc.code, message), permanent=permanent) from exc
    except (requests.RequestException, TwilioException) as exc:
        raise SendFailed(f"Twilio did not answer ({type(exc).__name__})", permanent=False) from exc


def callback_url(base: str, message_id: int) -> str:
    """Twilio's delivery report comes back to ``base`` naming the outbox row, so a report that
    arrives before the send's answer is recorded still finds its message."""
    return f"{base}{'&' if '?' in base else '?'}{urlencode({'message': message_id})}"


def valid_signature(settings: TwilioSettings, url: str, params: Mapping[str, str],
                    signature: str) -> bool:
    """Whether Twilio signed this request (``X-Twilio-Signature``) with the account's auth token."""
    if not settings.auth_token or not signature:
        return False
    return bool(RequestValidator(settings.auth_token).validate(url, dict(params), signature))
