"""A row as both drivers hand it over, and the SQL built from a table's list of columns."""

from __future__ import annotations

from typing import Any, Protocol


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
