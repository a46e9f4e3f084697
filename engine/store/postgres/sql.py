"""Named parameters for asyncpg, which numbers its own (``$1``): the SQL here says
``:match_id``, and :func:`bind` turns it into numbered SQL and the values in order."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

Params = Mapping[str, Any]
"""Named parameters of one statement (``:match_id`` in the SQL, ``"match_id"`` here)."""

# ``:name`` but not the ``::type`` of a cast.
_NAMED = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")


@functools.lru_cache(maxsize=512)
def numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` with ``$1, $2...`` for its named parameters, and those names in order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _NAMED.sub(number, sql), tuple(names)


def bind(sql: str, params: Params) -> tuple[str, list[Any]]:
    """The numbered SQL and its arguments; ``params`` the SQL does not name are left out."""
    text, names = numbered(sql)
    missing = [name for name in names if name not in params]
    if missing:
        raise KeyError(f"no value for {', '.join(':' + n for n in missing)} in {sql!r}")
    return text, [params[name] for name in names]


def bind_many(sql: str, rows: Sequence[Params]) -> tuple[str, list[list[Any]]]:
    """:func:`bind` for an ``executemany`` of ``sql`` over ``rows``."""
    text, names = numbered(sql)
    return text, [[row[name] for name in names] for row in rows]


async def fetch(conn: Any, sql: str, params: Params | None = None) -> list[Any]:
    """The rows of a query (asyncpg records, addressable by column name)."""
    text, args = bind(sql, params or {})
    return list(await conn.fetch(text, *args))


async def fetchrow(conn: Any, sql: str, params: Params | None = None) -> Any:
    """The first row of a query, or None."""
    text, args = bind(sql, params or {})
    return await conn.fetchrow(text, *args)


async def execute(conn: Any, sql: str, params: Params | None = None) -> None:
    text, args = bind(sql, params or {})
    await conn.execute(text, *args)


async def execute_many(conn: Any, sql: str, rows: Sequence[Params]) -> None:
    """``sql`` once per row, in one trip to the server."""
    if rows:
        text, args = bind_many(sql, rows)
        await conn.executemany(text, args)


def replacing(keys: tuple[str, ...], columns: tuple[str, ...]) -> str:
    """What makes an INSERT of ``columns`` replace the row with the same ``keys`` (SQLite's
    INSERT OR REPLACE), appended to it."""
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns if c not in keys)
    return f" ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
