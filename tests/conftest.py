"""Fixtures for every test: a PostgreSQL server for the session, a fresh database per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import postgres_server as pg


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """The session's PostgreSQL server (pgserver), started on first use, stopped at the end.

    A server that cannot start makes the tests that need it error, naming the cause; they
    are never skipped."""
    try:
        yield pg.server()
    finally:
        pg.stop()


@pytest.fixture
def postgres_url(postgres_server: Any) -> str:
    """The URL of a fresh, empty database on the session's server."""
    return pg.fresh_database()
