"""A full disk on demand: SQLite's page limit stands in for the disk's last byte."""

from __future__ import annotations

import sqlite3

import aiosqlite

from engine.store.sqlite import SqliteMatchStore


def connection_of(store: SqliteMatchStore) -> aiosqlite.Connection:
    """The store's own connection: ``max_page_count`` holds for that connection only."""
    conn = store._conn
    assert conn is not None, "the store is open"
    return conn


async def fill_the_disk(store: SqliteMatchStore) -> None:
    """Cap the database at its size and fill the pages it still has free, so that a write
    that needs room fails with SQLITE_FULL ("database or disk is full").

    The tables' last pages may still hold a few small rows; as they would once full, each
    new decision then needs a page of its own (a TEMP trigger, on this connection only).
    """
    conn = connection_of(store)
    [(pages,)] = await conn.execute_fetchall("PRAGMA page_count")
    await conn.execute(f"PRAGMA max_page_count = {pages + 8}")
    await conn.execute("CREATE TABLE IF NOT EXISTS disk_filler (junk BLOB)")
    for size in (4000, 1000, 200, 20, 1):
        while True:
            try:
                await conn.execute(
                    "INSERT INTO disk_filler VALUES (zeroblob(:size))", {"size": size}
                )
            except sqlite3.OperationalError:
                break
    await conn.execute(
        "CREATE TEMP TRIGGER IF NOT EXISTS a_decision_needs_room AFTER INSERT ON main.decisions"
        " BEGIN INSERT INTO disk_filler VALUES (zeroblob(5000)); END"
    )


async def make_room(store: SqliteMatchStore) -> None:
    """Space is back: lift the cap."""
    await connection_of(store).execute("PRAGMA max_page_count = 1073741823")
