"""Opening a database: migrations in order, refusing newer or corrupt files untouched, and
every failure a store error that names the file."""

from __future__ import annotations

import sqlite3

import aiosqlite
import pytest

from engine.model import GuildSettings, MatchStatus, UserSettings
from engine.store import CorruptDatabase, SchemaTooNew
from engine.store.errors import (
    CannotOpenDatabase,
    DatabaseFailure,
    MatchConflict,
    StorageFull,
    StoreError,
)
from engine.store.migration_files import Migration, latest_version, load_migrations
from engine.store.sqlite import SqliteMatchStore

from .conftest import active_match, decision_row, pending_match


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


async def open_refused(path) -> StoreError:
    """The error opening ``path`` raises (a store that opened anyway is closed, so a failing
    test does not hang on its connection's thread)."""
    store = SqliteMatchStore(path)
    try:
        with pytest.raises(StoreError) as raised:
            await store.open()
    finally:
        await store.close()
    return raised.value


async def test_a_path_with_a_nul_character_is_refused_by_name(tmp_path):
    path = f"{tmp_path}/a\0b.sqlite3"
    error = await open_refused(path)
    assert isinstance(error, CannotOpenDatabase)
    assert str(error) == (
        f"cannot open database {path!r}: a file name cannot contain a NUL character"
    )


async def test_a_disk_that_fills_during_a_migration_leaves_the_database_as_it_was(
    tmp_path, monkeypatch
):
    path = tmp_path / "full.sqlite3"
    store = SqliteMatchStore(path)
    await store.open()
    match_id = await active_match(store)
    await store.close()
    # The next bot's migration needs more room than the disk has (a page limit stands in).
    filler = Migration(
        latest_version() + 1,
        "9999_filler.sql",
        "CREATE TABLE filler (x);\nPRAGMA max_page_count = 1;\n"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)\n"
        "INSERT INTO filler SELECT randomblob(1000) FROM n;",
    )
    monkeypatch.setattr(
        "engine.store.sqlite.connection.load_migrations", lambda: (*load_migrations(), filler)
    )

    error = await open_refused(path)

    assert isinstance(error, StorageFull)
    assert repr(str(path)) in str(error) and "the disk is full" in str(error)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "filler" not in tables
    monkeypatch.undo()
    again = SqliteMatchStore(path)
    await again.open()
    assert (await again.get_match(match_id)).status is MatchStatus.ACTIVE
    await again.close()


def sqlite_error(code: int, name: str, message: str) -> sqlite3.OperationalError:
    """An error as SQLite raises it, with its result code."""
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("when", "error", "refusal"),
    [
        (
            "migrating",
            sqlite_error(sqlite3.SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE", "disk I/O error"),
            DatabaseFailure,
        ),
        (
            "migrating",
            sqlite_error(sqlite3.SQLITE_FULL, "SQLITE_FULL", "database or disk is full"),
            StorageFull,
        ),
        (
            "migrating",
            sqlite_error(sqlite3.SQLITE_READONLY, "SQLITE_READONLY", "readonly database"),
            CannotOpenDatabase,
        ),
        (
            "checking",
            sqlite_error(sqlite3.SQLITE_BUSY, "SQLITE_BUSY", "database is locked"),
            DatabaseFailure,
        ),
        (
            "checking",
            sqlite_error(sqlite3.SQLITE_IOERR_READ, "SQLITE_IOERR_READ", "disk I/O error"),
            DatabaseFailure,
        ),
        (
            "checking",
            sqlite_error(sqlite3.SQLITE_NOTADB, "SQLITE_NOTADB", "file is not a database"),
            CorruptDatabase,
        ),
    ],
    ids=lambda value: getattr(value, "sqlite_errorname", None),
)
async def test_every_sqlite_error_while_opening_is_a_store_error_naming_the_file(
    tmp_path, monkeypatch, when, error, refusal
):
    path = tmp_path / "games.sqlite3"
    if when == "checking":  # an existing database is read before anything is written
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE t (x)")
        conn.close()

    async def fails(*args, **kwargs):
        raise error

    method = "executescript" if when == "migrating" else "execute_fetchall"
    monkeypatch.setattr(aiosqlite.Connection, method, fails)

    refused = await open_refused(path)

    assert type(refused) is refusal
    assert repr(str(path)) in str(refused)
    if refusal is DatabaseFailure:  # a lock or an I/O error is no reason to restore a backup
        assert str(error) in str(refused) and error.sqlite_errorname in str(refused)


async def test_a_version_7_database_keeps_its_matches_and_checks_writes_from_then_on(tmp_path):
    path = tmp_path / "v7.sqlite3"
    version_7 = [m for m in load_migrations() if m.version <= 7]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(m.sql for m in version_7) + "\nPRAGMA user_version = 7;")
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, thread_id,"
            " turn_seconds, expiry_policy, created_at, seed, first_player)"
            " VALUES (7, 'active', 'standard', 1, 2, 70, 60, 'ai', 100, 42, 0)"
        )
        conn.execute(  # the trigger of migration 1 makes it the match's version
            "INSERT INTO decisions (match_id, seq, seat, decision, decided_at)"
            " VALUES (7, 1, 0, '1A', 101)"
        )
    conn.close()

    store = SqliteMatchStore(path)
    await store.open()
    try:
        since = await store.match_since(7, 0)
        assert since is not None
        match, decisions = since
        assert (match.status, match.version, [d.seq for d in decisions]) == ("active", 1, [1])
        assert (await store.match_in_thread(70)) == match
        assert await store.open_matches_of(2) == [match]
        with pytest.raises(MatchConflict, match="expected version 0 \\(active\\)"):
            await store.append_decision(7, decision_row(1))
        assert await store.claim(7, 1, until=500.0, now=200.0)
        await store.append_decision(7, decision_row(2))  # releases the claim
        assert await store.claim(7, 2, until=500.0, now=200.0)
    finally:
        await store.close()


async def test_a_version_8_database_gains_no_hints_no_shared_reviews_and_no_reviews(tmp_path):
    path = tmp_path / "v8.sqlite3"
    version_8 = [m for m in load_migrations() if m.version <= 8]
    with sqlite3.connect(path) as conn:
        conn.executescript("\n".join(m.sql for m in version_8) + "\nPRAGMA user_version = 8;")
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, ai_level,"
            " turn_seconds, expiry_policy, created_at, seed, first_player)"
            " VALUES (7, 'active', 'standard', 1, 0, 'hard', 60, 'ai', 100, 42, 0)"
        )
        conn.execute("INSERT INTO user_settings (user_id, dm_notifications) VALUES (1, 1)")
    conn.close()

    store = SqliteMatchStore(path)
    await store.open()
    try:
        match = await store.get_match(7)
        assert match is not None and match.is_ai_match and not match.hints
        assert await store.user_settings(1) == UserSettings(1, dm_notifications=True)
        assert await store.review_of(7) is None
    finally:
        await store.close()


async def test_a_version_9_database_keeps_its_matches_and_can_abandon_them(tmp_path):
    path = tmp_path / "v9.sqlite3"
    version_9 = [m for m in load_migrations() if m.version <= 9]
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.executescript("\n".join(m.sql for m in version_9) + "\nPRAGMA user_version = 9;")
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, guild_id,"
            " channel_id, thread_id, turn_seconds, expiry_policy, created_at, seed,"
            " first_player, hints)"
            " VALUES (7, 'active', 'standard', 1, 2, 5, 6, 70, 60, 'ai', 100, 42, 0, 0)"
        )
        conn.execute(
            "INSERT INTO matches (id, status, variant, player0_id, player1_id, turn_seconds,"
            " expiry_policy, created_at, rematch_of)"
            " VALUES (8, 'pending', 'standard', 2, 1, 60, 'ai', 100, 7)"
        )
        conn.execute(
            "INSERT INTO decisions (match_id, seq, seat, decision, decided_at)"
            " VALUES (7, 1, 0, '1A', 101)"
        )
    conn.close()

    store = SqliteMatchStore(path)
    await store.open()
    try:
        match = await store.get_match(7)
        assert match is not None and match.version == 1 and match.placement.thread_id == 70
        assert [m.match_id for m in await store.rematches_of(7)] == [8]
        await store.append_decision(7, decision_row(2))  # the triggers are back
        assert (await store.get_match(7)).version == 2  # type: ignore[union-attr]
        await store.abandon_match(7, MatchStatus.ACTIVE, 200.0)
        assert (await store.get_match(7)).status is MatchStatus.ABANDONED  # type: ignore[union-attr]
        with pytest.raises(MatchConflict):
            await store.append_decision(7, decision_row(3))
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    conn.close()
