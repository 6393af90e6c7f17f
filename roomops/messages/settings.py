"""The text-message provider's settings, read from the environment with the app's (docs/messages.md).

With no account SID the room has no provider: offers are texted to nobody (``LogOnly``)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


@dataclass(frozen=True)
class TwilioSettings:
    """Twilio's Messages API: the account, how the app authenticates (the auth token, or an API
    key and its secret), who the text is from (a number, or a messaging service), where Twilio
    reports delivery (empty: the deployment's public URL + ``/hooks/twilio/status``) and how long
    a send may take before it is tried again later."""

    account_sid: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_ACCOUNT_SID"))
    auth_token: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_AUTH_TOKEN"))
    api_key_sid: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_API_KEY_SID"))
    api_key_secret: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_API_KEY_SECRET"))
    from_number: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_FROM"))
    messaging_service_sid: str = field(
        default_factory=lambda: _env("ROOMOPS_TWILIO_MESSAGING_SERVICE_SID"))
    status_callback_url: str = field(
        default_factory=lambda: _env("ROOMOPS_TWILIO_STATUS_CALLBACK_URL"))
    # another address speaking Twilio's API (a test server, an egress proxy); empty: Twilio's own
    api_base: str = field(default_factory=lambda: _env("ROOMOPS_TWILIO_API_BASE"))
    timeout_seconds: float = field(
        default_factory=lambda: float(os.environ.get("ROOMOPS_SMS_TIMEOUT_SECONDS", "3")))

    @property
    def configured(self) -> bool:
        return bool(self.account_sid)

    def check(self) -> None:
        """Refuse a half-configured provider at start-up rather than at the first offer."""
        if not self.configured:
            return
        if not self.auth_token:
            raise ValueError("ROOMOPS_TWILIO_AUTH_TOKEN is needed with ROOMOPS_TWILIO_ACCOUNT_SID "
                             "(it signs Twilio's delivery reports, even when an API key sends)")
        if bool(self.api_key_sid) != bool(self.api_key_secret):
            raise ValueError("ROOMOPS_TWILIO_API_KEY_SID and ROOMOPS_TWILIO_API_KEY_SECRET go "
                             "together")
        if not (self.from_number or self.messaging_service_sid):
            raise ValueError("set ROOMOPS_TWILIO_FROM or ROOMOPS_TWILIO_MESSAGING_SERVICE_SID: "
                             "who the texts are from")
        if self.timeout_seconds <= 0:
            raise ValueError("ROOMOPS_SMS_TIMEOUT_SECONDS must be more than 0")
