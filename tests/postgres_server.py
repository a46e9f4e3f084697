"""A PostgreSQL server for the tests, from the pgserver wheel (the ``test`` extra): one per
test session, started on first use on a temporary directory and reached by a Unix socket
(never a fixed port), and a fresh database per test.

pgserver runs the server as its own system user when the tests run as root (PostgreSQL
refuses to run as root).
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import warnings
from pathlib import Path

with warnings.catch_warnings():
    # pgserver looks up a runtime directory on import; where XDG_RUNTIME_DIR is unset (a
    # container, CI) platformdirs falls back to /tmp, rightly for us, and warns.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    from pgserver.postgres_server import PostgresServer, get_server

# Durability is not under test and a crashed test server is thrown away: skip the fsyncs.
_FAST = """
ALTER SYSTEM SET fsync = off;
ALTER SYSTEM SET synchronous_commit = off;
ALTER SYSTEM SET full_page_writes = off;
SELECT pg_reload_conf();
"""

_server: PostgresServer | None = None
_directory: Path | None = None
_databases = itertools.count(1)


class PostgresUnavailable(RuntimeError):
    """The test server could not be started or used."""


def server() -> PostgresServer:
    """The session's server, started on first use."""
    global _server, _directory
    if _server is None:
        # A short path: the server's socket lives under it, and socket paths are short.
        _directory = Path(tempfile.mkdtemp(prefix="hk-pg-"))
        try:
            _server = get_server(_directory / "data", cleanup_mode="stop")
            _server.psql(_FAST)
        except Exception as error:
            stop()
            raise PostgresUnavailable(
                f"could not start the test PostgreSQL server with pgserver: {error!r}"
            ) from error
    return _server


def fresh_database() -> str:
    """The URL of a new, empty database on the session's server."""
    name = f"test_{next(_databases)}"
    try:
        server().psql(f"CREATE DATABASE {name};")
    except PostgresUnavailable:
        raise
    except Exception as error:
        raise PostgresUnavailable(f"could not create database {name!r}: {error!r}") from error
    uri: str = server().get_uri(name)
    return uri


def stop() -> None:
    """Stop the session's server, if one was started, and delete its files."""
    global _server, _directory
    if _server is not None:
        _server.cleanup()
        _server = None
    if _directory is not None:
        shutil.rmtree(_directory, ignore_errors=True)
        _directory = None
