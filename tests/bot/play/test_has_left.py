"""Which servers a process takes the bot to have left after READY: only those on its own
shards that are not in its list; a server unavailable at READY is in the list."""

from __future__ import annotations

from types import SimpleNamespace

from bot.play import has_left


def shard_of(guild_id: int, count: int) -> int:
    return (guild_id >> 22) % count  # Discord's sharding formula (topics/gateway, Sharding)


def process(shard_ids: list[int] | None, count: int, guild_ids: set[int]) -> SimpleNamespace:
    held = {g: SimpleNamespace(id=g, unavailable=True) for g in guild_ids}
    return SimpleNamespace(
        shard_ids=shard_ids, shard_count=count, shard_id=None, get_guild=held.get
    )


GUILDS = [(n << 22) for n in range(4)]  # on shards 0, 1, 0, 1 of two


def test_only_a_server_of_this_processs_shards_that_it_is_not_in_was_left():
    on_shard_0 = [g for g in GUILDS if shard_of(g, 2) == 0]
    on_shard_1 = [g for g in GUILDS if shard_of(g, 2) == 1]
    bot = process([0], 2, {on_shard_0[0]})  # in the first (unavailable: an outage)

    assert not has_left(bot, on_shard_0[0])  # type: ignore[arg-type]
    assert has_left(bot, on_shard_0[1])  # type: ignore[arg-type]
    assert not any(has_left(bot, g) for g in on_shard_1)  # type: ignore[arg-type]


def test_a_process_of_every_shard_judges_every_server():
    bot = process(None, 2, set())
    assert all(has_left(bot, g) for g in GUILDS)  # type: ignore[arg-type]
