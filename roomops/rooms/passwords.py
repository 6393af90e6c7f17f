"""Staff passwords (R61): the policy a new password must meet, and hashing."""

from __future__ import annotations

from werkzeug.security import check_password_hash, generate_password_hash

from roomops.errors import Invalid

MIN_LENGTH = 12


def check_policy(password: str, username: str) -> None:
    if len(password) < MIN_LENGTH:
        raise Invalid(f"a password needs at least {MIN_LENGTH} characters", "R61")
    if password.casefold() == username.casefold():
        raise Invalid("a password may not be the username", "R61")


def hash_password(password: str) -> str:
    return generate_password_hash(password)


def verify_password(stored_hash: str, password: str) -> bool:
    return check_password_hash(stored_hash, password)
