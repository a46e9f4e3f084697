"""SQL of the ``matches`` and ``decisions`` tables: a match's row and its decision log."""

from __future__ import annotations

import functools
import sqlite3
from dataclasses import dataclass

from engine.rules.state import Variant
from engine.store.rows import DecisionRow, ExpiryPolicy, MatchInfo, MatchStatus, Placement
from engine.store.sqlite.writer import Params, Statement

MATCH_COLUMNS = (
    "id",
    "status",
    "variant",
    "player0_id",
    "player1_id",
    "ai_level",
    "guild_id",
    "channel_id",
    "thread_id",
    "board_message_id",
    "turn_seconds",
    "expiry_policy",
    "created_at",
    "challenge_expires_at",
    "seed",
    "first_player",
    "started_at",
    "turn_deadline",
    "version",
    "reminded_version",
    "ended_at",
    "broken_reason",
    "rematch_of",
)
_SELECT_MATCH = f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches"

SELECT_MATCH = f"{_SELECT_MATCH} WHERE id = :match_id"
SELECT_OPEN_MATCHES = f"{_SELECT_MATCH} WHERE status IN ('pending', 'active') ORDER BY id"
SELECT_REMATCHES = f"{_SELECT_MATCH} WHERE rematch_of = :match_id ORDER BY id DESC"
SELECT_STARTED_BY = (
    f"{_SELECT_MATCH} WHERE player0_id = :user_id AND created_at >= :since ORDER BY created_at, id"
)
# Each seat's test repeats the status so each can use its seat's index of open matches.
SELECT_OF_PLAYER = (
    f"{_SELECT_MATCH} WHERE (player0_id = :user_id AND status IN ('pending', 'active'))"
    " OR (player1_id = :user_id AND status IN ('pending', 'active')) ORDER BY created_at, id"
)
SELECT_IN_THREAD = (
    f"{_SELECT_MATCH} WHERE thread_id = :thread_id AND status IN ('pending', 'active')"
    " ORDER BY id DESC LIMIT 1"
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

INSERT_MATCH = (
    f"INSERT INTO matches ({', '.join(MATCH_COLUMNS)})"
    f" VALUES ({', '.join(':' + c for c in MATCH_COLUMNS)})"
)
# Each write that moves a match on is preceded by the check of its Expected, and releases
# the match's claim.
# The challenge's message stops being the match's message: the board is posted anew.
START_MATCH = (
    "UPDATE matches SET status = 'active', seed = :seed, first_player = :first_player,"
    " started_at = :started_at, turn_deadline = :turn_deadline, board_message_id = NULL,"
    " claimed_until = NULL WHERE id = :match_id"
)
CLOSE_CHALLENGE = (
    "UPDATE matches SET status = :status, ended_at = :ended_at, claimed_until = NULL"
    " WHERE id = :match_id"
)
FINISH_MATCH = (
    "UPDATE matches SET status = 'finished', ended_at = :ended_at, turn_deadline = NULL,"
    " claimed_until = NULL WHERE id = :match_id"
)
MARK_BROKEN = (
    "UPDATE matches SET status = 'broken', broken_reason = :reason, ended_at = :ended_at,"
    " claimed_until = NULL WHERE id = :match_id"
)
SET_REMINDED = (
    "UPDATE matches SET reminded_version = :version, claimed_until = NULL WHERE id = :match_id"
)
CLAIM = "UPDATE matches SET claimed_until = :until WHERE id = :match_id"
EXPECT = (
    "INSERT INTO match_expectations (match_id, status, version, unreminded, free_at)"
    " VALUES (:match_id, :status, :version, :unreminded, :free_at)"
)
CONFLICT = "conflict:"
"""How the checks of migration 0008 begin their error: the match is not as expected."""
SET_LOCATION = (
    "UPDATE matches SET thread_id = :thread_id, board_message_id = :board_message_id"
    " WHERE id = :match_id"
)

DECISION_COLUMNS = (
    "match_id",
    "seq",
    "seat",
    "decision",
    "decided_at",
    "automatic",
    "next_deadline",
)
INSERT_DECISION = (
    f"INSERT INTO decisions ({', '.join(DECISION_COLUMNS)})"
    f" VALUES ({', '.join(':' + c for c in DECISION_COLUMNS)})"
)
SELECT_DECISIONS = (
    f"SELECT {', '.join(DECISION_COLUMNS)} FROM decisions WHERE match_id = :match_id ORDER BY seq"
)
SELECT_DECISIONS_SINCE = (
    f"SELECT {', '.join(DECISION_COLUMNS)} FROM decisions"
    " WHERE match_id = :match_id AND seq > :version ORDER BY seq"
)
SELECT_OPEN_DECISIONS = (
    f"SELECT {', '.join('d.' + c for c in DECISION_COLUMNS)}"
    " FROM decisions d JOIN matches m ON m.id = d.match_id"
    " WHERE m.status = 'active' ORDER BY d.match_id, d.seq"
)


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
    return {
        "id": match_id,
        "status": str(m.status),
        "variant": str(m.variant),
        "player0_id": m.players[0],
        "player1_id": m.players[1],
        "ai_level": m.ai_level,
        "guild_id": m.guild_id,
        "channel_id": m.channel_id,
        "thread_id": m.placement.thread_id,
        "board_message_id": m.placement.board_message_id,
        "turn_seconds": m.turn_seconds,
        "expiry_policy": str(m.expiry_policy),
        "created_at": m.created_at,
        "challenge_expires_at": m.challenge_expires_at,
        "seed": m.seed,
        "first_player": m.first_player,
        "started_at": m.started_at,
        "turn_deadline": m.turn_deadline,
        "version": m.version,
        "reminded_version": m.reminded_version,
        "ended_at": m.ended_at,
        "broken_reason": m.broken_reason,
        "rematch_of": m.rematch_of,
    }


def match_from_row(row: sqlite3.Row) -> MatchInfo:
    return MatchInfo(
        match_id=row["id"],
        status=MatchStatus(row["status"]),
        variant=Variant(row["variant"]),
        players=(row["player0_id"], row["player1_id"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        turn_seconds=row["turn_seconds"],
        expiry_policy=ExpiryPolicy(row["expiry_policy"]),
        created_at=row["created_at"],
        ai_level=row["ai_level"],
        placement=Placement(row["thread_id"], row["board_message_id"]),
        challenge_expires_at=row["challenge_expires_at"],
        seed=row["seed"],
        first_player=row["first_player"],
        started_at=row["started_at"],
        turn_deadline=row["turn_deadline"],
        version=row["version"],
        reminded_version=row["reminded_version"],
        ended_at=row["ended_at"],
        broken_reason=row["broken_reason"],
        rematch_of=row["rematch_of"],
    )


def append_decision(match_id: int, d: DecisionRow) -> Statement:
    params = {
        "match_id": match_id,
        "seq": d.seq,
        "seat": d.seat,
        "decision": d.decision,
        "decided_at": d.decided_at,
        "automatic": d.automatic,
        "next_deadline": d.next_deadline,
    }
    return INSERT_DECISION, params


def decision_from_row(row: sqlite3.Row) -> DecisionRow:
    return DecisionRow(
        seq=row["seq"],
        seat=row["seat"],
        decision=row["decision"],
        decided_at=row["decided_at"],
        automatic=bool(row["automatic"]),
        next_deadline=row["next_deadline"],
    )


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
