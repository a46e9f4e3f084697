"""Nonces that make showing an announcement twice harmless.

An announcement is shown again after a restart when the bot died before reporting it
announced (``MatchService.announced``, :mod:`engine.service.announcing.outbox`). Each
message it posts carries a nonce made from the announcement's address (its match, if any,
and its key) and the message's place in it, sent with ``enforce_nonce`` (discord.py always
sets it with a nonce): Discord
then returns the message already posted instead of posting it again, for "the past few
minutes" (Create Message). Past that window a repeat is possible, and only for a bot that
was down that long mid-delivery.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

NONCE_TRUSTED_SECONDS = 60.0
"""How long after a first try a post with a nonce may be sent again after a 5xx: Discord
recognises a repeat for "a few minutes"; a minute is well inside that."""


@dataclass(slots=True)
class _Announcing:
    key: str
    posts: int = 0


_current: ContextVar[_Announcing | None] = ContextVar("announcing", default=None)


@contextmanager
def announcing(match_id: int | None, key: str) -> Iterator[None]:
    """Messages posted inside (by this task) belong to announcement ``key`` of the match
    (None: of no match — a season's podium, a tournament's news — whose key names it)."""
    token = _current.set(_Announcing(key if match_id is None else f"{match_id}/{key}"))
    try:
        yield
    finally:
        _current.reset(token)


def next_nonce(purpose: str | None = None) -> str | None:
    """The nonce of the next message of the announcement being shown (None outside one).

    Messages are told apart by ``purpose`` where given (the board, posted only when
    missing), else by their order, which is the same each time it is shown.
    """
    current = _current.get()
    if current is None:
        return None
    if purpose is None:
        current.posts += 1
        purpose = str(current.posts)
    digest = hashlib.blake2b(f"{current.key}/{purpose}".encode(), digest_size=12)
    return digest.hexdigest()  # 24 characters: Discord takes up to 25


def with_nonce(nonce: str | None) -> dict[str, Any]:
    """The ``send`` arguments that carry ``nonce`` (none without one)."""
    return {} if nonce is None else {"nonce": nonce}


@contextmanager
def outside_announcement() -> Iterator[None]:
    """Messages posted inside belong to no announcement (the board's own repairs, made
    while an announcement is shown)."""
    token = _current.set(None)
    try:
        yield
    finally:
        _current.reset(token)
