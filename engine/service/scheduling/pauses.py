"""Pauses in real time that are not alarms: nothing falls due, the caller only waits a
moment (the AI's pause for people watching, a full disk before the next write). They are
here so that the rest of the service never sleeps by itself (a test checks)."""

from __future__ import annotations

import asyncio


async def pause(seconds: float) -> None:
    """Wait ``seconds`` of real time (none for 0)."""
    if seconds > 0:
        await asyncio.sleep(seconds)
