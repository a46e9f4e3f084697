"""The record export shows what the engine gives: a player of the match always gets its
record, anyone else only once both players share their finished matches (the engine's
rule, applied here to fake settings), and is told why not in their own language."""

from __future__ import annotations

from typing import Any

import pytest

from bot.stats.deps import StatsDeps
from bot.stats.record_button import record_filename, send_record
from bot.words.i18n import text
from engine.model import AI_USER_ID, MatchStatus
from tests.bot.fakes import FakeInteraction, FakeQueries, FakeSettings
from tests.builders import match_info

ANA, BEN, CARA = 11, 12, 13
MATCH = 5
GUILD = 1
RECORD = '{"deals": "every hidden card"}'


async def _press(
    players: tuple[int, int], sharing: set[int], presser: int, locale: str = "en-US"
) -> dict[str, Any]:
    """The one ephemeral answer a press by ``presser`` gets (its file as "filename" and
    "data"), after a private "thinking…" sent before the database was asked."""
    finished = match_info(MATCH, players, MatchStatus.FINISHED)
    queries = FakeQueries(finished, RECORD, settings=FakeSettings(sharing))
    deps = StatsDeps(queries, None, None)  # type: ignore[arg-type]
    interaction = FakeInteraction.by(presser, locale=locale, guild_id=GUILD)
    await send_record(deps, interaction, MATCH)  # type: ignore[arg-type]
    assert interaction.response.deferred == [{"ephemeral": True, "thinking": True}]
    assert interaction.response.sent == []
    (sent,) = interaction.followup.sent
    assert sent["ephemeral"]
    assert queries.records_asked == [(MATCH, GUILD)]
    sent["filename"], sent["data"] = None, b""
    if "file" in sent:
        sent["filename"], sent["data"] = sent["file"].filename, sent["file"].fp.read()
    return sent


@pytest.mark.parametrize("sharing", [set(), {ANA}, {ANA, BEN}])
@pytest.mark.parametrize("player", [ANA, BEN])
async def test_a_player_always_gets_the_record(player, sharing):
    sent = await _press((ANA, BEN), sharing, player)
    assert sent["filename"] == record_filename(MATCH)
    assert sent["data"] == (RECORD + "\n").encode()


@pytest.mark.parametrize("sharing", [set(), {ANA}, {BEN}])
async def test_a_spectator_is_refused_unless_both_players_share(sharing):
    sent = await _press((ANA, BEN), sharing, CARA)
    assert sent["filename"] is None and sent["data"] == b""
    assert sent["content"] == text("en", "stats.export_not_shared", match=MATCH)
    # It says why, and how the players can allow it.
    assert "You did not play" in sent["content"] and "share:True" in sent["content"]


async def test_a_spectator_gets_the_record_once_both_players_share():
    sent = await _press((ANA, BEN), {ANA, BEN}, CARA)
    assert sent["filename"] == record_filename(MATCH)


async def test_against_the_ai_the_human_players_sharing_is_enough():
    assert (await _press((ANA, AI_USER_ID), set(), CARA))["filename"] is None
    assert (await _press((AI_USER_ID, ANA), {ANA}, CARA))["filename"] == record_filename(MATCH)


async def test_a_spanish_spectator_is_told_in_spanish():
    sent = await _press((ANA, BEN), set(), CARA, locale="es-ES")
    assert sent["filename"] is None
    assert sent["content"] == text("es", "stats.export_not_shared", match=MATCH)
    assert "compartir" in sent["content"] and "You did not play" not in sent["content"]
