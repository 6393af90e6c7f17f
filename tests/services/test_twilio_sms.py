"""R20: the real Twilio adapter, through Twilio's own library, against a local server speaking
Twilio's Messages API (tests/fake_twilio.py): a text taken, a number refused, Twilio down, and
Twilio too slow for the timeout; a text sent from the outbox through it; and a text whose send
had no recorded outcome (a killed sender, a lost answer) looked up in Twilio's list before it is
sent again (R20, one text per offer)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from roomops.lists import services as lists
from roomops.messages import sending
from roomops.messages.courier import Courier
from roomops.messages.models import OutboxMessage
from roomops.messages.providers import SendFailed
from roomops.messages.rules import LEASE
from roomops.messages.settings import TwilioSettings
from roomops.messages.twilio_sms import LOOKBACK, TwilioSms
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
from tests.services.helpers import full_game
from tests.services.outbox_helpers import PHONE, join, messages, texted_player
from tests.units import act

CALLBACK = "https://poker.example/hooks/twilio/status"
S = timedelta(seconds=1)


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
def courier(twilio):
    return Courier(_adapter(twilio.url))


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


class Killed(BaseException):
    """The sending process killed: not an error the sender handles, nothing after it runs."""


OFFERS, KILLED_AFTER = 21, 11


def _offered(room, session, now, count: int) -> list[str]:
    """``count`` (at most 27) players with numbers of their own, each offered a seat (R20):
    their numbers."""
    game, _table = full_game(room, session, now, free=9)
    for name in ("2", "3"):  # empty tables: 27 seats open
        room.table(now, game, name)
    numbers = [f"+4477009{i:05d}" for i in range(count)]
    for i, number in enumerate(numbers):
        player = room.player(now, f"W{i}")
        player.phone = number
        act(session, room.sup, now, lists.join, player_id=player.id, game_id=game.id)
    session.commit()
    return numbers


def test_r20_a_sender_killed_after_twilio_took_a_text_texts_once_after_restart(
        room, session, now, twilio, monkeypatch):
    """The audit's kill mid-send (issue 40): the sender dies between Twilio taking the 11th of 21
    texts and recording it. Restarted, the sweep claims that text again once its lease runs out,
    finds it in Twilio's list of the number's messages and records it without a second send."""
    twilio.clock = lambda: now
    numbers = _offered(room, session, now, OFFERS)
    adapter, record = _adapter(twilio.url), sending.record_sent
    recorded: list[int] = []

    def killed_after(*args, **kwargs):
        if len(recorded) == KILLED_AFTER - 1:
            raise Killed  # Twilio has the text; its row still says "sending"
        recorded.append(1)
        record(*args, **kwargs)

    monkeypatch.setattr(sending, "record_sent", killed_after)
    with pytest.raises(Killed):
        sending.send_due(session, adapter, lambda: now, limit=OFFERS)
    session.rollback()
    monkeypatch.setattr(sending, "record_sent", record)
    later = now + LEASE
    assert sending.send_due(session, adapter, lambda: later, limit=OFFERS) == OFFERS - KILLED_AFTER + 1
    assert [twilio.sent_to(n) for n in numbers] == [1] * OFFERS  # one text per offer
    texts = messages(session)
    assert {m.state for m in texts} == {"sent"}
    taken = {m["to"]: m["sid"] for m in twilio.messages}
    assert all(m.provider_id == taken[m.number] for m in texts)


def test_r20_a_text_twilio_took_while_its_answer_timed_out_is_not_sent_again(
        room, session, now, twilio):
    """The answer lost to the timeout: Twilio kept the text, so the retry finds it there."""
    twilio.clock = lambda: now
    game, ann = texted_player(room, session, now, phone=SLOW)
    join(room, session, now, game, ann)
    adapter = _adapter(twilio.url)
    assert sending.send_due(session, adapter, lambda: now) == 0
    (msg,) = messages(session)
    assert sending.send_due(session, adapter, lambda: msg.next_attempt_at) == 1
    (msg,) = messages(session)
    assert twilio.sent_to(SLOW) == 1 and msg.state == "sent"
    assert msg.provider_id == twilio.messages[0]["sid"]


def test_a_text_to_the_same_number_before_this_one_was_queued_is_not_taken_for_it(
        room, session, now, twilio):
    """Twilio's list is matched by number, words and time: the same words sent to the number
    before the text was queued (beyond the clocks' skew) are another text."""
    adapter = _adapter(twilio.url)
    twilio.clock = lambda: now - sending.CLOCK_SKEW - S
    game, ann = texted_player(room, session, now)
    join(room, session, now, game, ann)
    (msg,) = messages(session)
    adapter.send(PHONE, msg.body, 0)  # an older text with the same words
    sending.claim_one(session, now, msg.id)  # a sender that stopped before it sent
    session.commit()
    twilio.clock = lambda: now + LEASE
    assert sending.send_due(session, adapter, lambda: now + LEASE) == 1
    assert twilio.sent_to(PHONE) == 2
    assert [r.method for r in twilio.requests] == ["POST", "GET", "POST"]
    assert twilio.requests[1].form == {"To": PHONE, "PageSize": str(LOOKBACK)}
    (msg,) = messages(session)
    assert (msg.state, msg.provider_id) == ("sent", twilio.messages[1]["sid"])
