"""R61: the public screens show no more of a name than the room's display-name policy allows."""

from __future__ import annotations

import unicodedata

import pytest

from roomops.board.names import NO_NAME, POLICIES, public_name
from roomops.rooms.models import DISPLAY_NAMES


def test_r61_policies_match_the_rooms_setting():
    assert set(POLICIES) == set(DISPLAY_NAMES)


@pytest.mark.parametrize("policy,expected", [
    ("full", "Ana Silva"),
    ("first_initial", "Ana S."),
    ("initials", "A.S."),
])
def test_r61_each_policy(policy, expected):
    assert public_name("Ana", "Silva", policy) == expected


@pytest.mark.parametrize("policy", ["first_initial", "initials"])
def test_r61_last_name_never_shown_unless_full(policy):
    assert "Silva" not in public_name("Ana", "Silva", policy)


def test_r61_initials_hide_the_first_name_too():
    assert "Ana" not in public_name("Ana", "Silva", "initials")


@pytest.mark.parametrize("policy,expected", [
    ("full", "Ana"), ("first_initial", "Ana"), ("initials", "A."),
])
def test_r61_no_last_name(policy, expected):
    assert public_name("Ana", "", policy) == expected
    assert public_name("Ana", "   ", policy) == expected


@pytest.mark.parametrize("policy,expected", [
    ("full", "ana silva"), ("first_initial", "ana S."), ("initials", "A.S."),
])
def test_r61_lower_case_names_keep_their_spelling_initials_are_capitals(policy, expected):
    assert public_name("ana", "silva", policy) == expected


@pytest.mark.parametrize("policy,expected", [
    ("full", "Mary Ann van der Berg"), ("first_initial", "Mary Ann V."), ("initials", "M.V."),
])
def test_r61_whitespace_collapses_and_multi_word_names(policy, expected):
    assert public_name("  Mary \t Ann ", " van  der\nBerg ", policy) == expected


@pytest.mark.parametrize("first,last,policy,expected", [
    ("Émile", "Zoë", "first_initial", "Émile Z."),
    ("Łukasz", "Żółć", "initials", "Ł.Ż."),
    ("Øyvind", "Ørsted", "full", "Øyvind Ørsted"),
    ("陈", "伟", "initials", "陈.伟."),
    ("Ахмед", "Баширов", "first_initial", "Ахмед Б."),
    ("ömer", "çelik", "initials", "Ö.Ç."),
])
def test_r61_non_ascii_names(first, last, policy, expected):
    assert public_name(first, last, policy) == expected


def test_r61_decomposed_accents_keep_the_accent_on_the_initial():
    first, last = unicodedata.normalize("NFD", "Émile"), unicodedata.normalize("NFD", "Élan")
    assert public_name(first, last, "initials") == "É.É."
    assert public_name(first, last, "first_initial") == "Émile É."


@pytest.mark.parametrize("last,expected", [
    ("O'Brien", "Sean O."), ("'t Hooft", "Sean T."), ("-Smith", "Sean S."), ("ßmith", "Sean ß."),
])
def test_r61_initial_is_the_first_letter(last, expected):
    assert public_name("Sean", last, "first_initial") == expected


def test_r61_nothing_to_show_gives_a_placeholder_not_an_empty_name():
    for policy in POLICIES:
        assert public_name("  ", "", policy) == NO_NAME
    assert public_name("", "Silva", "first_initial") == "S."


def test_r61_unknown_policy_shows_no_more_than_initials():
    assert public_name("Ana", "Silva", "everything") == "A.S."
