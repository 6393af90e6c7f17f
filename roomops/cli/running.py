"""Rooms, the demo, and running the app: the web server, the scheduler, one sweep."""

from __future__ import annotations

import gc
import os

import click
import waitress
from flask import current_app
from flask.cli import with_appcontext

from roomops.cli.common import command_unit, log_to_console, warn_about_role
from roomops.config import Settings, phones_hint, served_url
from roomops.rooms.languages import DEFAULT, LANGUAGES
from roomops.rooms.services import create_room
from roomops.runtime import ext, favour_waiting_threads


@click.command("create-room", help="Create a card room (R1). SLUG is its short name in URLs.")
@click.argument("slug")
@click.argument("name")
@click.option("--timezone", default="UTC", show_default=True, help="IANA zone, e.g. Europe/London")
@click.option("--currency", default="GBP", show_default=True,
              help="ISO 4217 code of the only currency that plays (R32); fixed once the room exists")
@click.option("--locale", default="en_GB", show_default=True,
              help="how amounts are written and typed, e.g. de_DE (changeable in the room policy)")
@click.option("--language", default=DEFAULT, show_default=True, type=click.Choice(LANGUAGES),
              help="the players' board and phone pages' language when neither the player nor "
                   "the browser names one (changeable in the room policy)")
@with_appcontext
def create_room_cmd(slug: str, name: str, timezone: str, currency: str, locale: str,
                    language: str) -> None:
    with command_unit() as uow:
        create_room(uow.session, uow.now, slug=slug, name=name, timezone=timezone,
                    currency=currency, locale=locale, language=language)
        uow.commit()
    click.echo(f"room {slug} created")


@click.command("demo", help="Load a demo room if the database has no room yet; print the logins. "
                             "With --logins: give the demo room's staff new passwords and print "
                             "them (only hashes are kept, so a lost one cannot be shown again).")
@click.option("--logins", is_flag=True, help="Print the demo staff's logins again, with new passwords.")
@click.option("--history", "days", type=click.IntRange(0, 56), default=0, show_default=True,
              help="Days of past evenings to run the new demo room through first (tables, players, "
                   "lists, calls), for the manager's figures and the wait estimate to work from.")
@with_appcontext
def demo_cmd(logins: bool, days: int) -> None:
    from roomops.demo import load_demo, renew_demo_logins

    with command_unit() as uow:
        printed = renew_demo_logins(uow) if logins else load_demo(uow, days)
        uow.commit()
    if not printed:
        click.echo("no demo room in this database: nothing to print" if logins else
                   "the database already has a room: demo not loaded "
                   "(`flask --app app demo --logins` prints its logins again)")
    for username, password, role in printed:
        click.echo(f"  {role:<11} login: {username:<12} password: {password}")


@click.command(
    "serve",
    help="Serve the app with waitress, with the scheduler inside unless ROOMOPS_SCHEDULER=off.",
)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True)
@click.option("--threads", default=8, show_default=True,
              help="Requests served at once (the board's own streams get threads of their own).")
@with_appcontext
def serve_cmd(host: str, port: int, threads: int) -> None:
    from roomops.jobs.scheduler import start_background
    from roomops.push.embedded import held_threads, start_publishing

    log_to_console()
    warn_about_role()
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's app, undeclared
    if "ROOMOPS_PUBLIC_URL" not in os.environ:  # the board's address for phones: this server's
        ext().settings.public_url = served_url(host, port)
        click.echo(phones_hint(host, port))
    start_publishing(app)
    if ext().settings.scheduler == "embedded":
        start_background(app)
        click.echo("scheduler running inside the web process")
    click.echo(f"serving on http://{host}:{port}")
    # What start-up built (modules, mappers, the app) lives as long as the process: frozen, the
    # full garbage collections that come every few hundred requests leave it alone and take
    # ~0.5 ms instead of ~40 ms in the middle of some request (docs/benchmarks.md).
    gc.freeze()
    favour_waiting_threads()  # its threads: a desk action beside a board being drawn
    # the board's own streams each hold a thread: on top of those answering requests
    waitress.serve(app, host=host, port=port, threads=threads + held_threads(app),
                   **server_options(ext().settings))


def server_options(settings: Settings) -> dict[str, object]:
    """waitress's settings. Behind trusted proxies (``ROOMOPS_TRUSTED_PROXIES``) waitress keeps
    their ``X-Forwarded-*`` headers, which it drops by default, for the app's ProxyFix to read:
    else every client would be counted and logged as the proxy (docs/security.md)."""
    return {"ident": "roomops", "clear_untrusted_proxy_headers": settings.trusted_proxies == 0}


@click.command("scheduler", help="Run only the scheduler (one per deployment with several workers).")
@with_appcontext
def scheduler_cmd() -> None:
    from roomops.jobs.scheduler import run_blocking
    from roomops.push.embedded import start_publishing

    log_to_console()
    warn_about_role()
    click.echo("scheduler running; Ctrl-C stops it")
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's app, undeclared
    start_publishing(app)
    run_blocking(app)


@click.command("sweep", help="Run the sweep once now (what the scheduler does every few seconds).")
@with_appcontext
def sweep_cmd() -> None:
    from roomops.jobs.scheduler import sweep_once

    result = sweep_once(current_app._get_current_object())  # type: ignore[attr-defined]  # the proxy's app, undeclared
    click.echo(f"{len(result.expired_offers)} offers expired, {len(result.no_shows)} no-shows")
