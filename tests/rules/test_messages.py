"""R20: the outbox's pure rules: back-off, what the text says, how the desk reads its state."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from roomops.messages.rules import (
    LONGEST_RETRY,
    MAX_ATTEMPTS,
    MOVES_FROM,
    PROVIDER_STATES,
    OfferText,
    after_failure,
    desk_label,
    retry_delay,
)
from roomops.messages.twilio_sms import callback_url, error_text
from roomops.rooms.languages import LANGUAGES
from roomops.words import translator

NOW = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def test_back_off_doubles_and_is_capped():
    assert [retry_delay(n).total_seconds() for n in range(1, 6)] == [15, 30, 60, 120, 120]
    assert retry_delay(40) == LONGEST_RETRY


def test_a_passing_failure_is_queued_again_until_the_last_attempt():
    again = after_failure(1, NOW, permanent=False)
    assert again.state == "queued" and again.retry_at == NOW + timedelta(seconds=15)
    assert after_failure(MAX_ATTEMPTS, NOW, permanent=False).state == "failed"


def test_a_refusal_fails_at_once():
    assert after_failure(1, NOW, permanent=True) == after_failure(1, NOW, True)
    assert after_failure(1, NOW, permanent=True).state == "failed"
    assert after_failure(1, NOW, permanent=True).retry_at is None


def test_r20_the_text_names_room_game_table_seat_and_the_local_claim_time():
    text = OfferText("Room main", "NL Hold'em 1/2", "7", 3, NOW + timedelta(minutes=10),
                     "Europe/London", "https://poker.example/board/main").body()
    assert text == ("Room main: your seat is ready. NL Hold'em 1/2, table 7, seat 3. Claim it at "
                    "the desk by 20:10, or it goes to the next player. "
                    "https://poker.example/board/main")
    # the room's clock, not UTC: 20:10 UTC is 21:10 in Rome in November
    assert "by 21:10" in OfferText("R", "G", "1", 1, NOW + timedelta(minutes=10), "Europe/Rome").body()
    assert len(text) <= 306  # two SMS segments


def test_issue21_the_text_in_the_players_language_the_rooms_names_as_written():
    offer = OfferText("Sala Roma", "NL Hold'em €1/€2", "7", 3, NOW + timedelta(minutes=10),
                      "Europe/Rome", "https://poker.example/board/roma/me")
    assert offer.body(translator("de")) == (
        "Sala Roma: Ihr Platz ist frei. NL Hold'em €1/€2, Tisch 7, Platz 3. Melden Sie sich bis "
        "21:10 Uhr am Desk, sonst geht er an den nächsten Spieler. "
        "https://poker.example/board/roma/me")
    assert offer.body(translator("it")).startswith(
        "Sala Roma: il tuo posto è pronto. NL Hold'em €1/€2, tavolo 7, posto 3. Prendilo al desk "
        "entro le 21:10")
    assert offer.body(translator("en")) == offer.body()
    for lang in LANGUAGES:  # two SMS segments, even with a long room name and address
        long = OfferText("R" * 40, "G" * 30, "12", 10, NOW, "UTC", "https://" + "x" * 50)
        assert len(long.body(translator(lang))) <= 306


@pytest.mark.parametrize(("state", "error", "label"), [
    ("queued", None, "text queued"),
    ("queued", "Twilio did not answer (ReadTimeout)", "text queued: Twilio did not answer (ReadTimeout)"),
    ("sending", None, "text sending"),
    ("sent", None, "text sent"),
    ("delivered", None, "text delivered"),
    ("failed", "phone unreachable (Twilio 30003)", "text failed: phone unreachable (Twilio 30003)"),
    ("not_sent", "no phone number", "no text: no phone number"),
    ("not_sent", "no text-message provider", None),  # a room without texts sees no tags
    ("cancelled", None, None),
    (None, None, None),
])
def test_the_desk_reads_each_state(state, error, label):
    assert desk_label(state, error) == label


def test_issue40_a_player_without_a_usable_number_is_said_once():
    """The offer's list entry says it; the seat's tile (``said_elsewhere``) does not."""
    for error in ("no phone number", "phone number not readable"):
        assert desk_label("not_sent", error, said_elsewhere=True) is None
        assert desk_label("not_sent", error) == f"no text: {error}"
    assert desk_label("failed", "phone unreachable", said_elsewhere=True) == (
        "text failed: phone unreachable")


def test_reports_move_a_text_only_forward():
    assert PROVIDER_STATES["undelivered"] == "failed" and "queued" not in PROVIDER_STATES
    assert "delivered" not in MOVES_FROM["failed"] and "failed" not in MOVES_FROM["delivered"]


def test_twilio_errors_in_words_and_the_report_names_its_row():
    assert error_text(30003) == "phone unreachable (Twilio 30003)"
    assert error_text("99999", "odd") == "odd (Twilio 99999)"
    assert callback_url("https://x.example/hooks/twilio/status", 12) == (
        "https://x.example/hooks/twilio/status?message=12")
