"""The push server: the screens' streams, served apart from the web workers (docs/board.md)."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from roomops.cli.common import log_to_console, warn_about_role
from roomops.runtime import ext


@click.command("push-server", help="Serve the screens' Server-Sent Events streams from the Redis "
               "broker (ROOMOPS_PUSH_BROKER); put it behind the proxy at /board/<slug>/events and "
               "/staff/events.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5001, show_default=True)
@with_appcontext
def push_server_cmd(host: str, port: int) -> None:
    from roomops.push.brokers import Keys
    from roomops.push.server import serve

    settings = ext().settings
    broker = settings.push_broker
    if not broker:
        raise click.UsageError("set ROOMOPS_PUSH_BROKER (redis://...): without a broker the web "
                               "process serves the streams itself")
    log_to_console()
    warn_about_role()
    click.echo(f"push server on http://{host}:{port}, from {broker}")
    serve(broker, Keys(settings.push_prefix), settings.secret_key, host, port,
          per_address=settings.push_streams_per_address, trusted_proxies=settings.trusted_proxies)
