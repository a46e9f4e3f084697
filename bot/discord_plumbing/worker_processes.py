"""The bot's CPU-heavy work runs in worker processes, so it neither blocks the event loop
nor competes with it for the interpreter lock (in a thread it would, and under load every
answer would then wait behind Pillow or a searching AI).

Two single-worker pools: one draws pictures, one lets the AI think; a long search never
delays a board.

A worker ends with the bot, however the bot ends. A SIGKILL gives the bot no chance to
stop it, and a worker never notices on its own: it holds both ends of its job queue's
pipe, so it waits for work for ever. It would also keep multiprocessing's resource
tracker alive, which a spawn pool starts for its queues' named semaphores and which exits
(unlinking them) only when every process holding its pipe is gone. So each worker
watches its parent itself: PR_SET_PDEATHSIG on Linux, and a thread that polls
``os.getppid()`` everywhere. A worker that dies is replaced, with one line in the log,
and the job it was running is tried once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

log = logging.getLogger(__name__)

PARENT_WATCH_SECONDS = 0.5
"""How often a worker without PR_SET_PDEATHSIG checks that its parent still runs."""

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _die_with_parent(parent_pid: int, spawned_by_main_thread: bool) -> None:
    """Pool initializer: end this worker as soon as the process that started it ends."""
    if spawned_by_main_thread and sys.platform == "linux":
        # The kernel signals when the parent *thread* ends, so this is asked for only
        # when the main thread (which lives as long as the bot) started the worker.
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    # The parent may have died before the signal was asked for: nobody would send it.
    if os.getppid() != parent_pid:
        os._exit(1)
    # Everywhere else, and as a second line: a reparented worker has lost its parent.
    threading.Thread(
        target=_exit_when_orphaned, args=(parent_pid,), name="parent-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(PARENT_WATCH_SECONDS)
    os._exit(1)


class WorkerProcess(Executor):
    """A lazily started one-process pool that replaces its worker when it dies."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def executor(self) -> Executor:
        """This worker as an executor, for code that submits its own work (the service)."""
        return self

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self, function, *args)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        outcome: Future[T] = Future()
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self._send(outcome, loop, fn, args, kwargs, retry=True)
        return outcome

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def stop(self) -> None:
        """Cancel the jobs not started and wait for the worker to end. Waiting matters:
        a pool left to stop on its own races the interpreter's exit, whose clean-up may
        write to the pool's wake-up pipe after the pool closed it (``OSError: [Errno 9]``
        printed at exit, seen when the bot stopped right after its first picture)."""
        self.shutdown(wait=True, cancel_futures=True)

    def _send(
        self,
        outcome: Future[T],
        loop: asyncio.AbstractEventLoop | None,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        retry: bool,
    ) -> None:
        if outcome.cancelled():
            return
        with self._lock:
            pool = self._live_pool()
            try:
                attempt = pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:
                # The worker died between jobs; this job has not been tried yet.
                self._replace(pool)
                attempt = self._live_pool().submit(fn, *args, **kwargs)

        def settle(attempt: Future[T]) -> None:
            if attempt.cancelled():
                outcome.cancel()
                return
            error = attempt.exception()
            if isinstance(error, BrokenProcessPool) and retry:
                # The worker died under this job: a new worker tries it once more.
                with self._lock:
                    self._replace(pool)
                if loop is None:
                    self._send_again(outcome, fn, args, kwargs)
                    return
                # Start the new worker from the loop's thread, not from the dead pool's
                # manager thread, which is about to end (see _die_with_parent).
                try:
                    loop.call_soon_threadsafe(self._send_again, outcome, fn, args, kwargs)
                except RuntimeError:  # the loop is closed: nobody waits for the answer
                    outcome.cancel()
                return
            with contextlib.suppress(InvalidStateError):  # cancelled meanwhile
                if error is not None:
                    outcome.set_exception(error)
                else:
                    outcome.set_result(attempt.result())

        outcome.add_done_callback(lambda done: attempt.cancel() if done.cancelled() else None)
        attempt.add_done_callback(settle)

    def _send_again(
        self,
        outcome: Future[T],
        fn: Callable[..., T],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        try:
            self._send(outcome, None, fn, args, kwargs, retry=False)
        except Exception as error:  # e.g. shut down meanwhile: the waiter must hear of it
            with contextlib.suppress(InvalidStateError):
                outcome.set_exception(error)

    def _live_pool(self) -> ProcessPoolExecutor:
        """The current pool, started if needed (the caller holds the lock)."""
        if self._pool is None:
            # "spawn": a clean child that imports only what the work needs; forking a
            # process that runs threads and an event loop is not safe. The worker starts
            # at the first submit, from the thread that submits.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=_die_with_parent,
                initargs=(os.getpid(), threading.current_thread() is threading.main_thread()),
            )
        return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Drop a pool whose worker died, once, however many jobs it took down."""
        if self._pool is not broken:
            return  # already replaced for another job
        log.warning("the %s worker process died; restarting it", self.name)
        self._pool = None
        broken.shutdown(wait=False)


DRAWING = WorkerProcess("drawing")
THINKING = WorkerProcess("thinking")
