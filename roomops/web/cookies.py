"""The browser's session cookie (Flask-Login's log-in), as Flask signs it."""

from __future__ import annotations

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with the signer built only for a request that carries the
    cookie. An API call with a token, the board's screens and a first visit carry none, and
    building the signer cost more than the rest of opening the session (docs/benchmarks.md)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()  # what Flask's own gives a request without the cookie
        return super().open_session(app, request)
