"""Fixtures and settings for every test: a PostgreSQL server per test process, a fresh
database per test, Hypothesis without deadlines, and the slow tests handed out first.

The suite runs in parallel (``-n`` in pyproject's addopts, pytest-xdist): every fixture
here and in the packages' conftests is per test process or per test, so a new test is
parallel-safe without doing anything: its own PostgreSQL database (`postgres_url`), its
own emulator on a port the system picks (`emulator`), its own ``tmp_path``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests import postgres_server as pg

# A test may not depend on the machine's speed: no deadline per example, and no health
# check that times data generation. Examples come from a fixed seed, so a failure found
# once is found again (and nothing is written to the example database, which parallel
# test processes would share).
settings.register_profile(
    "suite",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("suite")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: with parallel workers, a long test started last would run
    alone at the end while the other workers sit idle."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """This test process's PostgreSQL server (pgserver), started on first use, stopped at
    the end; each parallel worker has its own (its own data directory and Unix socket).

    A server that cannot start makes the tests that need it error, naming the cause; they
    are never skipped."""
    try:
        yield pg.server()
    finally:
        pg.stop()


@pytest.fixture
def postgres_url(postgres_server: Any) -> str:
    """The URL of a fresh, empty database on this process's server."""
    return pg.fresh_database()


@pytest.fixture(autouse=True)
def synced_commands_marker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A bot on PostgreSQL keeps its synced-commands digest in the working directory
    (bot.command_sync.POSTGRES_MARKER); a test's bot keeps it in a directory of its own,
    never in the checkout."""
    from bot import command_sync

    saved = command_sync.POSTGRES_MARKER
    directory = tmp_path_factory.mktemp("synced-commands")
    command_sync.POSTGRES_MARKER = directory / saved.name
    try:
        yield
    finally:
        command_sync.POSTGRES_MARKER = saved
