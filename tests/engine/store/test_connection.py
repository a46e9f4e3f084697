"""Opening a database: migrations in order, refusing newer or corrupt files untouched."""

from __future__ import annotations

import sqlite3

import pytest

from engine.store import (
    CorruptDatabase,
    GuildSettings,
    MatchStatus,
    SchemaTooNew,
)
from engine.store.migration_files import latest_version, load_migrations
from engine.store.sqlite import SqliteMatchStore

from .conftest import active_match, pending_match


async def test_a_new_database_is_migrated_to_the_latest_version_in_wal_mode(tmp_path):
    path = tmp_path / "fresh.sqlite3"
    store = SqliteMatchStore(path)
    await store.open()
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_reopening_keeps_the_data_and_applies_no_migration_twice(tmp_path):
    path = tmp_path / "again.sqlite3"
    first = SqliteMatchStore(path)
    await first.open()
    match_id = await active_match(first)
    await first.close()
    second = SqliteMatchStore(path)
    await second.open()
    assert (await second.get_match(match_id)).status is MatchStatus.ACTIVE
    assert (await second.create_match(pending_match())).match_id == match_id + 1
    await second.close()


async def test_a_newer_schema_stops_start_up_and_leaves_the_file_untouched(tmp_path):
    path = tmp_path / "newer.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 99")
    conn.close()
    before = path.read_bytes()

    latest = latest_version()
    with pytest.raises(SchemaTooNew, match=rf"schema version 99.*knows only up to {latest}"):
        await SqliteMatchStore(path).open()

    assert path.read_bytes() == before


@pytest.mark.parametrize("damage", ["garbage", "torn-page"])
async def test_a_corrupt_database_stops_start_up_and_leaves_the_file_untouched(tmp_path, damage):
    path = tmp_path / "corrupt.sqlite3"
    if damage == "garbage":
        path.write_bytes(b"this is not a database, just a text file " * 200)
    else:
        store = SqliteMatchStore(path)
        await store.open()
        for _ in range(50):
            await active_match(store)
        await store.close()
        data = bytearray(path.read_bytes())
        page = 4096
        data[2 * page : 3 * page] = b"\xa5" * page  # overwrite a b-tree page
        path.write_bytes(bytes(data))
    before = path.read_bytes()

    with pytest.raises(CorruptDatabase, match="corrupt or not a SQLite database"):
        await SqliteMatchStore(path).open()

    assert path.read_bytes() == before


async def test_a_database_of_an_older_version_is_migrated_and_keeps_its_matches(tmp_path):
    path = tmp_path / "old.sqlite3"
    version_3 = [m for m in load_migrations() if m.version <= 3]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(m.sql for m in version_3) + "\nPRAGMA user_version = 3;")
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, turn_seconds,"
            " expiry_policy, created_at) VALUES (7, 'finished', 'standard', 1, 2, 60, 'ai', 100)"
        )
    conn.close()

    store = SqliteMatchStore(path)
    await store.open()
    match = await store.get_match(7)
    await store.close()

    assert match is not None and match.status is MatchStatus.FINISHED
    assert match.rematch_of is None
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
    conn.close()


async def test_saved_guild_settings_equal_to_the_old_defaults_follow_the_config(tmp_path):
    # Before migration 5 every saved row froze threads-on and standard-variant, even a row
    # saved only to pick a language; those values now mean "the configured default".
    path = tmp_path / "old.sqlite3"
    version_4 = [m for m in load_migrations() if m.version <= 4]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(m.sql for m in version_4) + "\nPRAGMA user_version = 4;")
        conn.executemany(
            "INSERT INTO guild_settings (guild_id, turn_seconds, thread_per_match,"
            " three_rounds_default, language) VALUES (?, ?, ?, ?, ?)",
            [(1, None, 1, 0, "es"), (2, 120.0, 0, 1, None)],
        )
    conn.close()

    store = SqliteMatchStore(path)
    await store.open()
    language_only = await store.guild_settings(1)
    chosen = await store.guild_settings(2)
    await store.close()

    assert language_only == GuildSettings(1, language="es")
    assert chosen == GuildSettings(
        2, turn_seconds=120.0, thread_per_match=False, three_rounds_default=True
    )
