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
