"""The record export follows the review's rule for hidden cards: a player of the match
always gets its record, anyone else only once both players share their finished matches,
and is told why not in their own language."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.stats.deps import StatsDeps
from bot.stats.record_button import record_filename, send_record
from bot.words.i18n import text
from engine.rules import Variant
from engine.store.rows import AI_USER_ID, ExpiryPolicy, MatchInfo, MatchStatus, UserSettings

ANA, BEN, CARA = 11, 12, 13
MATCH = 5
GUILD = 1
RECORD = '{"deals": "every hidden card"}'


def _finished(players: tuple[int, int]) -> MatchInfo:
    return MatchInfo(
        match_id=MATCH,
        status=MatchStatus.FINISHED,
        variant=Variant.STANDARD,
        players=players,
        guild_id=GUILD,
        channel_id=2,
        turn_seconds=60.0,
        expiry_policy=ExpiryPolicy.AI,
        created_at=0.0,
    )


@dataclass
class FakeQueries:
    info: MatchInfo

    async def match_record(self, match_id: int, guild_id: int | None) -> str:
        assert (match_id, guild_id) == (MATCH, GUILD)
        return RECORD

    async def match_info(self, match_id: int) -> MatchInfo:
        return self.info


@dataclass
class FakeSettings:
    sharing: set[int]

    async def user_settings(self, user_id: int) -> UserSettings:
        return UserSettings(user_id, share_reviews=user_id in self.sharing)


@dataclass
class Sent:
    """The one ephemeral answer a press got."""

    content: str = ""
    filename: str | None = None
    data: bytes = b""
    ephemeral: bool = False
    count: int = 0


@dataclass
class FakeResponse:
    """The press is acknowledged privately first (before the database is asked)."""

    deferred_privately: bool = False

    def is_done(self) -> bool:
        return self.deferred_privately

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> None:
        self.deferred_privately = ephemeral and thinking


@dataclass
class FakeFollowup:
    """The answer that fills the private "thinking…" in."""

    sent: Sent = field(default_factory=Sent)

    async def send(self, content: str = "", **kwargs: Any) -> None:
        self.sent.count += 1
        self.sent.content = content
        self.sent.ephemeral = kwargs.get("ephemeral", False)
        if "file" in kwargs:
            self.sent.filename = kwargs["file"].filename
            self.sent.data = kwargs["file"].fp.read()


class FakeInteraction:
    def __init__(self, user_id: int, locale: str = "en-US") -> None:
        self.user = type("User", (), {"id": user_id})()
        self.locale = locale
        self.guild_id = GUILD
        self.response = FakeResponse()
        self.followup = FakeFollowup()


async def _press(
    players: tuple[int, int], sharing: set[int], presser: int, locale: str = "en-US"
) -> Sent:
    deps = StatsDeps(
        FakeQueries(_finished(players)),  # type: ignore[arg-type]
        FakeSettings(sharing),  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
    )
    interaction = FakeInteraction(presser, locale)
    await send_record(deps, interaction, MATCH)  # type: ignore[arg-type]
    assert interaction.response.deferred_privately
    assert interaction.followup.sent.count == 1 and interaction.followup.sent.ephemeral
    return interaction.followup.sent


@pytest.mark.parametrize("sharing", [set(), {ANA}, {ANA, BEN}])
@pytest.mark.parametrize("player", [ANA, BEN])
async def test_a_player_always_gets_the_record(player, sharing):
    sent = await _press((ANA, BEN), sharing, player)
    assert sent.filename == record_filename(MATCH)
    assert sent.data == (RECORD + "\n").encode()


@pytest.mark.parametrize("sharing", [set(), {ANA}, {BEN}])
async def test_a_spectator_is_refused_unless_both_players_share(sharing):
    sent = await _press((ANA, BEN), sharing, CARA)
    assert sent.filename is None and sent.data == b""
    assert sent.content == text("en", "stats.export_not_shared", match=MATCH)
    # It says why, and how the players can allow it.
    assert "You did not play" in sent.content and "share:True" in sent.content


async def test_a_spectator_gets_the_record_once_both_players_share():
    sent = await _press((ANA, BEN), {ANA, BEN}, CARA)
    assert sent.filename == record_filename(MATCH)


async def test_against_the_ai_the_human_players_sharing_is_enough():
    assert (await _press((ANA, AI_USER_ID), set(), CARA)).filename is None
    assert (await _press((AI_USER_ID, ANA), {ANA}, CARA)).filename == record_filename(MATCH)


async def test_a_spanish_spectator_is_told_in_spanish():
    sent = await _press((ANA, BEN), set(), CARA, locale="es-ES")
    assert sent.filename is None
    assert sent.content == text("es", "stats.export_not_shared", match=MATCH)
    assert "compartir" in sent.content and "You did not play" not in sent.content
