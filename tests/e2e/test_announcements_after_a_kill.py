"""The bot SIGKILLed between committing a change and showing it: after the restart the
thread shows it, once.

The emulator holds the bot's message posts, so the kill lands while the announcement is on
its way. The held request is then let through: Discord may well have posted a message
whose answer the dead bot never read. The restarted bot sends the announcement again with
the same nonce, and Discord (the emulator, as documented) returns that message instead of
posting a second one.
"""

import asyncio
import sqlite3

import pytest

from tests.e2e.players import HANG_GUARD_SECONDS, answered, labels
from tests.e2e.test_bot_process import start_bot, stop_bot

pytestmark = pytest.mark.slow  # killed bot processes

POSTS = "/channels/{channel_id}/messages"


async def until(condition, what: str, seconds: float = HANG_GUARD_SECONDS):
    """What ``condition`` returns once it is true; fails after ``seconds``."""
    for _ in range(int(seconds / 0.05)):
        if found := condition():
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"no {what} after {seconds} s")


def the_thread(user):
    (thread,) = user.threads()
    return thread.id


def boards(user, thread_id):
    hand = labels("en")["hand"]
    return [m for m in user.messages(thread_id) if any(b.label == hand for b in m.buttons())]


def results(user, thread_id):
    return [m for m in user.messages(thread_id) if any(b.label == "Rematch" for b in m.buttons())]


def outbox_empty(database) -> bool:
    """The bot has shown (and recorded showing) every announcement: nothing more comes."""
    with sqlite3.connect(database) as db:
        return db.execute("SELECT COUNT(*) FROM announcements").fetchone() == (0,)


async def killed(process) -> None:
    process.kill()
    await process.wait()


@pytest.mark.parametrize(
    "discord_posted_it",
    [False, True],
    ids=["Discord never got the post", "Discord posted it but the answer was lost"],
)
async def test_a_kill_while_the_result_is_on_its_way_shows_it_once(
    emulator, tmp_path, discord_posted_it
):
    database = tmp_path / "bot.sqlite3"
    ana, ben = emulator.user("ana"), emulator.user("ben")
    process, seen = await start_bot(emulator, database)
    try:
        challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
        await answered(await ben.click(challenge, "Accept"))
        thread_id = await until(lambda: ana.threads() and the_thread(ana), "a thread")
        await until(lambda: boards(ana, thread_id), "the board")
        # The start is shown whole (its "you start" line too), so the hold below catches
        # the result's post and nothing earlier.
        await until(lambda: outbox_empty(database), "the start shown")

        # The thread's posts only: the players' DM panels go on meanwhile.
        in_thread = f"/channels/{thread_id}/messages"
        held = emulator.faults.hold(in_thread, method="POST", answer_only=discord_posted_it)
        ask = await answered(await ana.slash("hanamikoji resign", channel=thread_id))
        await answered(await ana.click(ask, "Yes, resign"))  # committed and acknowledged
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await held.arrived.wait()  # the result is on its way to Discord
        await killed(process)
        assert len(results(ana, thread_id)) == (1 if discord_posted_it else 0)

        process, seen = await start_bot(emulator, database)
        held.release()  # Discord takes the dead bot's request, and the restarted one's
        await until(lambda: outbox_empty(database), "the result shown after the restart")
        (result,) = results(ana, thread_id)
        assert "resigned" in result.text()
        # Posted before the kill, it was sent again and Discord returned it. Held unsent,
        # the dead bot's request may still reach Discord when let through (then the same
        # happens) or die with its connection: either way one result, checked above.
        if discord_posted_it:
            assert emulator.nonces.reused == 1
    finally:
        await stop_bot(process, seen)
    assert len(ana.threads()) == 1


async def test_a_kill_before_the_board_is_posted_leaves_one_thread_and_one_board(
    emulator, tmp_path
):
    database = tmp_path / "bot.sqlite3"
    ana, ben = emulator.user("ana"), emulator.user("ben")
    process, seen = await start_bot(emulator, database)
    try:
        held = emulator.faults.hold(POSTS, method="POST")
        challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
        await answered(await ben.click(challenge, "Accept"))  # the match is committed
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await held.arrived.wait()  # its board is on its way
        await killed(process)

        process, seen = await start_bot(emulator, database)
        held.release()
        thread_id = await until(lambda: ana.threads() and the_thread(ana), "a thread")
        await until(lambda: outbox_empty(database), "the start shown after the restart")
        assert len(boards(ana, thread_id)) == 1
        assert len(ana.threads()) == 1
        hand = await answered(await ana.click(boards(ana, thread_id)[0], labels("en")["hand"]))
        assert hand.buttons(), "the board's Hand button works after the restart"
    finally:
        await stop_bot(process, seen)


async def test_a_kill_while_the_players_are_added_to_the_thread_leaves_one_thread(
    emulator, tmp_path
):
    database = tmp_path / "bot.sqlite3"
    ana, ben = emulator.user("ana"), emulator.user("ben")
    process, seen = await start_bot(emulator, database)
    try:
        added = "/channels/{channel_id}/thread-members/{user_id}"
        held = emulator.faults.hold(added, method="PUT")
        challenge = await answered(await ana.slash("hanamikoji challenge", opponent=ben))
        await answered(await ben.click(challenge, "Accept"))  # the match is committed
        async with asyncio.timeout(HANG_GUARD_SECONDS):
            await held.arrived.wait()  # the thread is made, its players on their way in
        await killed(process)

        process, seen = await start_bot(emulator, database)
        held.release()
        await until(lambda: outbox_empty(database), "the start shown after the restart")
        thread_id = the_thread(ana)  # the restarted bot found the thread rather than made one
        assert len(boards(ana, thread_id)) == 1
        members = emulator.world.channel(thread_id).thread_member_ids
        assert {ana.id, ben.id} <= members, "the restart added the players again"
    finally:
        await stop_bot(process, seen)
    assert len(ana.threads()) == 1
