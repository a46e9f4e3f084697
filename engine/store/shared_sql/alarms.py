"""The ``alarms`` table: every feature's due things, claimed by one process at a time.

An alarm is claimed until ``claimed_until``; its work then deletes it (release) or moves
it later (retry), each only while the claim is still the one it took, so an alarm set
again meanwhile (by that very work: the next season's end) is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.store.alarm import Alarm
from engine.store.shared_sql.sql import Row

# Setting an alarm again moves it and drops any claim: its old work is not its new work.
SET = (
    "INSERT INTO alarms (kind, subject, due_at, claimed_until, attempt)"
    " VALUES (:kind, :subject, :due_at, NULL, :attempt)"
    " ON CONFLICT (kind, subject) DO UPDATE SET due_at = excluded.due_at,"
    " claimed_until = NULL, attempt = excluded.attempt"
)
CLEAR = "DELETE FROM alarms WHERE kind = :kind AND subject = :subject"

_FREE = "(claimed_until IS NULL OR claimed_until <= :now)"
DUE_WHERE = f"due_at <= :now AND {_FREE}"
SELECT_DUE = (
    "SELECT kind, subject, due_at, attempt FROM alarms"
    f" WHERE {DUE_WHERE} ORDER BY due_at, kind, subject LIMIT :limit"
)
CLAIM = "UPDATE alarms SET claimed_until = :until WHERE kind = :kind AND subject = :subject"

# Still the claim its work took: same due time, and (release) held until the same time.
RELEASE = (
    "DELETE FROM alarms WHERE kind = :kind AND subject = :subject AND due_at = :due_at"
    " AND claimed_until = :until"
)
# Only the same claim (its due time and its end): an alarm set again meanwhile, or whose
# claim ran out and was taken over by another process, is left alone.
RETRY = (
    "UPDATE alarms SET due_at = :next_due_at, attempt = :next_attempt, claimed_until = NULL"
    " WHERE kind = :kind AND subject = :subject AND due_at = :due_at"
    " AND claimed_until = :until"
)

# A claimed alarm can be taken again only when its claim runs out: a process whose work
# failed (or that waits on another's) is not to be polled in a loop.
NEXT_DUE = (
    "SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END) AS at"
    " FROM alarms"
)


def set_params(alarm: Alarm) -> dict[str, Any]:
    return {
        "kind": alarm.kind,
        "subject": alarm.subject,
        "due_at": alarm.due_at,
        "attempt": alarm.attempt,
    }


def key_params(key: tuple[str, int]) -> dict[str, Any]:
    return {"kind": key[0], "subject": key[1]}


def sets_and_clears(
    alarms: Sequence[Alarm], cleared: Sequence[tuple[str, int]]
) -> list[tuple[str, dict[str, Any]]]:
    """The statements clearing ``cleared``, then setting ``alarms``."""
    return [(CLEAR, key_params(key)) for key in cleared] + [
        (SET, set_params(alarm)) for alarm in alarms
    ]


def release_params(alarm: Alarm, until: float) -> dict[str, Any]:
    return {**key_params(alarm.key), "due_at": alarm.due_at, "until": until}


def retry_params(alarm: Alarm, until: float, due_at: float) -> dict[str, Any]:
    return {
        **key_params(alarm.key),
        "due_at": alarm.due_at,
        "until": until,
        "next_due_at": due_at,
        "next_attempt": alarm.attempt + 1,
    }


def alarm_from_row(row: Row) -> Alarm:
    return Alarm(row["kind"], row["subject"], row["due_at"], row["attempt"])
