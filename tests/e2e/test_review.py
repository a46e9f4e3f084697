"""`/hanamikoji review` through the emulator: a whole match played by two members, then
its review stepped through page by page, each picture the very board the thread showed at
that step; a stored review is instant; a spectator sees no hidden card."""

from __future__ import annotations

import random
import re

import pytest

from engine.model import MatchStatus
from engine.review.steps import match_steps
from engine.rules import Secret, TradeOff
from engine.rules.record import MatchRecord
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.discord_emulator.transcript import Scope
from tests.e2e.players import answered, challenge_and_accept, play_decision, settle

REVIEW_ITERATIONS = 24
"""Play-outs per decision: a rough review, enough to flag moves, quick enough for a test."""
PROGRESS = re.compile(r"⏳ Analysing match #\d+… \d+%")


def picture(message: MessageSnapshot) -> bytes:
    (png,) = [data for name, data in message.attachments if name == "board.png"]
    return png


async def until_picture(emulator, bot, interaction) -> MessageSnapshot:
    """The interaction's message once the bot is done with it: a picture (the analysis may
    run first)."""
    await settle(emulator, bot)
    message = interaction.message
    assert message is not None and message.attachment_names, message
    return message


def step_of(message: MessageSnapshot) -> int:
    found = re.search(r"page (\d+) of (\d+)", message.text())
    assert found, message.text()
    return int(found[1])


async def press(emulator, bot, user, message: MessageSnapshot, label: str) -> MessageSnapshot:
    """Press a review button and return the same message as it reads afterwards (the press
    is deferred at once, then its page filled in)."""
    await user.click(message, label)
    await settle(emulator, bot)
    shown = user.message(message.id)
    assert shown.attachment_names, shown
    return shown


@pytest.mark.slow
async def test_a_review_steps_through_the_boards_the_thread_showed(emulator, start_bot):
    bot = await start_bot(review_iterations=REVIEW_ITERATIONS)  # [ai] review_iterations
    match = await challenge_and_accept(emulator, bot)
    ana, ben = match.players
    rng = random.Random(11)

    async def thread_board() -> tuple[int, bytes]:
        info = await bot.service.queries.match_info(match.match_id)
        assert info.placement.board_message_id is not None
        return info.version, picture(ana.message(info.placement.board_message_id))

    # The board the thread showed after each decision, by step (0: the first deal).
    shown = dict([await thread_board()])
    while (await bot.service.queries.match_info(match.match_id)).status is MatchStatus.ACTIVE:
        await play_decision(emulator, bot, match, rng)
        version, png = await thread_board()
        assert version == len(shown), "each decision got its own board edit"
        shown[version] = png
    await settle(emulator, bot)
    shown[len(shown) - 1] = (await thread_board())[1]  # the final board, with the result
    steps = len(shown) - 1

    # ana reviews her match: a progress line first, then the first page.
    review = await ana.slash("hanamikoji review", match=match.match_id)
    await review.first_response()
    page = await until_picture(emulator, bot, review)
    ana_lines = [e.text() for e in emulator.transcript.ephemeral_to(ana.id)]
    assert any(PROGRESS.search(t) for t in ana_lines), "the analysis showed its progress"
    assert page.ephemeral and step_of(page) == 0
    assert picture(page) == shown[0]

    # Every step, pressed one by one, shows the thread's board of that step, byte for byte.
    for step in range(1, steps + 1):
        page = await press(emulator, bot, ana, page, "Next ▶")
        assert step_of(page) == step
        assert picture(page) == shown[step], f"step {step} differs from the thread's board"
    assert page.button("Next ▶").disabled and page.button("Last ⏭").disabled
    page = await press(emulator, bot, ana, page, "⏮ First")
    assert step_of(page) == 0 and page.button("◀ Back").disabled

    stored = await bot.service.reviews.stored(match.match_id, ana.id)
    assert stored is not None and stored.iterations == REVIEW_ITERATIONS
    info = await bot.service.queries.match_info(match.match_id)
    seat = info.seat_of(ana.id)
    assert seat is not None

    # The first page lists ana's worst decisions, each a press away, each labelled where
    # the Moves log lists it.
    worst = stored.worst(seat, 3)
    record = await bot.service.reviews.record(match.match_id, ana.id)
    labels = {
        at.index: f"Round {at.round_number}, move {at.move_number}"
        + (" (take)" if at.answers_offer else "")
        for at, _ in match_steps(record)
    }
    jumps = [b.label for b in page.buttons() if (b.label or "").startswith("Round ")]
    assert jumps == [f"{labels[j.step]} ⚠" for j in worst]
    if worst:
        assert f"{labels[worst[0].step]}: " in page.text()
        page = await press(emulator, bot, ana, page, jumps[0])
        assert step_of(page) == worst[0].step
        assert picture(page) == shown[worst[0].step]
        page = await press(emulator, bot, ana, page, "⏮ First")

    # Next mistake: ana's first flagged decision, judged with its better move.
    own = stored.flagged(seat)
    if own:
        page = await press(emulator, bot, ana, page, "Next mistake ⚠")
        assert step_of(page) == own[0].step
        assert "Better: " in page.text() and "Chance of winning as " in page.text()
        assert picture(page) == shown[own[0].step]
    else:
        assert page.button("Next mistake ⚠").disabled

    # A second look is instant: ben's review answers with its page, no progress line.
    before = len(emulator.transcript)
    again = await ben.slash("hanamikoji review", match=match.match_id)
    await again.answer()
    assert again.message is not None and again.message.attachment_names
    assert not any(PROGRESS.search(e.text()) for e in list(emulator.transcript)[before:])

    # The Review button under the result opens it too.
    result = next(
        m for m in ana.messages(match.thread_id) if any(b.label == "Rematch" for b in m.buttons())
    )
    opened = await ben.click(result, "Review 🔍")
    await opened.answer()
    assert opened.message is not None and step_of(opened.message) == 0

    # cara did not play: her pages show the public boards and moves only.
    cara = emulator.user("cara")
    watch = await cara.slash("hanamikoji review", match=match.match_id)
    await watch.first_response()
    page = await until_picture(emulator, bot, watch)
    for step in range(1, steps + 1):
        page = await press(emulator, bot, cara, page, "Next ▶")
        assert picture(page) == shown[step]
    record = MatchRecord.from_json(
        await bot.service.queries.match_record(match.match_id, emulator.guild_id, ana.id)
    )
    hidden = [
        str(s.decision) for s, _ in match_steps(record) if isinstance(s.decision, Secret | TradeOff)
    ]
    seen = [
        e
        for e in emulator.transcript
        if e.visibility.scope is Scope.EPHEMERAL and e.visibility.user_id == cara.id
    ]
    assert seen
    for entry in seen:
        body = entry.text()
        assert not any(f"`{move}`" in body for move in hidden), body
        assert not re.search(r"\b1[A-G]\b|\b2[A-G]{2}\b", body), body
        assert "hand:" not in body and "face down:" not in body and "Removed" not in body
        assert "Chance of winning" not in body and "Better:" not in body


async def test_a_locked_threads_result_names_the_command_and_spectators_need_consent(
    emulator, start_bot
):
    bot = await start_bot(review_iterations=REVIEW_ITERATIONS)
    ana, cara = emulator.user("ana"), emulator.user("cara")
    await answered(await ana.slash("hanamikoji ai", level="easy"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    match_id, thread_id = info.match_id, info.placement.thread_id
    assert thread_id is not None

    # Unfinished: its record holds every hidden card, so there is no review yet.
    early = await answered(await cara.slash("hanamikoji review", match=match_id))
    assert early.ephemeral and early.text() == (
        f"Match #{match_id} is still being played: it can be reviewed once it has ended."
    )
    ask = await answered(await ana.slash("hanamikoji resign", channel=thread_id))
    await answered(await ana.click(ask, "Yes, resign"))
    await settle(emulator, bot)

    # The AI match's thread is locked, so its result names the command instead of a button.
    result = [m for m in ana.messages(thread_id) if "🏆" in m.text() and not m.embeds][-1]
    assert result.buttons() == []
    assert f"`/hanamikoji review match:{match_id}`" in result.text()

    # Without a match number: the caller's latest finished match on this server.
    mine = await ana.slash("hanamikoji review")
    await mine.first_response()
    page = await until_picture(emulator, bot, mine)
    assert step_of(page) == 0 and "Hidden cards at this step" in page.text()

    # cara did not play: public moves only, until the player shares (the AI agrees).
    watch = await answered(await cara.slash("hanamikoji review", match=match_id))
    assert "you see only its public moves" in watch.text()
    assert "Hidden cards" not in watch.text()
    shared = await answered(await ana.slash("hanamikoji review", share=True))
    assert shared.text().startswith("Done: spectators may see the judgement")
    assert (await bot.service.settings.user_settings(ana.id)).share_reviews
    watch = await answered(await cara.slash("hanamikoji review", match=match_id))
    assert "Hidden cards at this step" in watch.text()

    unknown = await answered(await cara.slash("hanamikoji review", match=987654))
    assert unknown.text() == "I can't find match #987654 on this server."

    # In cara's own language, with the picture in the server's, as the thread drew it.
    cara.record.locale = "es-ES"
    vista = await answered(await cara.slash("hanamikoji review", match=match_id))
    assert "Repaso · página 0 de " in vista.text() and "Cartas ocultas en este paso" in vista.text()
    assert [b.label for b in vista.buttons()][2] == "Siguiente ▶"
    [(_, drawn)] = vista.attachments
    assert drawn == picture(page)
