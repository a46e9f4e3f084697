"""A database that stops answering under the bot, as players and the operator notice it:
another connection holds the SQLite file's write lock for longer than Discord's three
seconds. Every click and command still gets its first response in time, each player is
told plainly, in their language, that nothing changed, no decision is lost or doubled,
play resumes once the lock is gone (no restart), and the log says so once each way,
without a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import sqlite3
from collections.abc import AsyncIterator

import pytest

from bot.words.i18n import text
from bot.words.refusals import refusal_text
from engine.store.errors import DatabaseUnavailable
from tests.discord_emulator.interactions import CallbackType, EmulatedInteraction
from tests.discord_emulator.message_snapshot import MessageSnapshot
from tests.e2e.players import answered, board_message, challenge_and_accept, labels, settle
from tests.e2e.test_config_settings import MANAGE_SERVER
from tests.e2e.test_full_disk import choose_a_move, click_and_read

BUSY_SECONDS = 4.0
"""How long a write waits for the lock before giving up: past Discord's three seconds, so
a click answered only after the database would fail the emulator's deadline."""

WAIT_FOR_ANSWER = 6 * BUSY_SECONDS
"""An upper bound for an answer that comes after writes queued behind the lock gave up
(a bound that never decides the test: the answers are waited for, not timed)."""


@contextlib.asynccontextmanager
async def write_lock_held(path: str) -> AsyncIterator[None]:
    """Another connection (a backup, a script) holds the database's write lock."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    await asyncio.to_thread(other.execute, "BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def bot_lines(caplog) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.levelno >= logging.WARNING and r.name.startswith(("bot", "engine", "discord"))
    ]


async def what_they_read(interaction: EmulatedInteraction) -> list[MessageSnapshot]:
    """Every message the interaction left: its answer and its followups."""
    await interaction.answer(wait=WAIT_FOR_ANSWER)
    found = [*interaction.followups, *filter(None, [interaction.message])]
    return list({m.id: m for m in found}.values())


async def test_a_stalled_database_leaves_no_click_unanswered_and_play_resumes(
    emulator, start_bot, caplog, monkeypatch
):
    monkeypatch.setattr("engine.store.outage.QUIET_SECONDS", 0.0)  # "up" at the first success
    caplog.set_level(logging.INFO)
    bot = await start_bot(database_settings={"busy_timeout_seconds": BUSY_SECONDS})
    cara = emulator.user("cara")
    cara.record.locale = "es-ES"  # she is told in Spanish
    match = await challenge_and_accept(emulator, bot)
    before = (await bot.service.queries.public_view(match.match_id)).version
    mover, message, button = await choose_a_move(emulator, bot, match, random.Random(23))
    other = next(u for u in match.players if u is not mover)
    board = board_message(other, match.thread_id)
    caplog.clear()

    async with write_lock_held(bot.service.store.path):
        decision = await mover.click(message, button)
        setting = await cara.slash("hanamikoji notify", dm=True)
        ai_match = await cara.slash("hanamikoji ai")
        stats = await cara.slash("hanamikoji stats")
        hand = await other.click(board, labels("en")["hand"])
        # Each got its first response within Discord's three seconds (the emulator raises
        # InteractionFailed otherwise), although the database held every write up longer.
        for interaction in (decision, setting, ai_match, stats, hand):
            await interaction.first_response()

        said = [m.text() for m in await what_they_read(decision)]
        assert text("en", "database.not_answering") in said, said
        read = await what_they_read(setting)
        assert [m.text() for m in read] == [text("es", "database.not_answering")]
        assert all(m.ephemeral for m in read)
        # /ai would have been public; refused, it leaves only cara's private line.
        read = await what_they_read(ai_match)
        assert [m.text() for m in read] == [text("es", "database.not_answering")]
        assert all(m.ephemeral for m in read)
        # Reads go on while the write lock is held: the stats and the hand are shown.
        assert (await answered(stats)).ephemeral and (await answered(hand)).ephemeral
        assert (await bot.service.queries.public_view(match.match_id)).version == before

    down = bot_lines(caplog)
    assert len(down) == 1 and "not answering" in down[0].getMessage(), caplog.text

    # The lock is gone: the same click now plays the move, once, with no restart.
    again = await mover.click(message, button)
    await again.answer(wait=WAIT_FOR_ANSWER)
    await settle(emulator, bot)
    assert (await bot.service.queries.public_view(match.match_id)).version == before + 1
    decisions = await bot.service.store.decisions(match.match_id)
    assert [row.seq for row in decisions] == list(range(1, before + 2))  # none lost, none twice
    assert await bot.service.queries.open_matches_for(cara.id) == []  # /ai started nothing

    lines = bot_lines(caplog)
    assert [r.getMessage().split(":")[0] for r in lines][1:] == [
        "the database answers again after " + lines[1].getMessage().split("after ")[1].split(":")[0]
    ], caplog.text
    assert not any(r.exc_info for r in caplog.records), caplog.text
    assert "Traceback" not in caplog.text


def test_the_database_lines_read_plainly_in_english_and_spanish():
    stalled = DatabaseUnavailable("/var/lib/bot.sqlite3", "no answer in time")
    unsure = DatabaseUnavailable("db", "the connection was lost", outcome_unknown=True)
    assert refusal_text("en", stalled) == (
        "The bot's database is not answering right now: nothing was changed. "
        "Please try again in a moment."
    )
    assert refusal_text("es", stalled) == (
        "La base de datos del bot no responde ahora mismo: no se ha cambiado nada. "
        "Inténtalo de nuevo en un momento."
    )
    # When a write's answer was lost, nobody knows yet whether it was made: not "nothing
    # changed", but where to look.
    for lang in ("en", "es"):
        assert refusal_text(lang, unsure) == text(lang, "database.unconfirmed")
    assert "board" in refusal_text("en", unsure) and "nothing" not in refusal_text("en", unsure)
    assert "tablero" in refusal_text("es", unsure)


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("hanamikoji hand", {}),
        ("hanamikoji board", {}),
        ("hanamikoji moves", {}),
        ("hanamikoji resign", {}),
        ("hanamikoji stats", {}),
        ("hanamikoji leaderboard", {}),
        ("hanamikoji history", {}),
        ("hanamikoji notify", {"dm": False}),
        ("hanamikoji settings", {}),
        ("hanamikoji review", {}),
        ("hanamikoji leaderboard", {"season": 1}),
        ("hanamikoji season start", {}),
        ("hanamikoji season end", {}),
    ],
)
async def test_every_command_that_asks_the_database_is_acknowledged_first(
    emulator, bot, command, options
):
    """Whatever the database does (stalls, restarts, is still being reached as the process
    starts), these commands are answered in time: "thinking…", only for their user, comes
    before the first read. (`/challenge` and `/ai`, public when they succeed, are covered by
    the stall test above; `/rules` reads nothing.)"""
    ana = emulator.user("ana")
    ana.grant(MANAGE_SERVER)  # /settings is hers to use
    interaction = await ana.slash(command, **options)
    assert await interaction.first_response() is CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    answer = await interaction.answer()
    assert answer is not None and answer.ephemeral and not answer.loading


def stall_after_the_move(monkeypatch, service, mover_id: int) -> list[int]:
    """Once the service has taken a move of ``mover_id``, the read that redraws their panel
    gets no answer (the move is stored: only that read fails). Returns the moves taken."""
    real_submit, real_view_for = service.commands.submit, service.queries.view_for
    taken: list[int] = []

    async def submit(match_id, user_id, decision, expected_version):  # type: ignore[no-untyped-def]
        result = await real_submit(match_id, user_id, decision, expected_version)
        taken.append(result.version)
        return result

    async def view_for(match_id, user_id):  # type: ignore[no-untyped-def]
        if user_id == mover_id and len(taken) == 1:
            taken.append(-1)  # once
            raise DatabaseUnavailable("test.sqlite3", "no answer in time")
        return await real_view_for(match_id, user_id)

    monkeypatch.setattr(service.commands, "submit", submit)
    monkeypatch.setattr(service.queries, "view_for", view_for)
    return taken


async def test_a_move_taken_is_never_reported_as_nothing_changed(emulator, bot, monkeypatch):
    # The move is stored, then the database stops answering reads. The player must not
    # read "nothing was changed" (they would play again and find the match moved on): the
    # service answers the move with what its player now sees, so their panel is redrawn
    # with the move's notice without a read. (A redraw that must read, and gets no answer,
    # says the move was played: tests/bot/play/test_played_panel.py.)
    match = await challenge_and_accept(emulator, bot)
    before = (await bot.service.queries.public_view(match.match_id)).version
    # The first move is an action: a Confirm on the mover's private panel.
    mover, message, button = await choose_a_move(emulator, bot, match, random.Random(5))
    assert message.ephemeral
    taken = stall_after_the_move(monkeypatch, bot.service, mover.id)

    read = await click_and_read(emulator, bot, mover, message, button)
    assert taken == [before + 1]  # taken; the panel was redrawn without reading the match
    said = [m.text() for m in read]
    assert not any(text("en", "database.not_answering") in line for line in said), said
    panel = read[-1]
    assert panel.ephemeral and "✅" in panel.text()
    assert text("en", "database.played_not_redrawn") not in panel.text()
    assert labels("en")["refresh"] in [b.label for b in panel.buttons()]
    assert (await bot.service.queries.public_view(match.match_id)).version == before + 1


async def test_a_challenge_posted_is_not_refused_when_its_message_id_cannot_be_stored(
    emulator, bot, monkeypatch
):
    ana, ben = emulator.user("ana"), emulator.user("ben")

    async def set_challenge_message(match_id, message_id):  # type: ignore[no-untyped-def]
        raise DatabaseUnavailable("test.sqlite3", "no answer in time")

    monkeypatch.setattr(bot.service.placements, "set_challenge_message", set_challenge_message)
    challenge = await ana.slash("hanamikoji challenge", opponent=ben)
    await settle(emulator, bot)  # the bot is done with the command: a refusal would be in
    read = await what_they_read(challenge)
    said = [m.text() for m in read]
    assert not any(text("en", "database.not_answering") in line for line in said), said
    (posted,) = read
    assert not posted.ephemeral and labels("en")["accept"] in [b.label for b in posted.buttons()]
    # The challenge stands: ben can take it up.
    await answered(await ben.click(posted, labels("en")["accept"]))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(ana.id)
    assert info.placement.thread_id is not None


async def test_settings_changed_together_are_saved_together(emulator, bot, monkeypatch):
    # A timer and a language chosen at once: the database stops answering after one
    # write. The admin is never told "nothing was changed" while part of it was saved.
    ana = emulator.user("ana")
    ana.grant(MANAGE_SERVER)
    settings = bot.service.settings
    real = settings.set_guild_settings
    writes: list[object] = []

    async def set_guild_settings(changed):  # type: ignore[no-untyped-def]
        writes.append(changed)
        if len(writes) > 1:
            raise DatabaseUnavailable("test.sqlite3", "no answer in time")
        return await real(changed)

    monkeypatch.setattr(settings, "set_guild_settings", set_guild_settings)
    shown = await answered(await ana.slash("hanamikoji settings", turn_timer=3600, language="es"))
    assert text("en", "database.not_answering") not in shown.text()
    assert shown.embeds[0]["title"] == text("en", "commands.settings_updated")
    saved = await bot.service.store.guild_settings(emulator.guild_id)
    assert saved is not None and (saved.turn_seconds, saved.language) == (3600, "es")


async def test_a_sharing_choice_saved_is_not_reported_as_nothing_changed(
    emulator, bot, monkeypatch
):
    # /review share:True match:N stores the choice, then the review's read times out.
    ana = emulator.user("ana")

    async def seen_match(match_id, viewer_id, guild_id):  # type: ignore[no-untyped-def]
        raise DatabaseUnavailable("test.sqlite3", "no answer in time")

    monkeypatch.setattr(bot.service.queries, "seen_match", seen_match)
    review = await ana.slash("hanamikoji review", share=True, match=1)
    await review.first_response()
    await settle(emulator, bot)
    said = [m.text() for m in await what_they_read(review)]
    assert (await bot.service.settings.user_settings(ana.id)).share_reviews
    assert not any(text("en", "database.not_answering") in line for line in said), said
    assert any(
        line.startswith(text("en", "review.share_on")) and text("en", "database.not_shown") in line
        for line in said
    ), said
