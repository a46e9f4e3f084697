"""The emulator's virtual clock, so token expiry is testable without sleeping."""

from __future__ import annotations

import asyncio
import datetime


class VirtualClock:
    """Real loop time plus whatever tests skipped with `advance`.

    Only rules measured in minutes (interaction tokens) read this clock. The 3-second
    first-response rule deliberately uses the real loop time: skipping time must not make
    a fast bot look slow, and a slow bot must not look fast.
    """

    def __init__(self) -> None:
        self._skipped = 0.0
        self._epoch = datetime.datetime.now(datetime.UTC)
        self._loop_start = asyncio.get_running_loop().time()

    def now(self) -> float:
        """Seconds since the emulator started, including skipped time."""
        return asyncio.get_running_loop().time() - self._loop_start + self._skipped

    def advance(self, seconds: float) -> None:
        """Skip ahead; tokens issued before now age by `seconds`."""
        if seconds < 0:
            raise ValueError(f"cannot go back in time: {seconds!r}")
        self._skipped += seconds

    def utcnow(self) -> datetime.datetime:
        """Wall-clock time as the emulated Discord reports it in timestamps."""
        return self._epoch + datetime.timedelta(seconds=self.now())

    def iso_now(self) -> str:
        return self.utcnow().isoformat()
