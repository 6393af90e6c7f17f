"""`verify-books` and `db create-roles` from the command line (R31, R52, R54, R60); the PostgreSQL
role itself is tested in tests/db/test_app_role.py."""

from __future__ import annotations

from sqlalchemy import text

from roomops.config import Settings
from roomops.factory import create_app
from tests.db.books_helpers import append_only_triggers, closed_night, drop_trigger


def test_verify_books_passes_clean_books_with_a_summary(app, room, session, now):
    closed_night(room, session, now)
    out = app.test_cli_runner().invoke(args=["verify-books"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("the books are as the app wrote them: ")
    assert "1 closed shifts and 3 ledger rows, 1 transit slips" in out.output


def test_verify_books_lists_each_finding_and_fails(app, room, session, now):
    night = closed_night(room, session, now)
    conn = session.connection()
    for name in append_only_triggers(conn, "ledger_entries"):
        drop_trigger(conn, name)
    session.execute(text("DELETE FROM ledger_entries WHERE id = :id"),
                    {"id": night.buy_in.id})
    out = app.test_cli_runner().invoke(args=["verify-books"])
    lines = out.output.splitlines()
    assert out.exit_code == 1
    assert any(line.startswith("ledger_entries: trigger ") for line in lines)
    assert any(line.startswith(f"ledger row {night.buy_in.id} is gone") for line in lines)
    assert lines[-1].startswith(f"Error: {len(lines) - 1} findings: the books were changed outside")


def test_create_roles_is_for_postgresql(tmp_path):
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", scheduler="off",
                              secret_key="test", testing=True))
    out = app.test_cli_runner().invoke(args=["db", "create-roles", "--role", "app"])
    assert out.exit_code == 1 and "create-roles is for PostgreSQL" in out.output


def test_the_help_says_what_each_command_needs_and_checks(app):
    runner = app.test_cli_runner()
    roles = runner.invoke(args=["db", "create-roles", "--help"]).output
    for needed in ("ROOMOPS_OWNER_DATABASE_URL", "ROOMOPS_DATABASE_URL", "CREATEROLE", "--role",
                   "--password", "no TRUNCATE", "Safe to run again"):
        assert needed in roles
    books = " ".join(runner.invoke(args=["verify-books", "--help"]).output.split())
    for checked in ("triggers", "closed shift", "audit events", "exits with status 1"):
        assert checked in books
    assert "grants it the tables a migration added" in " ".join(
        runner.invoke(args=["db", "upgrade", "--help"]).output.split())
