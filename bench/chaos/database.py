"""What the bot's SQLite file holds at the end, read once the bot has stopped."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from engine.rules import GameState, Variant, parse_decision
from engine.rules.record import MatchRecord, replay

SELECT_MATCHES = (
    "SELECT id, status, variant, player0_id, player1_id, ai_level, channel_id, thread_id,"
    " board_message_id, seed, first_player, version, turn_seconds FROM matches ORDER BY id"
)
SELECT_DECISIONS = (
    "SELECT match_id, seq, seat, decision, automatic FROM decisions ORDER BY match_id, seq"
)
SELECT_RESULTS = "SELECT match_id, reason, record FROM results"


@dataclass(frozen=True, slots=True)
class StoredDecision:
    seq: int
    seat: int
    decision: str
    automatic: bool


@dataclass
class StoredMatch:
    id: int
    status: str
    variant: str
    players: tuple[int, int]
    ai_level: str | None
    channel_id: int | None
    thread_id: int | None
    board_message_id: int | None
    seed: int | None
    first_player: int | None
    version: int
    turn_seconds: float
    decisions: list[StoredDecision] = field(default_factory=list)
    reason: str | None = None
    """The result's reason (``charm``, ``timeout``, …) once finished."""
    record: str | None = None

    def states(self) -> list[GameState]:
        """The game after each stored decision, version 0 first (a started match only)."""
        assert self.seed is not None and self.first_player is not None
        state = GameState(
            seed=self.seed, first_player=self.first_player, variant=Variant(self.variant)
        )
        states = [state.clone()]
        for row in self.decisions:
            state.apply(parse_decision(row.decision), row.seat)
            states.append(state.clone())
        return states

    def final_state(self) -> GameState:
        """As its record says it ended (a finished match), else as its decisions leave it."""
        if self.record is not None:
            return replay(MatchRecord.from_json(self.record))
        return self.states()[-1]


@dataclass
class StoredMatches:
    integrity: str
    matches: dict[int, StoredMatch]


def read_database(path: Path) -> StoredMatches:
    """Every match with its decisions and result, and `PRAGMA integrity_check`."""
    # The bot has stopped: a plain connection (read-only mode cannot open a WAL database
    # whose shared-memory file is gone).
    with sqlite3.connect(path) as db:
        db.row_factory = sqlite3.Row
        integrity = "; ".join(str(r[0]) for r in db.execute("PRAGMA integrity_check"))
        matches = {
            row["id"]: StoredMatch(
                id=row["id"],
                status=row["status"],
                variant=row["variant"],
                players=(row["player0_id"], row["player1_id"]),
                ai_level=row["ai_level"],
                channel_id=row["channel_id"],
                thread_id=row["thread_id"],
                board_message_id=row["board_message_id"],
                seed=row["seed"],
                first_player=row["first_player"],
                version=row["version"],
                turn_seconds=row["turn_seconds"],
            )
            for row in db.execute(SELECT_MATCHES)
        }
        for row in db.execute(SELECT_DECISIONS):
            matches[row["match_id"]].decisions.append(
                StoredDecision(row["seq"], row["seat"], row["decision"], bool(row["automatic"]))
            )
        for row in db.execute(SELECT_RESULTS):
            matches[row["match_id"]].reason = row["reason"]
            matches[row["match_id"]].record = row["record"]
    return StoredMatches(integrity, matches)
