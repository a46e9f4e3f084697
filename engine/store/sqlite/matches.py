"""SQLite's own SQL of the ``matches`` and ``decisions`` tables (the rest is in
:mod:`engine.store.shared_sql.matches`): ids from a counter, the checks of a write's
expectations (triggers of migration 0008), and decision appends batched into one INSERT."""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import dataclass

from engine.model import DecisionRow, MatchInfo, MatchStatus
from engine.store import shared_sql
from engine.store.shared_sql.matches import (
    DECISION_COLUMNS,
    INSERT_DECISION,
    MATCH_COLUMNS,
    OPEN,
    SELECT,
)
from engine.store.shared_sql.sql import insert
from engine.store.sqlite.writer import Params, Statement

# Each seat's test repeats the status so each can use its seat's index of open matches.
SELECT_OF_PLAYER = (
    f"{SELECT} WHERE (player0_id = :user_id AND {OPEN})"
    f" OR (player1_id = :user_id AND {OPEN}) ORDER BY created_at, id"
)
SELECT_MAX_ID = "SELECT COALESCE(MAX(id), 0) AS max_id FROM matches"
SELECT_STATE = "SELECT status, version, reminded_version FROM matches WHERE id = :match_id"
# The open matches no unexpired claim holds at :now whose alarm is due: a challenge's
# expiry; a turn's deadline, or its reminder while none went out for the version; or the
# expiry of a claim no write released. Ordered by the earliest of those that apply.
_ALARM = (
    "CASE WHEN status = 'pending' THEN challenge_expires_at"
    " WHEN reminded_version IS NOT version"
    " THEN MIN(turn_deadline, turn_deadline - MIN(:reminder_lead, turn_seconds / 2.0))"
    " ELSE turn_deadline END"
)
SELECT_DUE = (
    "SELECT id, status, version FROM ("
    f" SELECT id, status, version, {_ALARM} AS alarm, claimed_until FROM matches"
    " WHERE status IN ('pending', 'active')"
    " AND (claimed_until IS NULL OR claimed_until <= :now))"
    " WHERE alarm <= :now OR claimed_until IS NOT NULL"
    " ORDER BY CASE WHEN alarm IS NULL OR claimed_until < alarm THEN claimed_until"
    " ELSE alarm END, id LIMIT :limit"
)

# Ids come from the store's counter (see SqliteMatchStore.open), so the id is given.
INSERT_MATCH = insert("matches", MATCH_COLUMNS)
# Each write that moves a match on is preceded by the check of its Expected.
FINISH_MATCH = (
    "UPDATE matches SET status = 'finished', ended_at = :ended_at, turn_deadline = NULL,"
    " to_move_id = NULL, claimed_until = NULL WHERE id = :match_id"
)
CLAIM = "UPDATE matches SET claimed_until = :until WHERE id = :match_id"
EXPECT = (
    "INSERT INTO match_expectations (match_id, status, version, unreminded, free_at)"
    " VALUES (:match_id, :status, :version, :unreminded, :free_at)"
)
CONFLICT = "conflict:"
"""How the checks of migration 0008 begin their error: the match is not as expected."""


@dataclass(frozen=True, slots=True)
class Expected:
    """What a write expects of its match: checked in its transaction, named in its conflict."""

    match_id: int
    status: MatchStatus
    version: int | None = None
    unreminded: bool = False
    """Not yet reminded at its version."""
    free_at: float | None = None
    """No claim unexpired at this time."""

    def check(self) -> Statement:
        """The statement that fails its write as a conflict unless the match is as expected."""
        params = {
            "match_id": self.match_id,
            "status": str(self.status),
            "version": self.version,
            "unreminded": self.unreminded,
            "free_at": self.free_at,
        }
        return EXPECT, params

    def __str__(self) -> str:
        said = (
            str(self.status) if self.version is None else f"version {self.version} ({self.status})"
        )
        return f"{said}, not yet reminded" if self.unreminded else said

    def found(self, row: sqlite3.Row | None) -> str:
        """The match's state (``SELECT_STATE``) in the terms of this expectation."""
        if row is None:
            return "no match"
        status, version = row["status"], row["version"]
        said = str(status) if self.version is None else f"version {version} ({status})"
        if self.unreminded and row["reminded_version"] == version:
            said += ", already reminded"
        return said


def is_conflict(error: Exception) -> bool:
    """Whether ``error`` is a check of the match failing (not another constraint)."""
    return isinstance(error, sqlite3.IntegrityError) and str(error).startswith(CONFLICT)


def match_params(match_id: int, m: MatchInfo) -> Params:
    return {"id": match_id, **shared_sql.matches.match_params(m)}


def append_decision(match_id: int, d: DecisionRow) -> Statement:
    return INSERT_DECISION, shared_sql.matches.decision_params(match_id, d)


def appends_as_one_statement(sql: str, rows: list[Params]) -> tuple[str, Params] | None:
    """A batch of decision appends as one multi-row INSERT (the usual batch); else None."""
    if sql != INSERT_DECISION:
        return None
    params = {f"{name}_{i}": value for i, row in enumerate(rows) for name, value in row.items()}
    return _insert_decisions(len(rows)), params


@functools.lru_cache(maxsize=256)
def _insert_decisions(rows: int) -> str:
    values = (
        "(" + ", ".join(f":{column}_{i}" for column in DECISION_COLUMNS) + ")" for i in range(rows)
    )
    return f"INSERT INTO decisions ({', '.join(DECISION_COLUMNS)}) VALUES {', '.join(values)}"
