"""A node of the hard search's tree, shared by its two paths (:mod:`engine.ai.ismcts` on
game states, keyed by decisions; :mod:`engine.ai.compact_search`, keyed by small ints)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Node(Generic[K]):
    """Statistics of the edge into this node, from the view of the player who chose it."""

    __slots__ = ("available", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[K, Node[K]] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1
