"""Ending list entries: nothing is deleted, each end keeps who, when and why (R16)."""

from __future__ import annotations

from sqlalchemy import Select, select

from roomops.floor.unit import UnitOfWork
from roomops.lists.models import ListEntry


def end_entry(unit: UnitOfWork, entry: ListEntry, why: str, *,
              action: str = "entry.removed") -> None:
    entry.status, entry.ended_at, entry.end_reason = "removed", unit.now, why
    record_end(unit, action, entry.id, entry.player_id, why)


def record_end(unit: UnitOfWork, action: str, entry_id: int,
               player_id: int, why: str) -> None:
    """The audit row of an entry's end (R16, R60)."""
    unit.audit(action, ("list_entry", entry_id), reason=why, player_id=player_id)


def end_entries(
    unit: UnitOfWork, stmt: Select[tuple[ListEntry]], why: str
) -> None:
    for entry in unit.session.scalars(stmt.where(ListEntry.status == "active")):
        end_entry(unit, entry, why)


def end_player_entries(unit: UnitOfWork, game_id: int, player_id: int, why: str) -> None:
    """R16: the player's places on the game's lists end, each with ``why``."""
    end_entries(unit, select(ListEntry).where(ListEntry.game_id == game_id,
                                              ListEntry.player_id == player_id), why)
