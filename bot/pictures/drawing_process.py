"""Where pictures are drawn: a separate process, so drawing neither blocks the event loop
nor competes with it for the interpreter lock (a worker thread would, and under load the
bot's answers then wait behind Pillow)."""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_pool: ProcessPoolExecutor | None = None


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # "spawn": a clean child that imports only what drawing needs; forking a process
        # that runs threads and an event loop is not safe.
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return _pool


async def draw(function: Callable[..., T], *args: Any) -> T:
    """Run a drawing function in the drawing process and wait for its result."""
    return await asyncio.get_running_loop().run_in_executor(_executor(), function, *args)


def stop() -> None:
    """End the drawing process (the bot calls this when it shuts down)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
