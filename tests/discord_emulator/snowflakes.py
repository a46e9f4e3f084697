"""Snowflake ids in Discord's layout, so discord.py derives sensible creation times."""

from __future__ import annotations

import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out increasing ids; the increment keeps ids unique within one millisecond."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose timestamp part makes a guild land on `shard_id` of
        `shard_count` (`(id >> 22) % shard_count`); it may lie a few ms in the future."""
        timestamp = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        timestamp += (shard_id - timestamp) % shard_count
        self._last = timestamp << 22
        return self._last
