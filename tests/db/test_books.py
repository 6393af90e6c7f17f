"""verify-books on every configured database (R31, R52, R54, R60): books written by the app pass;
a row edited, deleted or added with the triggers dropped is found, and so is each trigger that is
missing; a slip's number and amount never change and a slip is never deleted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from roomops.books.rules import APPEND_ONLY, expected_triggers
from roomops.books.verify import verify
from tests.db.books_helpers import DAY, append_only_triggers, closed_night, drop_trigger


@pytest.fixture()
def night(room, session, now):
    return closed_night(room, session, now)


def test_r60_books_written_by_the_app_pass(session, night):
    result = verify(session)
    assert result.findings == []
    assert (result.closes, result.rows) == (1, {"ledger row": 3, "transit slip": 1})
    assert result.triggers == len(expected_triggers(session.get_bind().dialect.name))


def test_r52_a_ledger_row_edited_with_the_triggers_dropped_is_found(session, night):
    for name in append_only_triggers(session.connection(), "ledger_entries"):
        drop_trigger(session.connection(), name)
    session.execute(text("UPDATE ledger_entries SET amount = amount + 500 WHERE id = :id"),
                    {"id": night.buy_in.id})
    findings = verify(session).findings
    assert [f for f in findings if "trigger" not in f] == [
        f"room main, gaming day 2026-11-21 shift 1: closed with {night.close.entries} ledger rows "
        f"totalling {night.close.expected_total} minor units, the ledger now holds "
        f"{night.close.entries} totalling {night.close.expected_total + 500} (R54)",
        f"ledger row {night.buy_in.id}: amount is 10500, audited as 10000 (audit event "
        f"{_event(session, 'ledger_entry', night.buy_in.id)}): changed outside the app (R60)"]
    assert all("ledger_entries: trigger" in f for f in findings if "trigger" in f)


def test_r52_a_ledger_row_deleted_with_the_triggers_dropped_is_found(session, night):
    for name in append_only_triggers(session.connection(), "ledger_entries"):
        drop_trigger(session.connection(), name)
    session.execute(text("DELETE FROM ledger_entries WHERE id = :id"), {"id": night.rake.id})
    findings = verify(session).findings
    assert (f"ledger row {night.rake.id} is gone: audit event "
            f"{_event(session, 'ledger_entry', night.rake.id)} recorded it (R60)") in findings
    assert any("closed with" in f and f"now holds {night.close.entries - 1}" in f for f in findings)


def test_r60_a_ledger_row_written_outside_the_app_is_found(session, night):
    """No trigger to drop: the row (on the next, open gaming day: the closed one's trigger refuses
    it, migration 0019) has no audit event."""
    session.execute(text("INSERT INTO ledger_entries (room_id, gaming_day, at, kind, amount, method, "
                         "staff_id) SELECT room_id, :day, at, 'add_on', 700, 'cash', staff_id "
                         "FROM ledger_entries WHERE id = :id"),
                    {"id": night.buy_in.id, "day": DAY + timedelta(days=1)})
    new = session.execute(text("SELECT max(id) FROM ledger_entries")).scalar_one()
    assert verify(session).findings == [
        f"ledger row {new} has no audit event: it was written outside the app (R60)"]


def test_r31_a_slip_edited_with_its_trigger_dropped_is_found(session, night):
    drop_trigger(session.connection(), "transit_slips_fixed")
    session.execute(text("UPDATE transit_slips SET amount = 50, number = 7"))
    findings = verify(session).findings
    assert findings[0] == "transit_slips: trigger transit_slips_fixed is missing; nothing refuses " \
                          "UPDATE any more (R31)"
    assert [f.split(" (audit event")[0] for f in findings[1:]] == [
        f"transit slip {night.slip.id}: number is 7, audited as 1; amount is 50, audited as 5000"] * 3


@pytest.mark.parametrize("name", sorted({t.name for dialect in ("postgresql", "sqlite")
                                         for t in expected_triggers(dialect)}))
def test_each_missing_trigger_is_found(session, name):
    """R60: the one trigger dropped, and nothing else, is named."""
    conn = session.connection()
    if name not in {t.name for t in expected_triggers(conn.dialect.name)}:
        pytest.skip(f"{name} is a trigger of the other database")
    drop_trigger(conn, name)
    [finding] = verify(session).findings
    assert f": trigger {name} is missing; nothing refuses " in finding


@pytest.mark.parametrize("sql", ["UPDATE transit_slips SET amount = 1",
                                 "UPDATE transit_slips SET number = number + 100",
                                 "UPDATE transit_slips SET player_id = player_id + 1",
                                 "DELETE FROM transit_slips"])
def test_r31_a_slips_number_and_amount_never_change_and_it_is_never_deleted(session, night, sql):
    sp = session.begin_nested()
    with pytest.raises(IntegrityError, match="R31"):
        session.execute(text(sql))
    sp.rollback()
    assert session.execute(text("SELECT number, amount FROM transit_slips")).one() == (1, 5000)


def _event(session, entity: str, entity_id: int) -> int:
    return session.execute(text("SELECT id FROM audit_events WHERE entity_type = :e AND "
                                "entity_id = :i"), {"e": entity, "i": entity_id}).scalar_one()


@pytest.mark.parametrize("sql,found", [
    ("ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only",
     ["audit_events: trigger audit_events_append_only is disabled"]),
    ("ALTER TABLE audit_events ENABLE REPLICA TRIGGER audit_events_no_truncate",
     ["audit_events: trigger audit_events_no_truncate is disabled"]),
    ("CREATE OR REPLACE FUNCTION roomops_append_only() RETURNS trigger AS $$ BEGIN RETURN NULL; "
     "END $$ LANGUAGE plpgsql",
     [f"{t}: trigger {t}_{kind} is disabled" for t in APPEND_ONLY
      for kind in ("append_only", "no_truncate")]),
])
def test_r60_a_disabled_or_silenced_trigger_is_found_on_postgresql(session, sql, found):
    if session.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite's triggers cannot be disabled or share a function")
    session.execute(text(sql))
    assert sorted(f.split(" or no longer")[0] for f in verify(session).findings) == sorted(found)
