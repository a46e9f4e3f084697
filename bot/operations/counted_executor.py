"""The AI's worker as the service sees it, with its queue counted and its jobs timed."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from prometheus_client import Gauge, Histogram

T = TypeVar("T")


class CountedExecutor(Executor):
    """Submits to ``inner``; ``waiting`` counts jobs submitted and not done, ``seconds``
    times each from submission to result. prometheus_client's metrics are thread-safe, and
    a job's done-callback may run on the executor's own thread."""

    def __init__(self, inner: Executor, waiting: Gauge, seconds: Histogram) -> None:
        self._inner = inner
        self._waiting = waiting
        self._seconds = seconds

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        started = time.perf_counter()
        self._waiting.inc()
        try:
            future = self._inner.submit(fn, *args, **kwargs)
        except BaseException:
            self._waiting.dec()
            raise

        def done(_: Future[T]) -> None:
            self._waiting.dec()
            self._seconds.observe(time.perf_counter() - started)

        future.add_done_callback(done)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait, cancel_futures=cancel_futures)
