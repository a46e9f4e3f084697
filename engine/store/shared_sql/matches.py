"""The ``matches`` and ``decisions`` tables: columns, the SQL both stores run alike, and
the conversions between their rows and :class:`MatchInfo` and :class:`DecisionRow`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.clocks import Pace
from engine.model import OPEN_SEAT, DecisionRow, ExpiryPolicy, MatchInfo, MatchStatus, Placement
from engine.rules.state import Variant
from engine.store.shared_sql.sql import Row, insert, select

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
    "hints",
    "rated",
    "pace",
    "increment_seconds",
    "to_move_id",
    "overdue_since",
    "paused_until",
    "min_reliability",
)
OPEN = "status IN ('pending', 'active')"
SELECT = select("matches", MATCH_COLUMNS)

SELECT_MATCH = f"{SELECT} WHERE id = :match_id"
SELECT_OPEN_MATCHES = f"{SELECT} WHERE {OPEN} ORDER BY id"
SELECT_IN_THREAD = f"{SELECT} WHERE thread_id = :thread_id AND {OPEN} ORDER BY id DESC LIMIT 1"
SELECT_OPEN_IN_GUILD = f"{SELECT} WHERE guild_id = :guild_id AND {OPEN} ORDER BY id"
SELECT_OPEN_IN_CHANNEL = (
    f"{SELECT} WHERE guild_id = :guild_id AND channel_id = :channel_id AND {OPEN} ORDER BY id"
)
# A server's open seats still waiting, posted (their message id stored) and not expired;
# matches_open_seats (migrations) serves them in this order; its conditions are written as
# literals so that a prepared (generic) plan may still use the partial index.
WAITING_SEATS = (
    f"guild_id = :guild_id AND status = 'pending' AND player1_id = {OPEN_SEAT}"
    " AND challenge_expires_at > :now AND board_message_id IS NOT NULL"
)
SELECT_WAITING_SEATS = (
    f"{SELECT} WHERE {WAITING_SEATS} ORDER BY created_at, id LIMIT :limit OFFSET :offset"
)
COUNT_WAITING_SEATS = f"SELECT COUNT(*) AS total FROM matches WHERE {WAITING_SEATS}"
SELECT_OF_THREAD = f"{SELECT} WHERE thread_id = :thread_id ORDER BY id DESC LIMIT 1"
SELECT_REMATCHES = f"{SELECT} WHERE rematch_of = :match_id ORDER BY id DESC"
SELECT_STARTED_BY = (
    f"{SELECT} WHERE player0_id = :user_id AND created_at >= :since ORDER BY created_at, id"
)

# Every write that moves a match on releases its claim (claimed_until). The challenge's
# message stops being the match's message when it starts: the board is posted anew. An
# open seat gets its second player here (:opponent_id; NULL keeps the challenged one).
START_MATCH = (
    "UPDATE matches SET status = 'active', seed = :seed, first_player = :first_player,"
    " player1_id = COALESCE(:opponent_id, player1_id),"
    " to_move_id = CASE WHEN :first_player = 0 THEN player0_id"
    " ELSE COALESCE(:opponent_id, player1_id) END,"
    " started_at = :started_at, turn_deadline = :turn_deadline, board_message_id = NULL,"
    " paused_until = :paused_until,"
    " claimed_until = NULL WHERE id = :match_id"
)
CLOSE_CHALLENGE = (
    "UPDATE matches SET status = :status, ended_at = :ended_at, claimed_until = NULL"
    " WHERE id = :match_id"
)
MARK_BROKEN = (
    "UPDATE matches SET status = 'broken', broken_reason = :reason, ended_at = :ended_at,"
    " claimed_until = NULL WHERE id = :match_id"
)
# Its deadline goes too: no process's alarm sweep finds it again.
ABANDON_MATCH = (
    "UPDATE matches SET status = 'abandoned', ended_at = :ended_at, turn_deadline = NULL,"
    " claimed_until = NULL WHERE id = :match_id"
)
SET_REMINDED = (
    "UPDATE matches SET reminded_version = :version, claimed_until = NULL WHERE id = :match_id"
)
# A turn's clock changed without a decision: turn-based, the days ran out, or the claim was
# offered, or the waiting player chose to wait on; a vacation began or ended. Waiting on
# anew (``:reminded_version`` NULL) lets the reminder go out again.
SET_TURN_CLOCK = (
    "UPDATE matches SET turn_deadline = :turn_deadline, overdue_since = :overdue_since,"
    " paused_until = :paused_until, reminded_version = :reminded_version,"
    " claimed_until = NULL WHERE id = :match_id"
)
SET_LOCATION = (
    "UPDATE matches SET thread_id = :thread_id, board_message_id = :board_message_id"
    " WHERE id = :match_id"
)
SET_CHALLENGE_MESSAGE = (
    "UPDATE matches SET board_message_id = :board_message_id"
    " WHERE id = :match_id AND status = 'pending'"
)

DECISION_COLUMNS = (
    "match_id",
    "seq",
    "seat",
    "decision",
    "decided_at",
    "automatic",
    "next_deadline",
    "next_to_move_id",
    "paused_until",
)
INSERT_DECISION = insert("decisions", DECISION_COLUMNS)
SELECT_DECISIONS = (
    f"{select('decisions', DECISION_COLUMNS)} WHERE match_id = :match_id ORDER BY seq"
)
SELECT_DECISIONS_SINCE = (
    f"{select('decisions', DECISION_COLUMNS)}"
    " WHERE match_id = :match_id AND seq > :version ORDER BY seq"
)
SELECT_OPEN_DECISIONS = (
    f"SELECT {', '.join('d.' + c for c in DECISION_COLUMNS)}"
    " FROM decisions d JOIN matches m ON m.id = d.match_id"
    " WHERE m.status = 'active' ORDER BY d.match_id, d.seq"
)


def match_params(m: MatchInfo) -> dict[str, Any]:
    """The values of every column but ``id`` (which each store assigns its own way)."""
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
        "hints": m.hints,
        "rated": m.rated,
        "pace": str(m.pace),
        "increment_seconds": m.increment_seconds,
        "to_move_id": m.to_move,
        "overdue_since": m.overdue_since,
        "paused_until": m.paused_until,
        "min_reliability": m.min_reliability,
    }


def match_from_row(row: Row) -> MatchInfo:
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
        # SQLite keeps a flag as 0 or 1.
        hints=bool(row["hints"]),
        rated=bool(row["rated"]),
        pace=Pace(row["pace"]),
        increment_seconds=row["increment_seconds"],
        to_move=row["to_move_id"],
        overdue_since=row["overdue_since"],
        paused_until=row["paused_until"],
        min_reliability=row["min_reliability"],
    )


def start_params(
    match_id: int,
    seed: int,
    first_player: int,
    started_at: float,
    turn_deadline: float | None,
    opponent_id: int | None = None,
    paused_until: float | None = None,
) -> dict[str, Any]:
    """The parameters of :data:`START_MATCH`."""
    return {
        "match_id": match_id,
        "paused_until": paused_until,
        "opponent_id": opponent_id,
        "seed": seed,
        "first_player": first_player,
        "started_at": started_at,
        "turn_deadline": turn_deadline,
    }


def decision_params(match_id: int, d: DecisionRow) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "seq": d.seq,
        "seat": d.seat,
        "decision": d.decision,
        "decided_at": d.decided_at,
        "automatic": d.automatic,
        "next_deadline": d.next_deadline,
        "next_to_move_id": d.next_to_move,
        "paused_until": d.paused_until,
    }


def decision_from_row(row: Row) -> DecisionRow:
    return DecisionRow(
        seq=row["seq"],
        seat=row["seat"],
        decision=row["decision"],
        decided_at=row["decided_at"],
        # SQLite keeps a flag as 0 or 1.
        automatic=bool(row["automatic"]),
        next_deadline=row["next_deadline"],
        next_to_move=row["next_to_move_id"],
        paused_until=row["paused_until"],
    )


def with_decisions(
    match_rows: Iterable[Row], decision_rows: Iterable[Row]
) -> list[tuple[MatchInfo, list[DecisionRow]]]:
    """Each match with its decisions, from ``SELECT_OPEN_MATCHES`` and
    ``SELECT_OPEN_DECISIONS`` read together."""
    found = [match_from_row(row) for row in match_rows]
    decisions: dict[int, list[DecisionRow]] = {m.match_id: [] for m in found}
    for row in decision_rows:
        decisions[row["match_id"]].append(decision_from_row(row))
    return [(m, decisions[m.match_id]) for m in found]
