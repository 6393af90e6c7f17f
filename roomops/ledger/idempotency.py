"""Idempotency keys (R52): a retried request with the same key returns the row the first one made
and posts nothing; the same key with different content is refused (409).

The key is unique per room in the database. Two requests racing with one key: the second INSERT
waits for the first transaction and then fails on the unique constraint inside a savepoint, which
is rolled back (with anything done in it, such as taking a slip number) before the first row, now
committed, is read and returned."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from roomops.errors import Conflict


class Keyed(Protocol):
    room_id: Any
    idempotency_key: Any
    fingerprint: Any


R = TypeVar("R", bound=Keyed)


def fingerprint(**content: object) -> str:
    """What the request asked for, so a reused key with other content is recognised."""
    return hashlib.sha256(json.dumps(content, sort_keys=True, default=str).encode()).hexdigest()


def replay(session: Session, model: type[R], room_id: int, key: str | None, print_: str) -> R | None:
    """The row an earlier request with ``key`` made, or None; 409 if it asked for something else."""
    if key is None:
        return None
    row = session.scalar(select(model).where(model.room_id == room_id,
                                             model.idempotency_key == key))
    if row is not None and row.fingerprint != print_:
        raise Conflict(f"idempotency key {key!r} was already used for a different request", "R52")
    return row


def insert_once(session: Session, model: type[R], room_id: int, key: str | None, print_: str,
                build: Callable[[], R]) -> tuple[R, bool]:
    """``build()`` and flush the row it adds inside a savepoint; returns (row, created). If a
    concurrent request committed the same key first, returns its row (created False).

    The savepoint also lets a refused INSERT fail alone (the ledger's trigger refusing a row of a
    closed shift on SQLite, R54): the flush's failure rolls back the savepoint, with the row it
    added, and the transaction goes on."""
    try:
        with session.begin_nested():
            row = build()
            session.flush()
    except IntegrityError:
        earlier = replay(session, model, room_id, key, print_)
        if earlier is None:
            raise
        return earlier, False
    return row, True
