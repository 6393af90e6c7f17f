"""Placeholder: filled in by the api work."""

from flask import Blueprint

bp = Blueprint("api", __name__)
