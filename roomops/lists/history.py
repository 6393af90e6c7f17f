"""Ending list entries: nothing is deleted, each end keeps who, when and why (R16)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.audit.service import record
from roomops.lists.models import ListEntry


def end_entry(session: Session, actor: Actor, now: datetime, entry: ListEntry, why: str, *,
              action: str = "entry.removed") -> None:
    entry.status, entry.ended_at, entry.end_reason = "removed", now, why
    record_end(session, actor, now, action, entry.id, entry.player_id, why)


def record_end(session: Session, actor: Actor, now: datetime, action: str, entry_id: int,
               player_id: int, why: str) -> None:
    """The audit row of an entry's end (R16, R60)."""
    record(session, actor, now, action, ("list_entry", entry_id), reason=why, player_id=player_id)


def end_entries(
    session: Session, actor: Actor, now: datetime, stmt: Select[tuple[ListEntry]], why: str
) -> None:
    for entry in session.scalars(stmt.where(ListEntry.status == "active")):
        end_entry(session, actor, now, entry, why)
