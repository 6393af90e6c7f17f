"""Staff passwords (R61; docs/security.md, "Logins"): the policy a new password must meet, and how
passwords are hashed and checked. Pure: no Flask, no database.

Hashes are Argon2id (memory-hard, argon2-cffi's ``PasswordHasher``) with RFC 9106's second
recommended parameters (64 MiB, 3 passes, 4 lanes). Hashes written before, Werkzeug's
``scrypt:``/``pbkdf2:``, are still accepted; ``needs_rehash`` says when a stored hash should be
written again (an older scheme, or Argon2 parameters other than the current ones), which the
log-in does with the password it has just checked."""

from __future__ import annotations

from functools import cache

from argon2 import Parameters, PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError
from werkzeug.security import check_password_hash
from zxcvbn import zxcvbn

from roomops.errors import Invalid

MIN_LENGTH = 12
MAX_LENGTH = 128  # ASVS 2.1.2: at least 64 allowed, more than 128 refused
MIN_SCORE = 3  # zxcvbn's "safely unguessable" (of 0..4)
ZXCVBN_MAX = 72  # zxcvbn refuses to look at more; a strong prefix makes a strong password
ARGON2 = "$argon2"

DEFAULT = profiles.RFC_9106_LOW_MEMORY  # ~0.1 s and 64 MiB a hash or a check on one core

_hasher = PasswordHasher.from_parameters(DEFAULT)


def use_parameters(parameters: Parameters) -> None:
    """Hash with ``parameters`` from now on (hashes made before then ``needs_rehash``). The tests
    use argon2's ``CHEAPEST`` (tests/conftest.py); production keeps the RFC 9106 default."""
    global _hasher
    _hasher = PasswordHasher.from_parameters(parameters)
    dummy_hash.cache_clear()


def check_policy(password: str, username: str) -> None:
    """R61: refuse a password shorter than 12 characters or longer than 128, equal to the
    username, or easy to guess: zxcvbn's estimate, which matches it against its list of 30,000
    common passwords, common words and names, the username, keyboard runs, repeats and dates."""
    if len(password) < MIN_LENGTH:
        raise Invalid(f"password: at least {MIN_LENGTH} characters are needed", "R61")
    if len(password) > MAX_LENGTH:
        raise Invalid(f"password: at most {MAX_LENGTH} characters", "R61")
    if password.strip().casefold() == username.strip().casefold():
        raise Invalid("password: it may not be the username", "R61")
    estimate = zxcvbn(password[:ZXCVBN_MAX], user_inputs=[username])
    if estimate["score"] < MIN_SCORE:
        why = estimate["feedback"]["warning"] or "it is too easy to guess"
        raise Invalid(f"password: {why.rstrip('.')}; a few unrelated words make a good one",
                      "R61")


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(stored_hash: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored_hash`` was made from (Argon2, or Werkzeug's
    scrypt/pbkdf2 from before); False for a hash of no known scheme."""
    if stored_hash.startswith(ARGON2):
        try:
            return _hasher.verify(stored_hash, password)
        except (VerificationError, InvalidHashError):
            return False
    try:
        return check_password_hash(stored_hash, password)
    except ValueError:  # a method Werkzeug does not know
        return False


def needs_rehash(stored_hash: str) -> bool:
    """Whether the stored hash should be replaced (at the next successful log-in): not Argon2,
    or Argon2 with other parameters than the current ones."""
    if not stored_hash.startswith(ARGON2):
        return True
    try:
        return _hasher.check_needs_rehash(stored_hash)
    except InvalidHashError:
        return True


@cache
def dummy_hash() -> str:
    """A hash no one's password matches, with the current parameters: checked against when the
    username is unknown or its staff member inactive, so that refusal costs what a wrong
    password costs and the time taken does not tell which usernames exist."""
    return _hasher.hash("not a password: only here to spend the time a real check spends")
