"""Service tests build many rooms: hash staff passwords cheaply here (no test logs in)."""

from __future__ import annotations

from functools import partial

import pytest
from werkzeug.security import generate_password_hash


@pytest.fixture(autouse=True)
def _fast_password_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("roomops.rooms.passwords.generate_password_hash",
                        partial(generate_password_hash, method="pbkdf2:sha256:1"))
