"""A Confirm costs few reads of the database on its way to the board: on PostgreSQL each
read is a round trip (several bot processes share the database, so nothing in memory is
trusted unchecked), and reads were most of a decision's CPU there.

The way of a click (docs/architecture.md): the press is checked against the match (one
read), the service checks the submission against the match as stored and commits it (one
read), and the match's presenter reads the match once to show the event. The presser's
panel is redrawn from what the service answered, not read again.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.store.match_store import MatchStore
from tests.e2e.players import board_message, challenge_and_accept, settle
from tests.e2e.test_full_disk import choose_a_move

MOST_READS = 3
"""From the Confirm to the board's edit, on either store."""

READS = (
    "open_matches",
    "undelivered",
    "get_match",
    "match_since",
    "open_matches_of",
    "open_matches_in",
    "waiting_seats_in",
    "match_in_thread",
    "match_of_thread",
    "decisions",
    "rematch_presses",
    "rematches_of",
    "matches_started_by",
    "finished_match",
    "finished_matches",
    "standing",
    "leaderboard",
    "rating_changes",
    "player_stats",
    "guild_settings",
    "user_settings",
    "review_of",
    # seasons
    "running_season",
    "season",
    "seasons_of",
    "season_results",
    "count_season_results",
    "season_ranking",
    "best_season",
    # alarms
    "next_alarm_due",
    # tournaments
    "get_tournament",
    "latest_tournament_in",
    "open_tournaments",
    "tournament_entries",
    "tournament_games",
    "tournament_game_of_match",
    "unshown_rounds",
    "ended_unshown",
    # time controls
    "vacations",
    "reliability",
    # puzzles
    "puzzle",
    "puzzle_candidates",
    "puzzle_ladder",
    "puzzle_standing",
    "puzzle_leaderboard",
    # the daily puzzle
    "daily_puzzle",
    "recent_daily_puzzles",
    "puzzle_keys",
    "puzzle_solvers",
)
"""Every MatchStore method that only reads."""


def count_reads(monkeypatch: pytest.MonkeyPatch, store: MatchStore) -> Counter[str]:
    """From now on, each read of ``store`` by name."""
    reads: Counter[str] = Counter()
    for name in READS:
        real = getattr(store, name)

        async def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            reads[_name] += 1
            return await _real(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    return reads


def test_every_read_of_the_store_is_counted():
    """A read added to the store later must be counted here too."""
    # MatchStore and the protocols it extends (TournamentStore).
    protocol = {
        name
        for cls in MatchStore.__mro__
        if cls.__module__.startswith("engine.store")
        for name in vars(cls)
        if not name.startswith("_") and callable(getattr(MatchStore, name))
    }
    writes = {
        "exclusive",
        "open",
        "close",
        "create_match",
        "start_match",
        "close_challenge",
        "append_decision",
        "finish_match",
        "mark_broken",
        "abandon_match",
        "set_reminded",
        "claim",
        "claim_due",
        "announced",
        "add_announcements",
        "set_alarms",
        "clear_alarms",
        "claim_due_alarms",
        "release_alarm",
        "retry_alarm",
        "set_location",
        "set_challenge_message",
        "press_rematch",
        "save_guild_settings",
        "save_user_settings",
        "save_review",
        "set_turn_clock",
        "save_vacation",
        # seasons
        "start_season",
        "set_season_end",
        "end_season",
        "season_podium_shown",
        # tournaments
        "create_tournament",
        "add_entry",
        "remove_entry",
        "withdraw_entry",
        "start_tournament",
        "pair_round",
        "attach_match",
        "detach_match",
        "record_game_result",
        "round_shown",
        "set_tournament_location",
        "end_tournament",
        "end_shown",
        # puzzles
        "save_puzzles",
        "record_attempt",
        "change_standing",
        "record_daily_puzzle",
    }
    assert protocol - writes == set(READS)


@pytest.fixture(params=["sqlite", "postgres"])
def database_settings(request: pytest.FixtureRequest) -> dict[str, object]:
    if request.param == "sqlite":
        return {}
    return {"url": request.getfixturevalue("postgres_url")}


async def test_a_confirm_reaches_the_board_in_three_reads(
    emulator, start_bot, database_settings, monkeypatch
):
    bot = await start_bot(database_settings=database_settings)
    match = await challenge_and_accept(emulator, bot)
    before = (await bot.service.queries.public_view(match.match_id)).version
    mover, panel, confirm = await choose_a_move(emulator, bot, match, random.Random(4))
    board_before = board_message(mover, match.thread_id).text()
    reads = count_reads(monkeypatch, bot.service.store)
    reads_at_edit: list[Counter[str]] = []
    """The reads made when each edit of a thread's message was sent."""
    places = bot.get_cog("Play").presenters.places
    real_edit = places.edit_message

    async def edit_board(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads_at_edit.append(reads.copy())
        return await real_edit(*args, **kwargs)

    monkeypatch.setattr(places, "edit_message", edit_board)

    await (await mover.click(panel, confirm)).first_response()
    await settle(emulator, bot)

    assert reads_at_edit, "the board was edited"  # the first message edit after the click
    first = reads_at_edit[0]
    assert sum(first.values()) <= MOST_READS, dict(first)
    # What the players see: the board moved on with the match.
    after = await bot.service.queries.public_view(match.match_id)
    assert after.version == before + 1
    assert board_message(mover, match.thread_id).text() != board_before
