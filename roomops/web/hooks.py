"""Providers calling back: Twilio's delivery reports (``/hooks/twilio/status``, docs/messages.md).

No log-in: Twilio signs each report with the account's auth token (``X-Twilio-Signature`` over
the address it called and the form it sent), and an unsigned or wrongly signed report is refused
with 403 before anything is read or written."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, jsonify, request
from flask_wtf.csrf import CSRFProtect
from werkzeug.wrappers import Response

from roomops.messages.sending import record_report
from roomops.messages.twilio_sms import error_text, valid_signature
from roomops.runtime import ext
from roomops.web.routing import parse_id
from roomops.web.uow import db, now

bp = Blueprint("hooks", __name__)


def install(app: Flask, csrf: CSRFProtect) -> None:
    csrf.exempt(bp)  # Twilio has no CSRF token: its signature is the check
    app.register_blueprint(bp)


def _called_url() -> str:
    """The address Twilio called, as it signed it: the configured callback, this query."""
    base = urlsplit(ext().settings.twilio_status_url)
    return base._replace(query=request.query_string.decode()).geturl()


@bp.post("/hooks/twilio/status")
def twilio_status() -> Response | tuple[Response, int]:
    """R20: a text's delivery state, shown on the desk beside the offer."""
    settings = ext().settings.twilio
    if not settings.configured:
        return jsonify(error="no text-message provider is set up"), 404
    signature = request.headers.get("X-Twilio-Signature", "")
    if not valid_signature(settings, _called_url(), request.form.to_dict(), signature):
        return jsonify(error="the report is not signed by this room's Twilio account"), 403
    form = request.form
    sid, code = form.get("MessageSid", "")[:64], form.get("ErrorCode")
    session = db()
    record_report(session, now(), parse_id(request.args.get("message", "")), sid,
                  form.get("MessageStatus", ""), error_text(code) if code else None)
    session.commit()
    return Response(status=204)
