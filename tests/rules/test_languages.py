"""Issue 21: which language a player page is drawn in (``roomops.rooms.languages.choose``, pure):
the player's explicit choice, else the browser's best supported language, else the room's."""

from __future__ import annotations

import pytest

from roomops.rooms.languages import DEFAULT, LANGUAGES, choose, supported


def test_the_supported_languages_are_english_german_and_italian_english_the_default():
    assert LANGUAGES == ("en", "de", "it") and DEFAULT == "en"
    assert supported("DE") == "de" and supported(" it ") == "it"
    assert supported("fr") is None and supported("") is None and supported(None) is None


@pytest.mark.parametrize(("explicit", "accept", "room", "chosen"), [
    ("de", "it,en;q=0.5", "en", "de"),  # the player's choice first
    ("IT", None, "de", "it"),
    ("fr", "de", "en", "de"),  # a choice of no supported language counts for nothing
    (None, "it-CH,de;q=0.8", "en", "it"),  # the browser's: a regional tag is its language
    (None, "fr-FR,fr;q=0.9,de;q=0.7,it;q=0.6", "en", "de"),  # ranked by q
    (None, "de;q=0.2,it;q=0.9", "en", "it"),
    (None, "fr,es", "it", "it"),  # no match: the room's default
    (None, "*", "de", "de"),  # any language: the room's
    (None, "", "de", "de"),
    (None, None, "it", "it"),
    (None, "not a header ;;;", "de", "de"),
    (None, None, "xx", "en"),  # a room default no longer supported reads as English
])
def test_issue21_the_explicit_choice_then_the_browser_then_the_room(explicit, accept, room, chosen):
    assert choose(explicit, accept, room) == chosen
