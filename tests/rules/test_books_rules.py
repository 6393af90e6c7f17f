"""The books' guard as plain rules (roomops.books.rules; R31, R52, R54, R60): the triggers each
database must have, what a check of them finds, the app role's rights, and the findings of the
audit and close cross-checks."""

from __future__ import annotations

import pytest

from roomops.books.rules import (
    APPEND_ONLY,
    SLIP_FIXED,
    SLIPS,
    Trigger,
    app_rights,
    app_update_columns,
    audit_differences,
    close_finding,
    expected_triggers,
    trigger_findings,
)
from roomops.ledger.closing import Line, closed_now


@pytest.mark.parametrize("dialect,refused", [
    ("postgresql", {"UPDATE", "DELETE", "TRUNCATE"}), ("sqlite", {"UPDATE", "DELETE"})])
def test_every_append_only_table_refuses_each_change_on_each_database(dialect, refused):
    """R60: UPDATE and DELETE everywhere, TRUNCATE too on PostgreSQL (SQLite has none)."""
    triggers = expected_triggers(dialect)
    for table in APPEND_ONLY:
        assert set().union(*(t.events for t in triggers if t.table == table)) == refused
    assert set().union(*(t.events for t in triggers if t.table == SLIPS)) == refused  # R31
    assert len({t.name for t in triggers}) == len(triggers)


def test_trigger_findings_name_what_is_missing_silenced_or_narrowed():
    want = [Trigger("a_append_only", "a", frozenset({"UPDATE", "DELETE"})),
            Trigger("a_no_truncate", "a", frozenset({"TRUNCATE"}), rule="R52")]
    assert trigger_findings(want, {t.name: t for t in want}) == []
    assert trigger_findings(want, {"a_append_only": want[0]}) == [
        "a: trigger a_no_truncate is missing; nothing refuses TRUNCATE any more (R52)"]
    assert trigger_findings(want, {"a_append_only": Trigger("a_append_only", "b", want[0].events),
                                   "a_no_truncate": want[1]}) == [
        "a: trigger a_append_only is missing; nothing refuses DELETE or UPDATE any more (R60)"]
    narrowed = Trigger("a_append_only", "a", frozenset({"UPDATE"}))
    assert trigger_findings(want[:1], {"a_append_only": narrowed}) == [
        "a: trigger a_append_only no longer fires on DELETE (R60)"]
    off = Trigger("a_append_only", "a", want[0].events, working=False)
    assert trigger_findings(want[:1], {"a_append_only": off}) == [
        "a: trigger a_append_only is disabled or no longer raises an error; nothing refuses DELETE "
        "or UPDATE any more (R60)"]


def test_the_app_role_reads_and_adds_to_the_books_and_changes_the_rest():
    """R52/R60: never TRUNCATE; UPDATE and DELETE only off the books; a slip's steps only (R31)."""
    for table in APPEND_ONLY:
        assert app_rights(table) == {"SELECT", "INSERT"}
    assert app_rights(SLIPS) == {"SELECT", "INSERT"}
    assert app_rights("rooms") == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert app_rights("alembic_version") == {"SELECT"}
    columns = ["id", *SLIP_FIXED, "state", "delivered_at"]
    assert app_update_columns(SLIPS, columns) == {"id", "state", "delivered_at"}
    assert app_update_columns("hands", ["id", "table_id", "hand_no"]) == {"id"}  # its row lock
    assert app_update_columns("ledger_entries", ["id", "amount"]) == set()


def test_audit_differences_name_each_column_not_as_audited():
    assert audit_differences({"amount": 100, "method": "cash"}, {"amount": 100, "method": "cash",
                                                                 "extra": 1}) == []
    assert audit_differences({"amount": 150, "method": "cash"}, {"amount": 100}) == [
        "amount is 150, audited as 100", "method is 'cash', audited as None"]


def test_a_close_finding_only_when_the_figures_moved():
    """R54: the close's rows and total against those the shift holds now (``closed_now``)."""
    by_shift = [Line(1, "", 3, 900), Line(2, "", 2, 100), Line(3, "", 1, 7)]
    assert closed_now(2, False, by_shift) == (2, 100)
    assert closed_now(2, True, by_shift) == (3, 107)  # the day's close takes later shift numbers
    assert close_finding("day", (2, 100), (2, 100)) is None
    assert close_finding("day", (2, 100), (1, 40)) == (
        "day: closed with 2 ledger rows totalling 100 minor units, the ledger now holds 1 totalling "
        "40 (R54)")
