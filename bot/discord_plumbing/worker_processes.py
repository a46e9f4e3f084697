"""The bot's CPU-heavy work runs in worker processes, so it neither blocks the event loop
nor competes with it for the interpreter lock (in a thread it would, and under load every
answer would then wait behind Pillow or a searching AI).

Two single-worker pools: one draws pictures, one lets the AI think; a long search never
delays a board.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class WorkerProcess:
    """A lazily started one-process pool."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a clean child that imports only what the work needs; forking a
            # process that runs threads and an event loop is not safe.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self._pool

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor(), function, *args)

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


DRAWING = WorkerProcess("drawing")
THINKING = WorkerProcess("thinking")
