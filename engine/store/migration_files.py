"""Finding the ordered SQL migration files shipped with a store: SQLite's in
:mod:`engine.store.migrations`, PostgreSQL's in :mod:`engine.store.postgres.migrations`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")

SQLITE_MIGRATIONS = "engine.store.migrations"


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(package: str = SQLITE_MIGRATIONS) -> tuple[Migration, ...]:
    """Every migration file in ``package``, by version; versions must run 1, 2, 3... without
    gaps."""
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise RuntimeError(f"migration {expected:04d} is missing (found {migration.name!r})")
    return tuple(found)


def latest_version(package: str = SQLITE_MIGRATIONS) -> int:
    migrations = load_migrations(package)
    return migrations[-1].version if migrations else 0
