"""The waiting player's three buttons on an overdue turn-based board: each calls its
choice with the version it was made for; the late player, a press too early or a board
that moved on get a clear private refusal; and the presser hears what was done."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.features import Feature
from bot.play.ai_turn_button import AiTurnButton
from bot.play.claim_button import ClaimButton
from bot.play.deps import PlayDeps
from bot.play.overdue_choice import refusal_words
from bot.play.wait_button import WaitButton
from bot.words.i18n import text
from engine.clocks import Pace
from engine.model import MatchStatus
from engine.service.matches.errors import ClaimNotOffered, NotYourMatch, StaleVersion
from tests.bot.fakes import FakeInteraction, FakeNames, FakeQueries
from tests.builders import match_info

ANA, BEN, CARA = 101, 102, 103
"""Ana is late (to move), Ben waits, Cara watches."""


@dataclass
class FakeOverdue:
    """The service's overdue choices: each call noted; ``refusal`` raised instead."""

    refusal: Exception | None = None
    calls: list[tuple[str, int, int, int]] = field(default_factory=list)

    def _call(self, verb: str, match_id: int, user_id: int, version: int) -> None:
        self.calls.append((verb, match_id, user_id, version))
        if self.refusal is not None:
            raise self.refusal

    async def claim_win(self, match_id: int, user_id: int, version: int) -> object:
        self._call("claim", match_id, user_id, version)
        return object()

    async def let_ai_play(self, match_id: int, user_id: int, version: int) -> object:
        self._call("ai", match_id, user_id, version)
        return object()

    async def keep_waiting(self, match_id: int, user_id: int, version: int) -> float:
        self._call("wait", match_id, user_id, version)
        return 2_000_000_000.0


class Played(Feature):
    pass


async def client_with(overdue: FakeOverdue) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    info = match_info(
        players=(ANA, BEN),
        status=MatchStatus.ACTIVE,
        pace=Pace.DAYS,
        turn_seconds=2 * 86400.0,
        to_move=ANA,
        overdue_since=1.0,
    )
    deps = PlayDeps(
        queries=FakeQueries(info),  # type: ignore[arg-type]
        names=FakeNames(("ana", "ben")),  # type: ignore[arg-type]
        commands=None,  # type: ignore[arg-type]
        placements=None,  # type: ignore[arg-type]
        panel=None,  # type: ignore[arg-type]
        overdue=overdue,  # type: ignore[arg-type]
    )
    await bot.add_cog(Played(deps))
    return bot


async def press(item: Any, client: commands.Bot, user_id: int) -> FakeInteraction:
    interaction = FakeInteraction.by(user_id, client=client, locale=discord.Locale.american_english)
    if await item.interaction_check(interaction):
        await item.callback(interaction)
    return interaction


def answers(interaction: FakeInteraction) -> str:
    sent = [*interaction.response.sent, *interaction.followup.sent, *interaction.original_edits]
    return "\n".join(str(kwargs.get("content", "")) for kwargs in sent)


@pytest.mark.parametrize(
    ("item", "verb", "done"),
    [
        (ClaimButton(7, 12), "claim", "You claimed the win: ana ran out of time."),
        (AiTurnButton(7, 12), "ai", "The AI played ana's turn."),
        (WaitButton(7, 12), "wait", "You keep waiting: ana has until <t:2000000000:f>."),
    ],
)
async def test_the_waiting_player_chooses_with_the_boards_version(item, verb, done):
    overdue = FakeOverdue()
    interaction = await press(item, await client_with(overdue), BEN)
    assert overdue.calls == [(verb, 7, BEN, 12)]
    assert done in answers(interaction)


@pytest.mark.parametrize(
    ("refusal", "words"),
    [
        (NotYourMatch(7, ANA, "only the waiting player may choose"), "Only ben may choose"),
        (ClaimNotOffered(7, BEN), "Not yet: ana still has time"),
        (StaleVersion(7, 12, 13), "The match has moved on (ana played meanwhile)"),
    ],
)
async def test_a_refused_choice_says_why_privately(refusal, words):
    overdue = FakeOverdue(refusal)
    interaction = await press(ClaimButton(7, 12), await client_with(overdue), BEN)
    assert words in answers(interaction)


async def test_a_spectator_is_refused_before_the_service_is_asked():
    overdue = FakeOverdue()
    interaction = await press(WaitButton(7, 12), await client_with(overdue), CARA)
    assert overdue.calls == []
    assert text("en", "refusal.not_a_player") in answers(interaction)


def test_the_refusals_read_in_both_languages():
    error = ClaimNotOffered(7, BEN)
    assert refusal_words("es", error, "ana", "ben") == (
        "Todavía no: ana aún tiene tiempo para esta jugada."
    )
    assert refusal_words("en", NotYourMatch(7, ANA), "ana", "ben") == (
        "Only ben may choose what happens to this turn."
    )


@pytest.mark.parametrize(
    ("item", "custom_id"),
    [
        (ClaimButton(7, 12), "hk:7:12:claim"),
        (AiTurnButton(7, 12), "hk:7:12:letai"),
        (WaitButton(7, 12), "hk:7:12:wait"),
    ],
)
async def test_each_choice_reads_its_own_id_back(item, custom_id):
    assert item.custom_id == custom_id
    found = type(item).__discord_ui_compiled_template__.fullmatch(custom_id)
    again = await type(item).from_custom_id(None, item.item, found)  # type: ignore[arg-type]
    assert (type(again), again.match_id, again.version) == (type(item), 7, 12)
