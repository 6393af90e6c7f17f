"""R52, R54, R60 on PostgreSQL: the app connects as a role that owns nothing. Its UPDATE, DELETE and
TRUNCATE of the books fail (the ledger and the audit trail among them); the owner's TRUNCATE fails
too (a trigger); the app works as that role; `db create-roles` grants exactly the app's rights and
running it again changes nothing; `db upgrade` grants what a migration adds."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask import Flask
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, ProgrammingError

from roomops import migrate
from roomops.books import roles
from roomops.books.rules import APPEND_ONLY, SLIP_FIXED, SLIPS
from roomops.clock import FrozenClock
from roomops.config import Settings
from roomops.factory import create_app
from roomops.jobs.scheduler import sweep_once
from roomops.runtime import ext
from tests.conftest import START
from tests.databases import PG_ENV, fresh_database
from tests.db.books_helpers import Night, closed_night
from tests.factories import Room_

pytestmark = pytest.mark.skipif(PG_ENV not in os.environ,
                                reason=f"PostgreSQL only: set {PG_ENV}")


@dataclass
class Deployment:
    """A database owned by ``owner`` (who migrated it), and the app connected as ``role``."""

    app: Flask
    owner: Engine
    role: str
    night: Night | None = None

    def cli(self, *args: str) -> tuple[int, str]:
        out = self.app.test_cli_runner().invoke(args=list(args))
        return out.exit_code, out.output


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    owner, role = f"roomops_owner_{os.getpid()}", f"roomops_app_{os.getpid()}"
    admin = create_engine(make_url(os.environ[PG_ENV]).set(database="postgres"),
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"CREATE ROLE {owner} LOGIN CREATEROLE PASSWORD 'owner-pass'"))
    try:
        with fresh_database("postgresql", tmp_path_factory.mktemp("roles"), "roles") as url:
            base = make_url(url)
            with admin.connect() as conn:
                conn.execute(text(f'ALTER DATABASE "{base.database}" OWNER TO {owner}'))
            owner_url = base.set(username=owner, password="owner-pass").render_as_string(False)
            app_url = base.set(username=role, password="app-pass").render_as_string(False)
            migrate.upgrade(owner_url)
            app = create_app(Settings(database_url=app_url, owner_database_url=owner_url,
                                      scheduler="off", secret_key="test", testing=True),
                             clock=FrozenClock(START))
            found = Deployment(app, create_engine(owner_url), role)
            assert found.cli("db", "create-roles") == (0, f"role {role} created: it reads and "
                                                          "adds to the books, changes the rest, "
                                                          "owns nothing\n")
            yield found
            found.owner.dispose()
            ext(app).engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP ROLE IF EXISTS {role}"))
            conn.execute(text(f"DROP ROLE IF EXISTS {owner}"))
        admin.dispose()


@pytest.fixture(scope="module")
def books(deployment: Deployment) -> Deployment:
    """A closed night written by the app through its own role (services and their commits)."""
    with ext(deployment.app).sessions() as session:
        deployment.night = closed_night(Room_(session, START), session, START)
    return deployment


def test_the_app_works_as_its_own_role(books):
    """R60: start-up, /health, the sweep (its heartbeat), a night on the books (buy-in, a slip
    through its steps, a hand locked for its rake, counts, the close) and verify-books."""
    client = books.app.test_client()
    assert client.get("/health").json["migrations"] == "at_head"
    sweep_once(books.app)
    health = client.get("/health")
    assert (health.status_code, health.json["database"], health.json["migrations"]) == (
        200, "ok", "at_head")
    assert books.night is not None and books.night.close.entries == 3
    code, output = books.cli("verify-books")
    assert code == 0 and output.startswith("the books are as the app wrote them: "), output


@pytest.mark.parametrize("table", ["ledger_entries", "audit_events", *sorted(
    set(APPEND_ONLY) - {"ledger_entries", "audit_events"})])
@pytest.mark.parametrize("sql", ["UPDATE {} SET id = id", "DELETE FROM {}", "TRUNCATE {} CASCADE"])
def test_r52_r60_the_app_roles_update_delete_and_truncate_of_the_books_fail(books, table, sql):
    with ext(books.app).engine.connect() as conn:
        if table in ("ledger_entries", "audit_events", "hands"):  # the night wrote some
            assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() > 0
        with pytest.raises(DBAPIError) as err:
            conn.execute(text(sql.format(table)))
    # hands: the app may lock a hand for its rake (UPDATE of id), and its trigger refuses the rest
    refusal = "hands is append-only (R60)" if table == "hands" and "UPDATE" in sql else (
        f"permission denied for table {table}")
    assert refusal in str(err.value)


@pytest.mark.parametrize("sql", [f"UPDATE {SLIPS} SET {c} = {c}" for c in SLIP_FIXED]
                         + [f"DELETE FROM {SLIPS}", f"TRUNCATE {SLIPS} CASCADE"])
def test_r31_the_app_role_changes_a_slips_state_only(books, sql):
    with (ext(books.app).engine.connect() as conn,
          pytest.raises(ProgrammingError, match=f"permission denied for table {SLIPS}")):
        conn.execute(text(sql))


@pytest.mark.parametrize("table", [*sorted(APPEND_ONLY), SLIPS])
def test_r60_the_owners_truncate_is_refused_by_a_trigger(books, table):
    with books.owner.connect() as conn, pytest.raises(DBAPIError) as err:
        conn.execute(text(f"TRUNCATE {table} CASCADE"))
    assert "append-only (R60)" in str(err.value) or "(R31)" in str(err.value)


@pytest.mark.parametrize("sql", ["CREATE TABLE forged (id integer)",
                                 "ALTER TABLE ledger_entries DISABLE TRIGGER ledger_entries_append_only",
                                 "DROP TRIGGER audit_events_append_only ON audit_events",
                                 "CREATE OR REPLACE FUNCTION roomops_append_only() RETURNS trigger "
                                 "AS $$ BEGIN RETURN OLD; END $$ LANGUAGE plpgsql"])
def test_the_app_role_can_change_no_table_trigger_or_function(books, sql):
    with (ext(books.app).engine.connect() as conn,
          pytest.raises(ProgrammingError, match=r"permission denied|must be owner")):
        conn.execute(text(sql))


def test_create_roles_grants_exactly_the_apps_rights_and_is_idempotent(deployment):
    role = deployment.role
    with deployment.owner.connect() as conn:
        before = roles.rights(conn, role)
    assert before.tables["ledger_entries"] == before.tables["audit_events"] == {"SELECT", "INSERT"}
    assert before.tables["rooms"] == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert before.tables["alembic_version"] == {"SELECT"}
    assert before.update_columns["hands"] == {"id"}
    assert before.update_columns[SLIPS] >= {"state", "delivered_at", "cancel_reason"}
    assert not before.update_columns[SLIPS] & set(SLIP_FIXED)
    assert (before.owns, before.creates, before.superuser, before.sequences_usable) == (
        0, False, False, True)
    with deployment.owner.begin() as conn:  # a right granted by hand is taken back
        conn.execute(text(f"GRANT UPDATE, TRUNCATE ON ledger_entries TO {role}"))
        assert "on ledger_entries it has" in roles.check(conn, role)[0]
    assert deployment.cli("db", "create-roles") == (
        0, f"role {role} updated: it reads and adds to the books, changes the rest, owns nothing\n")
    with deployment.owner.connect() as conn:
        assert roles.rights(conn, role) == before and roles.check(conn, role) == []


def test_db_upgrade_grants_the_tables_a_migration_adds(deployment):
    """A table made by a later migration is one the app role has no right on yet: `db upgrade`
    grants it, as the owner."""
    with deployment.owner.begin() as conn:
        conn.execute(text(f"REVOKE ALL ON sweep_heartbeats FROM {deployment.role}"))
    code, output = deployment.cli("db", "upgrade")
    assert code == 0 and f"role {deployment.role} granted" in output
    with deployment.owner.connect() as conn:
        assert roles.rights(conn, deployment.role).tables["sweep_heartbeats"] == {
            "SELECT", "INSERT", "UPDATE", "DELETE"}


def test_create_roles_refuses_the_owner_and_a_role_with_no_password(deployment):
    owner = deployment.owner.url.username
    code, output = deployment.cli("db", "create-roles", "--role", str(owner))
    assert code == 1 and "is the owner of the tables: the app needs a role of its own" in output
    code, output = deployment.cli("db", "create-roles", "--role", f"nobody_{os.getpid()}")
    assert code == 1 and "does not exist yet: give it a password (R60)" in output


def test_issue40_the_apps_own_role_is_no_warning_the_owner_is(deployment):
    """/health and the start-up warn of the owner's or a superuser's role (issue 40), not of the
    app's own role, which owns nothing."""
    from roomops.books.roles import OWNS_TABLES, SUPERUSER, role_warnings

    with ext(deployment.app).engine.connect() as conn:
        assert role_warnings(conn) == []
    with deployment.owner.connect() as conn:
        assert role_warnings(conn) == [OWNS_TABLES]
    admin = create_engine(deployment.owner.url.set(username=make_url(os.environ[PG_ENV]).username,
                                                   password=None))  # the tests' superuser
    with admin.connect() as conn:
        assert role_warnings(conn)[0] == SUPERUSER
    admin.dispose()
    body = deployment.app.test_client().get("/health").get_json()
    assert "warnings" not in body
