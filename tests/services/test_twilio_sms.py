"""R20: the real Twilio adapter, through Twilio's own library, against a local server speaking
Twilio's Messages API (tests/fake_twilio.py): a text taken, a number refused, Twilio down, and
Twilio too slow for the timeout; and a text sent from the outbox through it."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from roomops.floor.handlers import session_factory
from roomops.messages import sending
from roomops.messages.courier import Courier
from roomops.messages.models import OutboxMessage
from roomops.messages.providers import SendFailed
from roomops.messages.settings import TwilioSettings
from roomops.messages.twilio_sms import TwilioSms
from tests.fake_twilio import (
    ACCOUNT,
    BROKEN,
    FROM,
    REFUSED,
    SLOW,
    TOKEN,
    fake_twilio,
    twilio_settings,
)
from tests.services.outbox_helpers import PHONE, join, messages, texted_player

CALLBACK = "https://poker.example/hooks/twilio/status"


@pytest.fixture()
def twilio():
    with fake_twilio() as fake:
        yield fake


def _adapter(url: str, **over) -> TwilioSms:
    return TwilioSms(twilio_settings(url, **over), CALLBACK)


def test_a_text_twilio_takes(twilio):
    accepted = _adapter(twilio.url).send(PHONE, "your seat is ready", 7)
    (seen,) = twilio.requests
    assert seen.path == f"/2010-04-01/Accounts/{ACCOUNT}/Messages.json"
    assert seen.form == {"To": PHONE, "From": FROM, "Body": "your seat is ready",
                         "StatusCallback": f"{CALLBACK}?message=7"}
    assert seen.user == ACCOUNT  # Basic auth: the account SID and its auth token
    assert accepted.provider_id and accepted.provider_id.startswith("SM")


def test_an_api_key_and_a_messaging_service(twilio):
    adapter = _adapter(twilio.url, api_key_sid="SK" + "2" * 32, api_key_secret="secret",
                       from_number="", messaging_service_sid="MG" + "3" * 32)
    adapter.send(PHONE, "hi", 1)
    (seen,) = twilio.requests
    assert seen.user == "SK" + "2" * 32 and seen.form["MessagingServiceSid"] == "MG" + "3" * 32
    assert "From" not in seen.form


@pytest.mark.parametrize(("number", "permanent", "reason"), [
    (REFUSED, True, "not a valid phone number (Twilio 21211)"),
    (BROKEN, False, "Internal Server Error (Twilio 20500)"),
    (SLOW, False, "Twilio did not answer (ReadTimeout)"),
])
def test_what_twilio_refuses_or_fails(twilio, number, permanent, reason):
    with pytest.raises(SendFailed) as failed:
        _adapter(twilio.url).send(number, "hi", 1)
    assert (failed.value.permanent, failed.value.reason) == (permanent, reason)


def test_a_half_configured_provider_is_refused_at_start():
    with pytest.raises(ValueError, match="AUTH_TOKEN"):
        TwilioSettings(account_sid=ACCOUNT, auth_token="").check()
    with pytest.raises(ValueError, match="FROM"):
        TwilioSettings(account_sid=ACCOUNT, auth_token=TOKEN, from_number="",
                       messaging_service_sid="").check()


@pytest.fixture()
def sessions(connection, twilio):
    return session_factory(connection, Courier(_adapter(twilio.url)),
                           join_transaction_mode="create_savepoint")


def test_r20_the_outbox_sends_through_twilio_and_retries_when_it_is_slow(room, session, now, twilio):
    game, ann = texted_player(room, session, now, phone=SLOW)
    join(room, session, now, game, ann)
    adapter = _adapter(twilio.url)
    assert sending.send_due(session, adapter, lambda: now) == 0
    (msg,) = messages(session)
    assert (msg.state, msg.last_error) == ("queued", "Twilio did not answer (ReadTimeout)")
    # Twilio answers in time again (the fake answers by the number texted)
    session.execute(update(OutboxMessage).values(number=PHONE))
    assert sending.send_due(session, adapter, lambda: msg.next_attempt_at) == 1
    (msg,) = messages(session)
    assert msg.state == "sent" and msg.provider_id.startswith("SM") and msg.attempts == 2
    assert twilio.requests[-1].form["StatusCallback"] == f"{CALLBACK}?message={msg.id}"
