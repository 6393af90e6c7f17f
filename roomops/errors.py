"""Domain errors: every refusal names the problem and, where it is a room rule, the rule id."""

from __future__ import annotations


class RoomopsError(Exception):
    """A refused request. ``status`` is the HTTP status the web layer answers with."""

    status = 400

    def __init__(self, message: str, rule: str | None = None, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        if status is not None:
            self.status = status

    def to_dict(self) -> dict[str, str | None]:
        return {"error": self.message, "rule": self.rule}

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


class NotFound(RoomopsError):
    status = 404


class Forbidden(RoomopsError):
    status = 403


class Conflict(RoomopsError):
    """The request is valid but the room's state or rules refuse it now."""

    status = 409


class Invalid(RoomopsError):
    """The request itself is malformed or out of range."""

    status = 422
