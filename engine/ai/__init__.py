"""AI agents: they decide from a player's view, never from the full game state."""

from engine.ai.agent import Agent, RandomAgent
from engine.ai.ismcts import IsmctsAgent
from engine.ai.levels import LEVELS, HeuristicAgent, agent_for_level

__all__ = ["LEVELS", "Agent", "HeuristicAgent", "IsmctsAgent", "RandomAgent", "agent_for_level"]
