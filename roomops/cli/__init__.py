"""Command-line tools: `flask --app app --help` lists them."""

from __future__ import annotations

from flask import Flask

from roomops.cli.database import backup_cmd, db_group, verify_books_cmd
from roomops.cli.figures import figures_group
from roomops.cli.push import push_server_cmd
from roomops.cli.running import create_room_cmd, demo_cmd, scheduler_cmd, serve_cmd, sweep_cmd
from roomops.cli.staff import api_token_cmd, staff_group


def install(app: Flask) -> None:
    for command in (db_group, create_room_cmd, staff_group, api_token_cmd, demo_cmd,
                    serve_cmd, scheduler_cmd, sweep_cmd, verify_books_cmd, backup_cmd, push_server_cmd,
                    figures_group):
        app.cli.add_command(command)
