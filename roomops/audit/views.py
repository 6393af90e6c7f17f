"""Placeholder: filled in by the audit work."""

from flask import Blueprint

bp = Blueprint("audit", __name__)
