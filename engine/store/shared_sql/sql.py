"""A row as both drivers hand it over, and the SQL built from a table's list of columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

Statement = tuple[str, Mapping[str, Any]]
"""One statement and its named parameters (``:match_id`` in the SQL, ``"match_id"`` here)."""


class Row(Protocol):
    """A result row read by column name: ``sqlite3.Row`` and ``asyncpg.Record`` alike."""

    def __getitem__(self, column: str, /) -> Any: ...


def select(table: str, columns: tuple[str, ...]) -> str:
    return f"SELECT {', '.join(columns)} FROM {table}"


def insert(table: str, columns: tuple[str, ...]) -> str:
    """An INSERT of one row, each column's value named after it (``:column``)."""
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join(':' + c for c in columns)})"
    )
