"""What an AI agent is: something that picks one of a view's legal decisions."""

from __future__ import annotations

import random
from typing import Protocol

from engine.rules.decisions import Decision
from engine.rules.views import PlayerView


class Agent(Protocol):
    """Decides for the seat whose view it is given; sees exactly what a human there sees."""

    name: str

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        """One of ``view.legal``; ``rng`` is the only source of randomness it may use."""
        ...


class RandomAgent:
    """The baseline: a uniformly random legal decision."""

    name = "random"

    def decide(self, view: PlayerView, rng: random.Random) -> Decision:
        if not view.legal:
            raise ValueError(f"player {view.player} has no decision to make now")
        return rng.choice(view.legal)
