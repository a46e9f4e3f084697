"""The registration message of a large event looks up the names it lists, not everyone's."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.tournaments.buttons import show_registration
from bot.tournaments.words import MOST_LISTED
from engine.model import Tournament, TournamentEntry, TournamentStatus
from engine.tournaments import Format

EVENT = Tournament(
    tournament_id=5,
    guild_id=1,
    channel_id=2,
    organiser_id=900,
    name="Autumn Cup",
    format=Format.SWISS,
    status=TournamentStatus.REGISTERING,
    created_at=0.0,
)
ENTRIES = [TournamentEntry(user, joined_at=float(user)) for user in range(1000, 1200)]


class Lookups:
    def __init__(self) -> None:
        self.asked: list[int] = []

    async def name(self, user_id: int, *, lang: str, guild_id: int | None = None) -> str:
        self.asked.append(user_id)
        return f"player {user_id}"


async def test_two_hundred_entries_look_up_only_the_names_shown() -> None:
    lookups = Lookups()
    shown: dict[str, Any] = {}

    async def entries(tournament_id: int) -> list[TournamentEntry]:
        return ENTRIES

    async def public(guild_id: int) -> str:
        return "en"

    async def edit_original_response(**content: Any) -> None:
        shown.update(content)

    deps: Any = SimpleNamespace(
        tournaments=SimpleNamespace(entries=entries),
        names=lookups,
        languages=SimpleNamespace(public=public),
        places=None,
    )
    interaction: Any = SimpleNamespace(edit_original_response=edit_original_response)
    await show_registration(deps, EVENT, interaction=interaction)
    assert lookups.asked == [entry.user_id for entry in ENTRIES[:MOST_LISTED]]
    description = shown["embed"].description
    assert "player 1000" in description and f"player {1000 + MOST_LISTED}" not in description
    assert str(len(ENTRIES) - MOST_LISTED) in description  # the others are counted
