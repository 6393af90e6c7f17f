"""R10 (issue 20): a player being added who may already be known, by name or phone, with no
database."""

from __future__ import annotations

import pytest

from roomops.rooms.twins import Known, LikelyTwin, name_key, phone_key, region_of, twins_of

ANN = Known(1, "Ann", "Smith", "07700 900123")
BOB = Known(2, "Bob", "Jones", None)
ZOE = Known(3, "Zoë", "Ærø", "+41 44 668 18 00")


def new(first: str, last: str = "", phone: str | None = None) -> Known:
    return Known(0, first, last, phone)


@pytest.mark.parametrize("typed", [("Ann", "Smith"), ("  ann ", "SMITH"), ("Ann Smith", ""),
                                   ("ann", "  smith  ")])
def test_r10_the_same_name_in_any_case_or_spacing_is_a_twin(typed):
    (twin,) = twins_of(new(*typed), [ANN, BOB], "GB")
    assert (twin.player, twin.matched) == (ANN, "name")


def test_r10_names_fold_beyond_ascii_and_keep_their_accents():
    assert [t.player for t in twins_of(new("ZOË", "ÆRØ"), [ZOE], "GB")] == [ZOE]
    assert twins_of(new("Zoe", "Aero"), [ZOE], "GB") == []


@pytest.mark.parametrize("phone", ["07700900123", "+44 7700 900123", "0044 7700-900-123",
                                   "(07700) 900 123"])
def test_r10_the_same_number_written_another_way_is_a_twin(phone):
    (twin,) = twins_of(new("Annie", "S", phone), [ANN, BOB], "GB")
    assert (twin.player, twin.matched) == (ANN, "phone")


def test_r10_name_and_phone_both_say_so_and_every_candidate_is_given():
    ann2 = Known(4, "ann", "smith", None)
    found = twins_of(new("Ann", "Smith", "+447700900123"), [ANN, BOB, ann2], "GB")
    assert [(t.player.id, t.matched) for t in found] == [(1, "name and phone"), (4, "name")]


def test_r10_other_names_and_numbers_are_not_twins():
    assert twins_of(new("Ann", "Smyth", "07700 900124"), [ANN, BOB], "GB") == []
    assert twins_of(new("Bob", "Jonas"), [ANN, BOB], "GB") == []
    # no phone typed never matches a player without one
    assert twins_of(new("Carl", "", None), [BOB], "GB") == []
    assert twins_of(new("Carl", "", "ask at the bar"), [Known(5, "Dee", "", "none")], "GB") == []


def test_r10_phone_keys_read_the_rooms_country_and_fall_back_to_digits():
    assert phone_key("044 668 18 00", "CH") == phone_key("+41 44 668 18 00", "GB") == "+41446681800"
    assert phone_key("12", "GB") == "12"  # not a possible number: its digits
    assert phone_key("", "GB") is None and phone_key(None, "GB") is None
    assert phone_key("n/a", "GB") is None
    assert name_key(" Ann ", " Smith ") == "ann smith"


@pytest.mark.parametrize(("locale", "region"), [("en_GB", "GB"), ("de-CH", "CH"), ("fr", "ZZ"),
                                                ("en_001", "ZZ")])
def test_r10_the_rooms_country_comes_from_its_locale(locale, region):
    assert region_of(locale) == region


def test_r10_the_refusal_names_the_candidates_for_the_api():
    err = LikelyTwin(twins_of(new("Ann", "Smith"), [ANN], "GB"))
    assert err.status == 409 and err.rule == "R10"
    assert "did you mean Ann Smith (#1, same name)" in err.message and "create_anyway" in err.message
    assert err.extra == {"candidates": [{"id": 1, "name": "Ann Smith", "matched": "name"}]}
