"""The tournament tables: the SQL both stores run alike, and rows to and from the model."""

from __future__ import annotations

from typing import Any

from engine.model import Tournament, TournamentEntry, TournamentGame, TournamentStatus
from engine.rules.state import Variant
from engine.store.shared_sql.sql import Row, insert, select
from engine.tournaments import Format, Result

COLUMNS = (
    "id",
    "guild_id",
    "channel_id",
    "organiser_id",
    "name",
    "format",
    "status",
    "created_at",
    "rounds",
    "variant",
    "turn_seconds",
    "time_control",
    "min_reliability",
    "max_players",
    "starts_at",
    "rated",
    "thread_id",
    "message_id",
    "started_at",
    "ended_at",
)
ENTRY_COLUMNS = ("tournament_id", "user_id", "joined_at", "seed", "rating", "withdrawn_at")
GAME_COLUMNS = (
    "tournament_id",
    "round",
    "table_number",
    "first_id",
    "second_id",
    "match_id",
    "result",
)

INSERT_TOURNAMENT = insert("tournaments", COLUMNS)
INSERT_WITHOUT_ID = insert("tournaments", COLUMNS[1:])
SELECT_TOURNAMENT = f"{select('tournaments', COLUMNS)} WHERE id = :tournament_id"
SELECT_OPEN = (
    f"{select('tournaments', COLUMNS)} WHERE status IN ('registering', 'running') ORDER BY id"
)
SELECT_LATEST_IN_GUILD = (
    f"{select('tournaments', COLUMNS)} WHERE guild_id = :guild_id ORDER BY id DESC LIMIT 1"
)
SELECT_MAX_ID = "SELECT coalesce(max(id), 0) AS max_id FROM tournaments"
SET_LOCATION = (
    "UPDATE tournaments SET thread_id = :thread_id, message_id = :message_id"
    " WHERE id = :tournament_id"
)
START = (
    "UPDATE tournaments SET status = 'running', started_at = :started_at"
    " WHERE id = :tournament_id AND status = 'registering'"
)
# The end's news is in the outbox (written with it), so its legacy shown mark is set too.
END = (
    "UPDATE tournaments SET status = :status, ended_at = :ended_at, end_shown_at = :ended_at"
    " WHERE id = :tournament_id AND status IN ('registering', 'running')"
)

SELECT_REGISTERING = (
    "SELECT id FROM tournaments WHERE id = :tournament_id AND status = 'registering'"
)
SELECT_OPEN_ONE = (
    "SELECT id FROM tournaments WHERE id = :tournament_id AND status IN ('registering', 'running')"
)

INSERT_ENTRY = insert("tournament_entries", ENTRY_COLUMNS)
DELETE_ENTRY = (
    "DELETE FROM tournament_entries WHERE tournament_id = :tournament_id AND user_id = :user_id"
)
SEED_ENTRY = (
    "UPDATE tournament_entries SET seed = :seed, rating = :rating"
    " WHERE tournament_id = :tournament_id AND user_id = :user_id"
)
WITHDRAW_ENTRY = (
    "UPDATE tournament_entries SET withdrawn_at = :withdrawn_at"
    " WHERE tournament_id = :tournament_id AND user_id = :user_id AND withdrawn_at IS NULL"
)
SELECT_UNWITHDRAWN = (
    "SELECT user_id FROM tournament_entries WHERE tournament_id = :tournament_id"
    " AND user_id = :user_id AND withdrawn_at IS NULL"
)
SELECT_ENTRIES = (
    f"{select('tournament_entries', ENTRY_COLUMNS)} WHERE tournament_id = :tournament_id"
    " ORDER BY seed, joined_at, user_id"
)

# A round's pairings are in the outbox (written with it): marked shown for the legacy read.
INSERT_ROUND = (
    "INSERT INTO tournament_rounds (tournament_id, round, paired_at, shown_at)"
    " VALUES (:tournament_id, :round, :paired_at, :paired_at)"
)
SELECT_UNSHOWN_ROUNDS = (
    "SELECT round FROM tournament_rounds WHERE tournament_id = :tournament_id"
    " AND shown_at IS NULL ORDER BY round"
)
ROUND_SHOWN = (
    "UPDATE tournament_rounds SET shown_at = :shown_at"
    " WHERE tournament_id = :tournament_id AND round = :round AND shown_at IS NULL"
)
END_SHOWN = (
    "UPDATE tournaments SET end_shown_at = :shown_at"
    " WHERE id = :tournament_id AND end_shown_at IS NULL"
)
SELECT_ENDED_UNSHOWN = (
    f"{select('tournaments', COLUMNS)} WHERE status IN ('finished', 'cancelled')"
    " AND end_shown_at IS NULL ORDER BY id"
)
INSERT_GAME = insert("tournament_games", GAME_COLUMNS)
SELECT_GAMES = (
    f"{select('tournament_games', GAME_COLUMNS)} WHERE tournament_id = :tournament_id"
    " ORDER BY round, table_number"
)
SELECT_GAME_OF_MATCH = f"{select('tournament_games', GAME_COLUMNS)} WHERE match_id = :match_id"
# Each only once: a table keeps its first match and its first result.
ATTACH_MATCH = (
    "UPDATE tournament_games SET match_id = :match_id WHERE tournament_id = :tournament_id"
    " AND round = :round AND table_number = :table_number AND match_id IS NULL"
)
DETACH_MATCH = (
    "UPDATE tournament_games SET match_id = NULL WHERE tournament_id = :tournament_id"
    " AND round = :round AND table_number = :table_number AND match_id = :match_id"
    " AND result IS NULL"
)
RECORD_RESULT = (
    "UPDATE tournament_games SET result = :result WHERE tournament_id = :tournament_id"
    " AND round = :round AND table_number = :table_number AND result IS NULL"
)


def tournament_params(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.tournament_id,
        "guild_id": t.guild_id,
        "channel_id": t.channel_id,
        "organiser_id": t.organiser_id,
        "name": t.name,
        "format": str(t.format),
        "status": str(t.status),
        "created_at": t.created_at,
        "rounds": t.rounds,
        "variant": None if t.variant is None else str(t.variant),
        "turn_seconds": t.turn_seconds,
        "time_control": t.time_control,
        "min_reliability": t.min_reliability,
        "max_players": t.max_players,
        "starts_at": t.starts_at,
        "rated": t.rated,
        "thread_id": t.thread_id,
        "message_id": t.message_id,
        "started_at": t.started_at,
        "ended_at": t.ended_at,
    }


def tournament_from_row(row: Row) -> Tournament:
    variant = row["variant"]
    return Tournament(
        tournament_id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        organiser_id=row["organiser_id"],
        name=row["name"],
        format=Format(row["format"]),
        status=TournamentStatus(row["status"]),
        created_at=row["created_at"],
        rounds=row["rounds"],
        variant=None if variant is None else Variant(variant),
        turn_seconds=row["turn_seconds"],
        time_control=row["time_control"],
        min_reliability=row["min_reliability"],
        max_players=row["max_players"],
        starts_at=row["starts_at"],
        rated=bool(row["rated"]),  # SQLite keeps 0 or 1, PostgreSQL a boolean
        thread_id=row["thread_id"],
        message_id=row["message_id"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


def entry_from_row(row: Row) -> TournamentEntry:
    return TournamentEntry(
        user_id=row["user_id"],
        joined_at=row["joined_at"],
        seed=row["seed"],
        rating=row["rating"],
        withdrawn_at=row["withdrawn_at"],
    )


def game_params(tournament_id: int, game: TournamentGame) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "round": game.round,
        "table_number": game.table,
        "first_id": game.first,
        "second_id": game.second,
        "match_id": game.match_id,
        "result": None if game.result is None else str(game.result),
    }


def game_from_row(row: Row) -> TournamentGame:
    result = row["result"]
    return TournamentGame(
        round=row["round"],
        table=row["table_number"],
        first=row["first_id"],
        second=row["second_id"],
        match_id=row["match_id"],
        result=None if result is None else Result(result),
    )
