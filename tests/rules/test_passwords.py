"""Staff passwords (R61): the policy, Argon2 hashing, old Werkzeug hashes still accepted and
replaced, the dummy hash a refusal of an unknown username is checked against."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from argon2 import PasswordHasher, profiles
from werkzeug.security import generate_password_hash

from roomops.errors import Invalid
from roomops.rooms import passwords
from roomops.rooms.passwords import (
    check_policy,
    dummy_hash,
    hash_password,
    needs_rehash,
    use_parameters,
    verify_password,
)
from tests.factories import PASSWORD


@pytest.mark.parametrize("password,said", [
    ("short words", "at least 12 characters"),
    ("x" * 129, "at most 128 characters"),
    (" Main-Supervisor ", "may not be the username"),
    ("qwerty123456", "common"),  # in zxcvbn's list of common passwords
    ("1qaz2wsx3edc", "common"),
    ("passwordpassword", "Repeats"),
    ("main-supervisor1", "too easy to guess"),  # the username and a digit
    ("aaaaaaaaaaaa", "Repeats"),
])
def test_r61_the_policy_refuses_short_long_username_and_guessable_passwords(password, said):
    with pytest.raises(Invalid, match=said) as refused:
        check_policy(password, "main-supervisor")
    assert refused.value.rule == "R61" and refused.value.status == 422


@pytest.mark.parametrize("password", [PASSWORD, "lantern cashbox river", "n7Kp2xQv9LmZ",
                                      "z" * 4 + "Tr0ub4dor&3 staple " + "q" * 100])
def test_r61_the_policy_takes_long_unguessable_ones(password):
    check_policy(password, "main-supervisor")


@pytest.mark.parametrize("password", ["lange Straße über Brücken", "café crème brûlée noir",
                                      "🂡 ace of spades wins 🂡", "  spaces inside  and out  "])
def test_v2_1_4_any_printable_unicode_and_spaces_are_taken_and_kept_as_typed(password):
    """ASVS V2.1.3/V2.1.4: no character is refused or dropped; spaces count."""
    check_policy(password, "main-supervisor")
    stored = hash_password(password)
    assert verify_password(stored, password) and not verify_password(stored, password + " ")


def test_v2_1_3_long_passwords_are_not_truncated():
    """Two 100-character passwords that differ only after the 72nd (bcrypt's limit) differ."""
    base = "lantern cashbox river " * 4
    first, second = base[:99] + "a", base[:99] + "b"
    assert not verify_password(hash_password(first), second)


def test_r61_hashes_are_argon2id_salted_and_verified():
    first, second = hash_password(PASSWORD), hash_password(PASSWORD)
    assert first.startswith("$argon2id$") and first != second  # a salt each
    assert verify_password(first, PASSWORD) and not verify_password(first, PASSWORD + "!")
    assert not needs_rehash(first)


def test_r61_production_hashes_with_rfc_9106s_memory_hard_parameters():
    """The tests hash cheaply (tests/conftest.py); what a deployment uses is RFC 9106's."""
    assert passwords.DEFAULT == profiles.RFC_9106_LOW_MEMORY
    assert passwords.DEFAULT.memory_cost >= 64 * 1024 and passwords.DEFAULT.time_cost >= 3


@pytest.mark.parametrize("method", ["scrypt", "pbkdf2:sha256:1000"])
def test_r61_werkzeugs_older_hashes_are_accepted_and_marked_for_rehashing(method):
    old = generate_password_hash(PASSWORD, method=method)
    assert verify_password(old, PASSWORD) and not verify_password(old, "wrong password")
    assert needs_rehash(old)


@pytest.mark.parametrize("stored", ["", "not a hash", "foo$bar$baz", "scrypt:1$a$b",
                                    "$argon2id$v=19$garbage"])
def test_a_stored_hash_of_no_known_scheme_matches_nothing(stored):
    assert not verify_password(stored, PASSWORD)
    assert needs_rehash(stored)


@pytest.fixture()
def other_parameters() -> Iterator[None]:
    use_parameters(replace(profiles.CHEAPEST, time_cost=2))
    yield
    use_parameters(profiles.CHEAPEST)


def test_r61_a_hash_with_other_argon2_parameters_needs_rehashing(other_parameters):
    older = PasswordHasher.from_parameters(profiles.CHEAPEST).hash(PASSWORD)
    assert verify_password(older, PASSWORD) and needs_rehash(older)
    assert not needs_rehash(hash_password(PASSWORD))


def test_the_dummy_hash_matches_no_password_and_follows_the_parameters(other_parameters):
    assert not verify_password(dummy_hash(), PASSWORD) and not verify_password(dummy_hash(), "")
    assert not needs_rehash(dummy_hash())  # costs what a current hash costs
