"""SQL of the ``matches`` and ``decisions`` tables: a match's row, its decision log, and
the row lock under which a write checks the match is still as its caller saw it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.rules.state import Variant
from engine.store.errors import MatchConflict
from engine.store.postgres.sql import Params, execute, fetchrow
from engine.store.rows import DecisionRow, ExpiryPolicy, MatchInfo, MatchStatus, Placement

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
OPEN = "status IN ('pending', 'active')"
_SELECT_MATCH = f"SELECT {', '.join(MATCH_COLUMNS)} FROM matches"

SELECT_MATCH = f"{_SELECT_MATCH} WHERE id = :match_id"
SELECT_OPEN_MATCHES = f"{_SELECT_MATCH} WHERE {OPEN} ORDER BY id"
SELECT_OPEN_OF = (
    f"{_SELECT_MATCH} WHERE {OPEN} AND (player0_id = :user_id OR player1_id = :user_id)"
    " ORDER BY created_at, id"
)
SELECT_IN_THREAD = f"{_SELECT_MATCH} WHERE {OPEN} AND thread_id = :thread_id ORDER BY id DESC"
SELECT_REMATCHES = f"{_SELECT_MATCH} WHERE rematch_of = :match_id ORDER BY id DESC"
SELECT_STARTED_BY = (
    f"{_SELECT_MATCH} WHERE player0_id = :user_id AND created_at >= :since ORDER BY created_at, id"
)

# The id comes from the table's identity, so it is left out.
INSERT_MATCH = (
    f"INSERT INTO matches ({', '.join(MATCH_COLUMNS[1:])})"
    f" VALUES ({', '.join(':' + c for c in MATCH_COLUMNS[1:])}) RETURNING id"
)
# Every write that moves a match on clears its claim (claimed_until), releasing the work
# a process took on for it. The challenge's message stops being the match's message when
# it starts: the board is posted anew.
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
    "UPDATE matches SET status = 'finished', version = :version, ended_at = :ended_at,"
    " turn_deadline = NULL, claimed_until = NULL WHERE id = :match_id"
)
MARK_BROKEN = (
    "UPDATE matches SET status = 'broken', broken_reason = :reason, ended_at = :ended_at,"
    " claimed_until = NULL WHERE id = :match_id"
)
SET_REMINDED = (
    "UPDATE matches SET reminded_version = :version, claimed_until = NULL WHERE id = :match_id"
)
SET_LOCATION = (
    "UPDATE matches SET thread_id = :thread_id, board_message_id = :board_message_id"
    " WHERE id = :match_id"
)
# Held until the transaction ends: writers of one match take turns from here on.
LOCK_MATCH = "SELECT status, version, reminded_version FROM matches WHERE id = :match_id FOR UPDATE"

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
# The decision and the match's move to it, in one statement (one trip to the server).
APPEND_DECISION = (
    "WITH advanced AS (UPDATE matches SET version = :seq, turn_deadline = :next_deadline,"
    " claimed_until = NULL WHERE id = :match_id) " + INSERT_DECISION
)
_SELECT_DECISIONS = f"SELECT {', '.join(DECISION_COLUMNS)} FROM decisions"
SELECT_DECISIONS = f"{_SELECT_DECISIONS} WHERE match_id = :match_id ORDER BY seq"
SELECT_DECISIONS_AFTER = (
    f"{_SELECT_DECISIONS} WHERE match_id = :match_id AND seq > :version ORDER BY seq"
)
SELECT_OPEN_DECISIONS = (
    f"SELECT {', '.join('d.' + c for c in DECISION_COLUMNS)}"
    " FROM decisions d JOIN matches m ON m.id = d.match_id"
    " WHERE m.status = 'active' ORDER BY d.match_id, d.seq"
)


@dataclass(frozen=True, slots=True)
class Locked:
    """A match's row as its write found it, locked until the write commits."""

    status: MatchStatus
    version: int
    reminded_version: int | None

    def __str__(self) -> str:
        return f"version {self.version} ({self.status})"


async def lock(conn: Any, match_id: int) -> Locked | None:
    row = await fetchrow(conn, LOCK_MATCH, {"match_id": match_id})
    if row is None:
        return None
    return Locked(MatchStatus(row["status"]), row["version"], row["reminded_version"])


async def expect(conn: Any, match_id: int, status: MatchStatus, version: int | None) -> Locked:
    """Lock the match; :class:`MatchConflict` unless it has ``status`` (and ``version``)."""
    found = await lock(conn, match_id)
    if (
        found is None
        or found.status != status
        or (version is not None and found.version != version)
    ):
        expected = str(status) if version is None else f"version {version} ({status})"
        raise MatchConflict(match_id, expected, "no such match" if found is None else str(found))
    return found


async def insert_decision(conn: Any, match_id: int, d: DecisionRow) -> None:
    """Add ``d`` to the log (the caller moves the match on)."""
    await execute(conn, INSERT_DECISION, decision_params(match_id, d))


async def append_decision(conn: Any, match_id: int, d: DecisionRow) -> None:
    """Add ``d`` to the log and make it current: version, turn deadline, no claim."""
    await execute(conn, APPEND_DECISION, decision_params(match_id, d))


def decision_params(match_id: int, d: DecisionRow) -> Params:
    return {
        "match_id": match_id,
        "seq": d.seq,
        "seat": d.seat,
        "decision": d.decision,
        "decided_at": d.decided_at,
        "automatic": d.automatic,
        "next_deadline": d.next_deadline,
    }


def match_params(m: MatchInfo) -> Params:
    return {
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


def match_from_row(row: Any) -> MatchInfo:
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


def decision_from_row(row: Any) -> DecisionRow:
    return DecisionRow(
        seq=row["seq"],
        seat=row["seat"],
        decision=row["decision"],
        decided_at=row["decided_at"],
        automatic=row["automatic"],
        next_deadline=row["next_deadline"],
    )
