"""CHECK constraint text built from a column's ``Literal`` type, so its values are written once."""

from __future__ import annotations

from typing import get_args


def sql_list(values: tuple[str, ...]) -> str:
    """``('a', 'b')``: the values as a parenthesised list of SQL string literals."""
    return "(" + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + ")"


def one_of(column: str, literal: object) -> str:
    """``column IN ('a', 'b')`` for a column typed ``Literal["a", "b"]``."""
    return f"{column} IN {sql_list(get_args(literal))}"
