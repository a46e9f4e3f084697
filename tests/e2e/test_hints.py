"""Hints against the AI through the emulator: `/hanamikoji ai hints:True` puts the move the AI
would make in the player's seat, with their chance, in their own panel (ephemeral and DM),
and the board says it is a hint match; the thread never shows a hint, and matches without
hints (against the AI or between members) have no hint line."""

from __future__ import annotations

import random
import re

import pytest

from bot.words.decision_words import decision_words
from bot.words.i18n import text
from engine.model import MatchStatus
from engine.rules import Phase
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.transcript import Scope
from tests.discord_emulator.users import EmulatedUser
from tests.e2e.players import (
    HAND,
    Match,
    answered,
    board_message,
    challenge_and_accept,
    play_decision,
    settle,
    start_ai_match,
    whose_turn,
)

HINT_LINE = re.compile(r"💡 \*\*Hint:\*\* (.+) — your chance of winning about (\d+)%")
HINT_MARK = "💡 **Hint:**"
HINT_MATCH = "💡 hint match"
REFRESH = text("en", "panel.refresh")
HINT_ITERATIONS = 40
"""Small, so a hint takes a few milliseconds: the test checks what is shown, not its depth."""


async def hint_in_panel(
    bot, match: Match, user: EmulatedUser, panel: MessageSnapshot
) -> tuple[str, int]:
    """The hint on a panel as (the move in words, the chance in percent); a panel that came
    while the hint was still being worked out is refreshed once the service has it, as a
    player would refresh it later."""
    found = HINT_LINE.search(panel.text())
    if found is None:
        assert text("en", "ai_hints.thinking") in panel.text(), panel.text()
        # The panel's own search goes on: asking again joins it and returns when it is done.
        assert await bot.service.hints.hint(match.match_id, user.id) is not None
        panel = await answered(await user.click(panel, REFRESH))
        found = HINT_LINE.search(panel.text())
    assert found is not None, f"no hint after refreshing: {panel.text()}"
    return found[1], int(found[2])


async def legal_words(bot, match: Match, user: EmulatedUser) -> set[str]:
    """Each decision open to ``user`` now, worded as the panel words it."""
    view = await bot.service.queries.view_for(match.match_id, user.id)
    assert view.legal, "it is not their decision"
    return {decision_words("en", d) for d in view.legal}


@pytest.mark.slow
async def test_a_hint_match_shows_a_legal_hint_to_its_player_only(emulator, start_bot):
    bot = await start_bot(hint_iterations=HINT_ITERATIONS)
    ana = emulator.user("ana")
    await answered(await ana.slash("hanamikoji notify", dm=True))
    match = await start_ai_match(emulator, bot, ana, level="easy", hints=True)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.hints
    started = [m for m in ana.messages() if "starts a match against the AI" in m.text()]
    assert started and "with hints" in started[-1].text()
    assert HINT_MATCH in board_message(ana, match.thread_id).text()

    rng = random.Random(17)
    hinted = 0
    went_back = False
    for _ in range(6):
        await settle(emulator, bot)
        if (await bot.service.queries.match_info(match.match_id)).status is not MatchStatus.ACTIVE:
            break
        legal = await legal_words(bot, match, ana)
        panel = await answered(await ana.click(board_message(ana, match.thread_id), HAND))
        assert panel.ephemeral
        words, chance = await hint_in_panel(bot, match, ana, panel)
        assert words in legal, f"the hint {words!r} is not one of {sorted(legal)}"
        assert 0 <= chance <= 100
        phase = (await bot.service.queries.public_view(match.match_id)).phase
        if not went_back and phase is Phase.ACTION:
            went_back = True
            # An action's page and Back: the first page comes back with the same hint.
            action = next(b.label for b in panel.buttons() if b.label != REFRESH)
            picking = await answered(await ana.click(panel, action))
            back = await answered(await ana.click(picking, text("en", "panel.back")))
            assert await hint_in_panel(bot, match, ana, back) == (words, chance)
        # The DM panel of this turn carries the hint too.
        (dm,) = [m for m in ana.dms() if m.buttons()]
        dm_hint = HINT_LINE.search(dm.text())
        assert dm_hint is not None and dm_hint[1] == words, dm.text()
        hinted += 1
        await play_decision(emulator, bot, match, rng)
    assert hinted >= 3 and went_back
    boards = [m for m in ana.messages(match.thread_id) if "### Hanamikoji ·" in m.text()]
    assert boards and all(HINT_MATCH in m.text() for m in boards), "every board says so"

    for entry in emulator.transcript:
        if HINT_MARK in entry.text() or text("en", "ai_hints.thinking") in entry.text():
            assert entry.visibility.scope is not Scope.PUBLIC, f"a hint in public: {entry}"
            assert entry.visibility.user_id == ana.id, f"a hint for someone else: {entry}"
    thread = "\n".join(m.text() for m in ana.messages(match.thread_id) if not m.ephemeral)
    assert HINT_MARK not in thread


async def test_matches_without_hints_show_no_hint_line(emulator, start_bot):
    bot = await start_bot(hint_iterations=HINT_ITERATIONS)
    between_members = await challenge_and_accept(emulator, bot)
    mover, other = await whose_turn(bot, between_members)
    for user in (mover, other):
        panel = await answered(
            await user.click(board_message(user, between_members.thread_id), HAND)
        )
        assert panel.ephemeral and "💡" not in panel.text(), panel.text()
    assert HINT_MATCH not in board_message(mover, between_members.thread_id).text()

    cara = emulator.user("cara")
    against_ai = await start_ai_match(emulator, bot, cara, level="easy")
    assert not (await bot.service.queries.match_info(against_ai.match_id)).hints
    panel = await answered(await cara.click(board_message(cara, against_ai.thread_id), HAND))
    assert "👉" in panel.text(), "it is cara's decision"
    assert "💡" not in panel.text(), panel.text()
    assert HINT_MATCH not in board_message(cara, against_ai.thread_id).text()


async def test_a_hint_match_in_spanish(emulator, start_bot):
    emulator.world.guild.preferred_locale = "es-ES"
    ana = emulator.user("ana")
    ana.record.locale = "es-ES"
    bot = await start_bot(hint_iterations=HINT_ITERATIONS)
    match = await start_ai_match(emulator, bot, ana, level="easy", hints=True)
    started = [m for m in ana.messages() if "empieza una partida contra la IA" in m.text()]
    assert started and "con pistas" in started[-1].text()
    assert "💡 partida con pistas" in board_message(ana, match.thread_id, "es").text()
    view = await bot.service.queries.view_for(match.match_id, ana.id)
    legal = {decision_words("es", d) for d in view.legal}
    hand = f"{text('es', 'board.hand_button')} 🂠"
    panel = await answered(await ana.click(board_message(ana, match.thread_id, "es"), hand))
    found = re.search(
        r"💡 \*\*Pista:\*\* (.+) — tu probabilidad de ganar, alrededor del (\d+)%", panel.text()
    )
    assert found is not None, panel.text()
    assert found[1] in legal
    assert "Hint" not in panel.text()


BOOLEAN_OPTION = 5
"""Discord's option type for a True/False choice (the client offers exactly those two)."""


async def test_the_hints_option_is_described_as_the_true_false_choice_it_is(emulator, start_bot):
    await start_bot(hint_iterations=HINT_ITERATIONS)
    group = emulator.commands.find("hanamikoji", guild_id=emulator.guild_id)
    ai = next(option for option in group["options"] if option["name"] == "ai")
    hints = next(option for option in ai["options"] if option["name"] == "hints")
    assert hints["type"] == BOOLEAN_OPTION
    spanish = hints["description_localizations"]["es-ES"]
    for described in (hints["description"], spanish):
        # The player picks True or False: a description offering "on" or "sí" misleads.
        assert "False" in described, described
        assert not re.match(r"(on|off|sí|no)\b", described, re.IGNORECASE), described
