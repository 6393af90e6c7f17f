"""Addresses given to the public (the board's "on your phone" line): built from the configured
``public_url`` (ROOMOPS_PUBLIC_URL), never from the request's Host header, which whoever sends
the request chooses (docs/security.md)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import current_app

from roomops.runtime import ext


def public_url(endpoint: str, **values: Any) -> str:
    """The full address of ``endpoint`` under the deployment's public URL (its path prefix too)."""
    base = urlsplit(ext().settings.public_url)
    adapter = current_app.url_map.bind(base.netloc, script_name=base.path or "/",
                                       url_scheme=base.scheme)
    return adapter.build(endpoint, values, force_external=True)
