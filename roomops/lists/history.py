"""Ending list entries: nothing is deleted, each end keeps who, when and why (R16)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Select
from sqlalchemy.orm import Session

from roomops.actors import Actor
from roomops.audit.service import record
from roomops.lists.models import ListEntry


def end_entry(
    session: Session,
    actor: Actor,
    now: datetime,
    entry: ListEntry,
    why: str,
    *,
    status: str = "removed",
    action: str = "entry.removed",
) -> None:
    entry.status, entry.ended_at, entry.end_reason = status, now, why
    record(session, actor, now, action, ("list_entry", entry.id), reason=why, player_id=entry.player_id)


def end_entries(
    session: Session, actor: Actor, now: datetime, stmt: Select[tuple[ListEntry]], why: str
) -> None:
    for entry in session.scalars(stmt.where(ListEntry.status == "active")):
        end_entry(session, actor, now, entry, why)
