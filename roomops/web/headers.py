"""The security headers on every answer (pages, fragments, JSON, static files, refusals), as one
table: roomops' own pages need no inline script or style and load nothing from elsewhere, so the
policy is strict; docs/security.md ("Headers and inputs") says why each is there and
docs/decisions.md why a table and not Flask-Talisman."""

from __future__ import annotations

from flask import Flask, request
from werkzeug.wrappers import Response

from roomops.runtime import ext
from roomops.web.access import PUBLIC

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
))
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
HSTS = "max-age=31536000; includeSubDomains"  # a year: browsers refuse plain HTTP to the host
# ASVS V8.2.1: an answer that says nothing of caching is not kept (a shared desk PC's browser
# keeps no cage figures or names after log-out), nor is any answer of a staff route (behind a
# log-in: the desk and its polled fragments too, whose scripts send their own If-None-Match, so
# a 304 needs no kept copy); the public board and the static files say how they are cached
NOT_KEPT = "no-store"


def secure(resp: Response) -> Response:
    """Add the table's headers (a view that set its own keeps it; a staff route's is always
    ``no-store``), and HSTS when the request came
    over HTTPS or the deployment's public address is https:// (TLS ended at a proxy)."""
    for name, value in HEADERS.items():
        resp.headers.setdefault(name, value)
    if request.endpoint is not None and request.endpoint not in PUBLIC:
        resp.headers["Cache-Control"] = NOT_KEPT  # a staff route: whatever its view said
    else:
        resp.headers.setdefault("Cache-Control", NOT_KEPT)
    if request.is_secure or ext().settings.https:
        resp.headers.setdefault("Strict-Transport-Security", HSTS)
    return resp


def install(app: Flask) -> None:
    app.after_request(secure)
