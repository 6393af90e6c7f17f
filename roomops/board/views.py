"""Placeholder: filled in by the board work."""

from flask import Blueprint

bp = Blueprint("board", __name__)
