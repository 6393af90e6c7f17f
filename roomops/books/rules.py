"""The books' guard with no Flask or database (R31, R52, R54, R60): which tables are append-only,
the triggers that keep them so on each database, and what a check of them finds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# table -> the rule that makes its rows unchangeable once written
APPEND_ONLY = {"ledger_entries": "R52", "audit_events": "R60", "hands": "R51",
               "dealer_downs": "R51", "penalties": "R55", "day_counts": "R54", "day_closes": "R54",
               "toke_counts": "R66", "toke_shares": "R66",
               "jackpot_rows": "R69", "jackpot_claims": "R70", "jackpot_decisions": "R70",
               "jackpot_box_counts": "R54"}
SLIPS = "transit_slips"
# R31: what a slip is, fixed once written (migration 0031); its state and the who/when of each
# step are set as it moves, and it is never deleted (its number stays, gapless)
SLIP_FIXED = ("room_id", "number", "player_id", "table_id", "hold_id", "amount", "method")
# The app role's one UPDATE right on an append-only table: the column PostgreSQL asks for before a
# row lock (SELECT ... FOR UPDATE; rake locks its hand, roomops.ledger.rake). Every UPDATE of a
# hand is still refused by its trigger.
LOCK_COLUMNS = {"hands": ("id",)}

UPDATE, DELETE, TRUNCATE = "UPDATE", "DELETE", "TRUNCATE"


@dataclass(frozen=True)
class Trigger:
    """A trigger as the database's catalog shows it: its table, the statements it fires on, and
    whether it works (enabled, and its body raises an error)."""

    name: str
    table: str
    events: frozenset[str]
    working: bool = True
    rule: str = "R60"


def expected_triggers(dialect: str) -> list[Trigger]:
    """The triggers the migrations leave on ``dialect`` ("postgresql" or "sqlite"): UPDATE and
    DELETE refused on every append-only table (one trigger on PostgreSQL, one per statement on
    SQLite), TRUNCATE too on PostgreSQL (SQLite has none); a slip's fixed columns and its
    deletion (R31)."""
    def one(name: str, table: str, rule: str, *events: str) -> Trigger:
        return Trigger(name, table, frozenset(events), rule=rule)

    if dialect == "postgresql":
        return [*(t for table, rule in APPEND_ONLY.items()
                  for t in (one(f"{table}_append_only", table, rule, UPDATE, DELETE),
                            one(f"{table}_no_truncate", table, rule, TRUNCATE))),
                one(f"{SLIPS}_fixed", SLIPS, "R31", UPDATE),
                one(f"{SLIPS}_no_delete", SLIPS, "R31", DELETE),
                one(f"{SLIPS}_no_truncate", SLIPS, "R31", TRUNCATE)]
    return [*(one(f"{table}_no_{verb.lower()}", table, rule, verb)
              for table, rule in APPEND_ONLY.items() for verb in (UPDATE, DELETE)),
            one(f"{SLIPS}_fixed", SLIPS, "R31", UPDATE),
            one(f"{SLIPS}_no_delete", SLIPS, "R31", DELETE)]


def trigger_findings(expected: Iterable[Trigger], found: Mapping[str, Trigger]) -> list[str]:
    """What is wrong with the triggers ``found`` (by name) against those ``expected``."""
    findings = []
    for want in expected:
        have = found.get(want.name)
        refuses = " or ".join(sorted(want.events))
        if have is None or have.table != want.table:
            findings.append(f"{want.table}: trigger {want.name} is missing; nothing refuses "
                            f"{refuses} any more ({want.rule})")
        elif not want.events <= have.events:
            findings.append(f"{want.table}: trigger {want.name} no longer fires on "
                            f"{' and '.join(sorted(want.events - have.events))} ({want.rule})")
        elif not have.working:
            findings.append(f"{want.table}: trigger {want.name} is disabled or no longer raises "
                            f"an error; nothing refuses {refuses} any more ({want.rule})")
    return findings


def audit_differences(row: Mapping[str, object], recorded: Mapping[str, object]) -> list[str]:
    """R60: the columns of ``row`` whose value is not the one its audit event ``recorded``."""
    return [f"{name} is {value!r}, audited as {recorded.get(name)!r}"
            for name, value in row.items() if recorded.get(name) != value]


def close_finding(where: str, closed: tuple[int, int], now: tuple[int, int]) -> str | None:
    """R54: a closed shift whose rows and total (``now``) are no longer those of its close."""
    if closed == now:
        return None
    return (f"{where}: closed with {closed[0]} ledger rows totalling {closed[1]} minor units, the "
            f"ledger now holds {now[0]} totalling {now[1]} (R54)")


MIGRATIONS = "alembic_version"  # the owner's: the app only reads it (/health, R60)
TABLE_RIGHTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER")
_FULL = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE"})
_BOOKS = frozenset({"SELECT", "INSERT"})


def app_rights(table: str) -> frozenset[str]:
    """The rights on ``table`` of the role the app connects as on PostgreSQL: read and add to the
    books (append-only tables and the slips), only read the schema's version, read and change
    everything else. Never TRUNCATE, REFERENCES or TRIGGER: nothing that needs a table's owner."""
    if table in APPEND_ONLY or table == SLIPS:
        return _BOOKS
    return frozenset({"SELECT"}) if table == MIGRATIONS else _FULL


def app_update_columns(table: str, columns: Iterable[str]) -> frozenset[str]:
    """The columns of ``table`` (one of ``columns``) the app role may UPDATE one by one, on top of
    ``app_rights``: a slip's state and steps (not ``SLIP_FIXED``), a hand's lock column."""
    if table == SLIPS:
        return frozenset(columns) - set(SLIP_FIXED)
    return frozenset(LOCK_COLUMNS.get(table, ()))
