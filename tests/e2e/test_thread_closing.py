"""A finished match's thread leaves the server's active threads once its result is posted, so
repeated matches do not push a server towards Discord's cap on active threads: a match
against the AI is archived and locked at once; a match between people stays active, its
Rematch button pressable, and archives itself an hour after its last message."""

import logging

import pytest

from tests.discord_emulator.errors import ImpossibleUserAction
from tests.e2e.players import answered, challenge_and_accept, settle

HOUR = 3600


async def resigned(emulator, bot, user, thread_id: int) -> None:
    ask = await answered(await user.slash("hanamikoji resign", channel=thread_id))
    await answered(await user.click(ask, "Yes, resign"))
    await settle(emulator, bot)


async def ai_match_resigned(emulator, bot, user) -> int:
    """Start a match against the AI and resign it at once; returns its thread."""
    await answered(await user.slash("hanamikoji ai", level="easy"))
    await settle(emulator, bot)
    (info,) = await bot.service.queries.open_matches_for(user.id)
    assert info.placement.thread_id is not None
    await resigned(emulator, bot, user, info.placement.thread_id)
    return info.placement.thread_id


def result_in(user, thread_id: int):
    """The result message: the last one announcing a winner (the board is edited, not new)."""
    return [m for m in user.messages(thread_id) if "🏆" in m.text() and not m.embeds][-1]


async def test_an_ai_match_thread_is_archived_and_locked_after_its_result(emulator, bot):
    ana = emulator.user("ana")
    thread_id = await ai_match_resigned(emulator, bot, ana)

    thread = emulator.world.channel(thread_id)
    assert thread.archived and thread.locked
    result = result_in(ana, thread_id)
    # A locked thread's buttons cannot be pressed: the result offers none, and says how.
    assert result.buttons() == []
    assert "Play again with `/hanamikoji ai`" in result.text()
    # The result was posted before the thread was closed, not after.
    requests = [(method, path) for method, path, _ in emulator.requests]
    posted = max(
        i
        for i, r in enumerate(requests)
        if r == ("POST", f"/api/v10/channels/{thread_id}/messages")
    )
    closed = requests.index(("PATCH", f"/api/v10/channels/{thread_id}"))
    assert posted < closed
    # Closed for good: nobody reopens it by chatting or pressing its buttons.
    with pytest.raises(ImpossibleUserAction):
        await ana.say("one more?", channel=thread_id)
    board = next(m for m in ana.messages(thread_id) if m.buttons())
    with pytest.raises(ImpossibleUserAction):
        await ana.click(board, board.buttons()[0].label)


async def test_repeated_ai_matches_leave_no_thread_active(emulator, bot):
    ana = emulator.user("ana")
    threads = [await ai_match_resigned(emulator, bot, ana) for _ in range(4)]
    assert len(set(threads)) == 4
    assert emulator.world.active_threads() == []


async def test_without_manage_threads_the_thread_is_archived_only_and_a_log_says_so(
    emulator, bot, caplog
):
    await emulator.deny_bot("MANAGE_THREADS")
    ana = emulator.user("ana")
    with caplog.at_level(logging.INFO, logger="bot.play.thread"):
        thread_id = await ai_match_resigned(emulator, bot, ana)

    thread = emulator.world.channel(thread_id)
    assert thread.archived and not thread.locked
    assert "locking needs Manage Threads" in caplog.text
    assert emulator.world.active_threads() == []
    # Only archived, the thread's Rematch button still works (pressing reopens it).
    press = await ana.click(result_in(ana, thread_id), "Rematch")
    await press.first_response()
    await settle(emulator, bot)
    assert len(await bot.service.queries.open_matches_for(ana.id)) == 1


@pytest.mark.slow
async def test_a_match_between_people_stays_active_an_hour_and_its_rematch_works(emulator, bot):
    match = await challenge_and_accept(emulator, bot)
    ana, ben = match.players
    await resigned(emulator, bot, ana, match.thread_id)
    thread = emulator.world.channel(match.thread_id)
    # Not archived (clients may grey out an archived thread's buttons): an hour's duration.
    assert not thread.archived and not thread.locked
    assert thread.auto_archive_duration == 60
    thread_edits = [
        request
        for request in emulator.requests
        if request[:2] == ("PATCH", f"/api/v10/channels/{match.thread_id}")
    ]
    assert len(thread_edits) == 1, "one request"

    await ben.say("good game!", channel=match.thread_id)
    press = await ana.click(result_in(ana, match.thread_id), "Rematch")
    await press.first_response()
    await settle(emulator, bot)
    assert "Waiting for ben" in press.followups[-1].text()

    emulator.advance(HOUR)  # an hour without a message: it leaves the active threads
    await settle(emulator, bot)
    assert thread.archived and not thread.locked
    assert thread not in emulator.world.active_threads()
