"""Placeholder: filled in by the desk work."""

from flask import Blueprint

bp = Blueprint("desk", __name__)


@bp.get("/desk")
def index() -> str:
    return "desk"
