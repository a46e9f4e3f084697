"""A finished match's thread is still that match's place: `/hanamikoji moves`, `board`,
`review` and `history` asked there find the match, in English and in Spanish."""

from __future__ import annotations

import random

import pytest

from bot.words.i18n import text
from engine.model import MatchStatus
from tests.e2e.players import answered, challenge_and_accept, labels, play_decision, settle

REVIEW_ITERATIONS = 24
"""Play-outs per decision: a rough review, quick enough for a test."""


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_commands_in_a_finished_thread_find_its_match(emulator, start_bot, lang):
    if lang == "es":
        emulator.world.guild.preferred_locale = "es-ES"
        for name in ("ana", "ben", "cara"):
            emulator.user(name).record.locale = "es-ES"
    bot = await start_bot(review_iterations=REVIEW_ITERATIONS)
    match = await challenge_and_accept(emulator, bot, lang)
    ana, ben = match.players
    cara = emulator.user("cara")
    rng = random.Random(5)
    for _ in range(3):
        await play_decision(emulator, bot, match, rng, lang)
    ask = await answered(await ana.slash("hanamikoji resign", channel=match.thread_id))
    await answered(await ana.click(ask, text(lang, "commands.resign_button")))
    await settle(emulator, bot)
    info = await bot.service.queries.match_info(match.match_id)
    assert info.status is MatchStatus.FINISHED
    nowhere = text(lang, "commands.no_match_in_channel")

    for member in (ben, cara):
        moves = await answered(await member.slash("hanamikoji moves", channel=match.thread_id))
        assert moves is not None and moves.ephemeral
        assert nowhere not in moves.text()
        assert text(lang, "moves.title", first="ana", second="ben") in moves.text()

    boards_before = len([m for m in ben.messages(match.thread_id) if m.attachment_names])
    again = await answered(await ben.slash("hanamikoji board", channel=match.thread_id))
    assert again.text() == text(lang, "commands.board_again")
    await settle(emulator, bot)
    boards = [m for m in ben.messages(match.thread_id) if "board.png" in m.attachment_names]
    assert len(boards) > 0 and len(boards) >= boards_before
    assert text(lang, "outcome.resignation", winner="ben", loser="ana") in boards[-1].text()
    assert labels(lang)["hand"] not in {b.label for b in boards[-1].buttons()}

    await bot.service.reviews.review(match.match_id, ben.id)  # stored: the page shows at once
    review = await answered(await ben.slash("hanamikoji review", channel=match.thread_id))
    assert review is not None and review.ephemeral
    assert text(lang, "review.no_match") not in review.text()
    assert "board.png" in review.attachment_names
    first_page = text(lang, "review.title", step=0, steps="§", round=1).split("§")[0]
    assert first_page in review.text()

    history = await answered(await ben.slash("hanamikoji history", channel=match.thread_id))
    assert f"#{match.match_id}" in history.text()
    assert text(lang, "stats.export_button", match=match.match_id) in {
        b.label for b in history.buttons()
    }
