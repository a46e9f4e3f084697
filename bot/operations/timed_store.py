"""The match store with each of its calls timed: a thin stand-in that forwards everything
to the real store, the service none the wiser.

Each coroutine method is timed from call to answer (a write's wait for its batch, or for a
pooled connection, included: that is what the service waits), failures too, labelled by
the store's kind and the method's name: a closed set, the `MatchStore` protocol's."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, cast

from prometheus_client import Histogram

from engine.hosting import MatchStore, StoreHealth


class TimedStore:
    """Forwards every attribute to ``store``; its coroutine methods are timed into
    ``calls`` (labels: store, operation)."""

    def __init__(self, store: MatchStore, calls: Histogram) -> None:
        self._store = store
        self._calls = calls
        self._kind = store.kind if isinstance(store, StoreHealth) else type(store).__name__
        self._timed: dict[str, Callable[..., Awaitable[Any]]] = {}

    @property
    def inner(self) -> MatchStore:
        return self._store

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if not inspect.iscoroutinefunction(found):
            return found
        timed = self._timed.get(name)
        if timed is None:
            timed = self._timed[name] = self._time(name, found)
        return timed

    def _time(
        self, name: str, call: Callable[..., Awaitable[Any]]
    ) -> Callable[..., Awaitable[Any]]:
        histogram = self._calls.labels(self._kind, name)

        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await call(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - started)

        return timed


def timed_store(store: MatchStore, calls: Histogram) -> MatchStore:
    """``store`` with its calls timed (typed as the store it stands for)."""
    return cast(MatchStore, TimedStore(store, calls))
