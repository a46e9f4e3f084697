"""A host builds the configured store through engine.hosting: the SQLite file by default,
PostgreSQL when a URL is given, each with the bounds it was told; loading the PostgreSQL
driver only when it is asked for."""

from __future__ import annotations

import subprocess
import sys

from engine.hosting import DatabaseTimeouts, open_store
from engine.store.postgres import PostgresMatchStore
from engine.store.sqlite import SqliteMatchStore

BOUNDS = DatabaseTimeouts(command_seconds=2.0, busy_seconds=3.0)


def test_without_a_url_the_store_is_the_sqlite_file(tmp_path):
    store = open_store(path=tmp_path / "m.sqlite3", url=None, origin="p0", timeouts=BOUNDS)
    assert isinstance(store, SqliteMatchStore) and not store.shared
    assert store.timeouts == BOUNDS


def test_with_a_url_the_store_is_postgres_named_for_its_process(tmp_path):
    url = "postgresql://bot@localhost/hanamikoji"
    store = open_store(path=tmp_path / "unused", url=url, origin="p1", timeouts=BOUNDS)
    assert isinstance(store, PostgresMatchStore) and store.shared
    assert (store.url, store.origin, store.timeouts) == (url, "p1", BOUNDS)


def test_a_bot_on_sqlite_never_loads_the_postgres_driver(tmp_path):
    script = (
        "import sys\n"
        "from engine.hosting import DatabaseTimeouts, open_store\n"
        f"open_store(path={str(tmp_path / 'm.sqlite3')!r}, url=None, origin='p0',"
        " timeouts=DatabaseTimeouts())\n"
        "print(sorted(m for m in sys.modules if m.startswith('asyncpg')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"
