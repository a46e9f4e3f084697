"""Threads that archive, as Discord's "Threads" topic describes them, one test per rule."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from tests.discord_emulator import CallbackType, DiscordEmulator, ImpossibleUserAction, start_client
from tests.discord_emulator.raw_api import RawApi
from tests.discord_emulator.thread_archive import (
    MAX_ACTIVE_THREADS_REACHED,
    THREAD_ARCHIVED,
    THREAD_LOCKED,
)

HOUR = 3600


@pytest.fixture
async def api(emulator: DiscordEmulator) -> AsyncIterator[RawApi]:
    async with RawApi(emulator) as opened:
        yield opened


async def new_thread(api: RawApi, emulator: DiscordEmulator, *, minutes: int = 60) -> int:
    answer = await api.start_thread(emulator.channel.id, minutes=minutes)
    assert answer.status == 201, answer
    return int(answer.body["id"])


async def is_archived(api: RawApi, thread_id: int) -> bool:
    return bool((await api.channel(thread_id))["thread_metadata"]["archived"])


async def archived_thread(api: RawApi, emulator: DiscordEmulator) -> tuple[int, int]:
    """A thread with one message of the bot's, left idle until it archived."""
    thread_id = await new_thread(api, emulator)
    message = await api.send(thread_id, "the board")
    emulator.advance(HOUR)
    assert await is_archived(api, thread_id)
    return thread_id, int(message.body["id"])


# archiving ------------------------------------------------------------------------------


async def test_a_thread_archives_after_its_duration_of_inactivity_and_not_before(emulator, api):
    thread_id = await new_thread(api, emulator, minutes=60)
    created = (await api.channel(thread_id))["thread_metadata"]["archive_timestamp"]
    emulator.advance(HOUR - 5)
    assert not await is_archived(api, thread_id)
    emulator.advance(5)
    metadata = (await api.channel(thread_id))["thread_metadata"]
    assert metadata["archived"] is True
    assert metadata["archive_timestamp"] > created  # it moves when the thread archives


async def test_a_message_is_activity_and_restarts_the_count(emulator, api):
    thread_id = await new_thread(api, emulator, minutes=60)
    emulator.advance(HOUR - 60)
    await emulator.user("ana").say("still here", channel=thread_id)
    emulator.advance(HOUR - 60)
    assert not await is_archived(api, thread_id)
    emulator.advance(60)
    assert await is_archived(api, thread_id)


async def test_connected_clients_get_a_thread_update_when_a_thread_archives(emulator, api):
    running = await start_client(emulator, discord.Client(intents=discord.Intents.default()))
    thread_id = await new_thread(api, emulator, minutes=60)
    await emulator.idle()
    assert running.client.get_channel(thread_id) is not None  # THREAD_CREATE arrived
    updated = asyncio.ensure_future(
        running.client.wait_for("thread_update", check=lambda _, t: t.id == thread_id, timeout=2)
    )
    emulator.advance(HOUR)
    _, after = await updated
    assert after.archived and after.archive_timestamp is not None
    await emulator.idle()
    guild = running.client.get_guild(emulator.guild_id)
    assert guild is not None and guild.get_thread(thread_id) is None  # archived: out of cache
    await running.stop()


# the auto-archive duration -----------------------------------------------------------------


async def test_its_creator_shortens_a_thread_duration_without_manage_threads(emulator, api):
    thread_id = await new_thread(api, emulator, minutes=10080)
    before = (await api.channel(thread_id))["thread_metadata"]["archive_timestamp"]
    emulator.advance(2 * HOUR)
    await emulator.deny_bot("MANAGE_THREADS")
    shortened = await api.patch(f"/channels/{thread_id}", {"auto_archive_duration": 60})
    assert shortened.status == 200
    metadata = shortened.body["thread_metadata"]
    assert metadata["auto_archive_duration"] == 60 and metadata["archived"] is False
    assert metadata["archive_timestamp"] > before  # a new duration moves it
    emulator.advance(HOUR - 5)  # the change is activity: the hour starts at it
    assert not await is_archived(api, thread_id)
    emulator.advance(5)
    assert await is_archived(api, thread_id)


async def test_the_same_duration_again_is_no_activity(emulator, api):
    thread_id = await new_thread(api, emulator, minutes=60)
    emulator.advance(HOUR - 60)
    again = await api.patch(f"/channels/{thread_id}", {"auto_archive_duration": 60})
    assert again.status == 200
    emulator.advance(60)
    assert await is_archived(api, thread_id)


async def test_another_creators_thread_duration_needs_manage_threads(emulator, api):
    ana = emulator.user("ana")
    thread = emulator.world.add_thread(
        emulator.channel, name="ana's", owner_id=ana.id, private=False
    )
    await emulator.deny_bot("MANAGE_THREADS")
    refused = await api.patch(f"/channels/{thread.id}", {"auto_archive_duration": 60})
    assert (refused.status, refused.code) == (403, 50013)
    assert thread.auto_archive_duration == 1440
    assert [f.code for f in emulator.take_failures()] == [50013]


# what an archived thread refuses ------------------------------------------------------


async def test_editing_a_message_in_an_archived_thread_is_refused_with_50083(emulator, api):
    thread_id, message_id = await archived_thread(api, emulator)
    edit = await api.patch(f"/channels/{thread_id}/messages/{message_id}", {"content": "late"})
    assert (edit.status, edit.code, edit.body["message"]) == (
        400,
        THREAD_ARCHIVED,
        "Thread is archived",
    )
    assert [f.code for f in emulator.take_failures()] == [THREAD_ARCHIVED]


async def test_adding_a_member_to_an_archived_thread_is_refused_with_50083(emulator, api):
    thread_id, _ = await archived_thread(api, emulator)
    added = await api.put(f"/channels/{thread_id}/thread-members/{emulator.user('ana').id}")
    assert (added.status, added.code) == (400, THREAD_ARCHIVED)
    assert emulator.user("ana").id not in emulator.world.channels[thread_id].thread_member_ids
    assert [f.code for f in emulator.take_failures()] == [THREAD_ARCHIVED]


async def test_editing_an_archived_thread_other_than_unarchiving_is_refused(emulator, api):
    thread_id, _ = await archived_thread(api, emulator)
    renamed = await api.patch(f"/channels/{thread_id}", {"name": "new name"})
    assert (renamed.status, renamed.code) == (400, THREAD_ARCHIVED)
    assert [f.code for f in emulator.take_failures()] == [THREAD_ARCHIVED]


async def test_deleting_a_message_in_an_archived_thread_is_allowed(emulator, api):
    thread_id, message_id = await archived_thread(api, emulator)
    deleted = await api.delete(f"/channels/{thread_id}/messages/{message_id}")
    assert deleted.status == 204
    assert await is_archived(api, thread_id)


# unarchiving ------------------------------------------------------------------------------


async def test_a_new_message_unarchives_the_thread_and_edits_work_again(emulator, api):
    thread_id, message_id = await archived_thread(api, emulator)
    sent = await api.send(thread_id, "your turn")
    assert sent.status == 200
    assert not await is_archived(api, thread_id)
    edit = await api.patch(f"/channels/{thread_id}/messages/{message_id}", {"content": "board 2"})
    assert edit.status == 200 and edit.body["content"] == "board 2"


async def test_patch_archived_false_unarchives_the_thread(emulator, api):
    thread_id, message_id = await archived_thread(api, emulator)
    reopened = await api.patch(f"/channels/{thread_id}", {"archived": False})
    assert reopened.status == 200 and reopened.body["thread_metadata"]["archived"] is False
    edit = await api.patch(f"/channels/{thread_id}/messages/{message_id}", {"content": "board 2"})
    assert edit.status == 200
    emulator.advance(HOUR - 5)  # unarchiving is activity: the count starts again
    assert not await is_archived(api, thread_id)


async def test_a_locked_archived_thread_is_reopened_only_with_manage_threads(emulator, api):
    thread_id = await new_thread(api, emulator)
    locked = await api.patch(f"/channels/{thread_id}", {"locked": True, "archived": True})
    assert locked.status == 200
    await emulator.deny_bot("MANAGE_THREADS")
    sent = await api.send(thread_id, "hello?")
    reopened = await api.patch(f"/channels/{thread_id}", {"archived": False})
    assert (sent.status, sent.code) == (400, THREAD_ARCHIVED)
    assert (reopened.status, reopened.code) == (403, 50013)
    assert await is_archived(api, thread_id)
    assert [f.code for f in emulator.take_failures()] == [THREAD_ARCHIVED, 50013]


# the active-thread limit --------------------------------------------------------------------


async def test_the_active_thread_limit_refuses_a_new_thread_with_160006(emulator, api):
    emulator.world.max_active_threads = 1
    first = await new_thread(api, emulator)
    refused = await api.start_thread(emulator.channel.id)
    assert (refused.status, refused.code) == (400, MAX_ACTIVE_THREADS_REACHED)
    assert refused.body["message"] == "Maximum number of active threads reached"
    emulator.advance(HOUR)  # the first archives, which frees its place
    assert await is_archived(api, first)
    assert (await api.start_thread(emulator.channel.id)).status == 201
    assert [f.code for f in emulator.take_failures()] == [MAX_ACTIVE_THREADS_REACHED]


async def test_an_archived_thread_cannot_be_unarchived_at_the_limit(emulator, api):
    thread_id, _ = await archived_thread(api, emulator)
    emulator.world.max_active_threads = 0
    reopened = await api.patch(f"/channels/{thread_id}", {"archived": False})
    sent = await api.send(thread_id, "hello?")
    assert (reopened.code, sent.code) == (MAX_ACTIVE_THREADS_REACHED,) * 2
    assert [f.code for f in emulator.take_failures()] == [MAX_ACTIVE_THREADS_REACHED] * 2


# what users can do in an archived thread ------------------------------------------------


async def test_a_slash_command_in_an_archived_thread_is_impossible(emulator, api, bot):
    thread_id, _ = await archived_thread(api, emulator)
    with pytest.raises(ImpossibleUserAction, match="archived"):
        await emulator.user("ana").slash("hanamikoji rules", channel=thread_id)


async def test_clicking_a_button_in_an_archived_thread_unarchives_it_first(emulator, api, bot):
    thread_id = await new_thread(api, emulator)
    counter = await emulator.user("ana").slash("hanamikoji counter", channel=thread_id)
    await counter.first_response()
    emulator.advance(HOUR)
    assert await is_archived(api, thread_id)
    assert counter.message is not None
    click = await emulator.user("ben").click(counter.message, "Count 0")
    assert await click.first_response() is CallbackType.UPDATE_MESSAGE
    assert not await is_archived(api, thread_id)
    assert emulator.user("ben").message(counter.message).content == "count is 1"


async def test_clicking_in_a_locked_archived_thread_is_impossible(emulator, api, bot):
    thread_id = await new_thread(api, emulator)
    counter = await emulator.user("ana").slash("hanamikoji counter", channel=thread_id)
    await counter.first_response()
    assert counter.message is not None
    assert (
        await api.patch(f"/channels/{thread_id}", {"locked": True, "archived": True})
    ).status == 200
    with pytest.raises(ImpossibleUserAction, match="unarchive"):
        await emulator.user("ben").click(counter.message, "Count 0")


async def test_a_followup_unarchives_the_thread_and_an_edit_is_refused(emulator, api, bot):
    thread_id = await new_thread(api, emulator)
    await (await emulator.user("ana").slash("hanamikoji rules", channel=thread_id)).first_response()
    assert (await api.patch(f"/channels/{thread_id}", {"archived": True})).status == 200
    # Editing through the interaction webhook is refused like any edit (strict: undocumented).
    with pytest.raises(discord.HTTPException) as raised:
        await bot.seen[-1].edit_original_response(content="edited")
    assert raised.value.code == THREAD_ARCHIVED
    # A followup is a new message, which unarchives the thread as a webhook's does.
    await bot.seen[-1].followup.send("more rules")
    assert not await is_archived(api, thread_id)
    assert [f.code for f in emulator.take_failures()] == [THREAD_ARCHIVED]


# locked threads ---------------------------------------------------------------------------


async def test_a_locked_thread_refuses_changes_without_manage_threads_even_to_its_creator(
    emulator, api
):
    thread_id = await new_thread(api, emulator)
    assert (await api.patch(f"/channels/{thread_id}", {"locked": True})).status == 200
    await emulator.deny_bot("MANAGE_THREADS")
    renamed = await api.patch(f"/channels/{thread_id}", {"name": "new name"})
    archived = await api.patch(f"/channels/{thread_id}", {"archived": True})
    assert (renamed.status, renamed.code) == (400, THREAD_LOCKED)
    assert (archived.status, archived.code) == (400, THREAD_LOCKED)
    assert [f.code for f in emulator.take_failures()] == [THREAD_LOCKED] * 2


async def test_archiving_and_locking_its_own_thread_needs_manage_threads_only_to_lock(
    emulator, api
):
    thread_id = await new_thread(api, emulator)
    await emulator.deny_bot("MANAGE_THREADS")
    locked = await api.patch(f"/channels/{thread_id}", {"archived": True, "locked": True})
    assert (locked.status, locked.code) == (403, 50013)
    archived = await api.patch(f"/channels/{thread_id}", {"archived": True})
    assert archived.status == 200 and archived.body["thread_metadata"]["locked"] is False
    assert [f.code for f in emulator.take_failures()] == [50013]


async def test_buttons_in_a_locked_thread_are_disabled_even_while_it_is_active(emulator, api, bot):
    thread_id = await new_thread(api, emulator)
    counter = await emulator.user("ana").slash("hanamikoji counter", channel=thread_id)
    await counter.first_response()
    assert counter.message is not None
    assert (await api.patch(f"/channels/{thread_id}", {"locked": True})).status == 200
    with pytest.raises(ImpossibleUserAction, match="locked"):
        await emulator.user("ben").click(counter.message, "Count 0")
