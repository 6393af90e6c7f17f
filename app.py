"""Entry point: ``flask --app app <command>``; see ``flask --app app --help``."""

from roomops.factory import create_app

app = create_app()
