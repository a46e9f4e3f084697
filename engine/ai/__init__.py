"""AI agents: they decide from a player's view, never from the full game state."""

from engine.ai.agent import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
